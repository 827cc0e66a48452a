"""The labelling job in local[2] mode on a WARC of two shared sites and a one-page host: the
training rows are those `pagelevel train --rows-out` writes for the same WARC, a host with too
few pages is skipped, and `pagelevel train --rows` fits the same model from either. Over the
shared sites' WARCs (spark/build_site_warcs.py) with a host spread over two files and
re-captured URLs, the two passes give the rows of labelling each host's every page at once.
Pass 1 keeps places, not bodies; pass 2 reads the sampled records and no other."""

import csv
import json
import subprocess
import sys
from collections import defaultdict
from pathlib import Path

import pytest

from test_score_warc import CLI, REPO, SITES, site_pages, write_warc

sys.path.insert(0, str(REPO / "spark"))

import build_site_warcs  # noqa: E402
import label_hosts  # noqa: E402

OPTIONS = {"layout": "native", "max_pages": 5, "min_pages": 3, "theta": 0.1, "labeler": "frequency", "seed": 7}


def host_of(site: str) -> str:
    """The host of a site name: `pagelevel train` names a WARC's hosts `FILE:host`."""
    return site.split(".warc.gz:", 1)[-1]


def read_rows(path: Path):
    """(header, rows as tuples of typed values) of a CSV file or a directory of part files."""
    files = sorted(path.glob("part-*.csv")) if path.is_dir() else [path]
    header, rows = None, []
    for file in files:
        with open(file, newline="") as stream:
            reader = csv.reader(stream)
            header = next(reader)
            for row in reader:
                site, domain, layout, page, *numbers = row
                template = numbers.pop(1).lower() == "true"
                values = [float(value) for value in numbers]
                rows.append((host_of(site), domain, layout, page, template, *values))
    return header, rows


@pytest.fixture(scope="module")
def crawl(tmp_path_factory):
    directory = tmp_path_factory.mktemp("crawl")
    warc = directory / "crawl.warc.gz"
    pages = site_pages("sqlite-website", 7, "sqlite.org") + site_pages("httrack-website", 4, "httrack.org")
    pages += site_pages("flask-docs-sphinx", 1, "flask.org")
    write_warc(warc, pages)
    return warc


def train(*arguments):
    result = subprocess.run([str(CLI), "train", "--quiet", *map(str, arguments)], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    return result


def test_the_jobs_rows_are_the_clis_rows_and_fit_the_same_model(crawl, tmp_path):
    output = tmp_path / "rows"
    count, skipped = label_hosts.run([str(crawl)], str(output), "local[2]", OPTIONS)
    assert skipped.counts == {"host": 1}
    assert [(kind, host) for kind, host, _ in skipped.first] == [("host", "flask.org")]
    assert "fewer than" in skipped.first[0][2]

    sites = tmp_path / "sites.txt"
    sites.write_text(f"{crawl}\n")
    cli_rows = tmp_path / "cli.csv"
    flags = ["--layout", "native", "--max-pages", 5, "--min-pages", 3, "--holdout-every", 2]
    train("--sites", sites, "--out", tmp_path / "direct.json", "--rows-out", cli_rows, *flags)

    job_header, job = read_rows(output)
    cli_header, cli = read_rows(cli_rows)
    assert job_header == cli_header
    assert count == len(job) == len(cli) > 100
    assert sorted(job) == sorted(cli)
    assert {row[0] for row in job} == {"sqlite.org", "httrack.org"}

    train("--rows", output, "--out", tmp_path / "from_job.json", "--holdout-every", 2)
    train("--rows", cli_rows, "--out", tmp_path / "from_cli.json", "--holdout-every", 2)
    from_job = json.loads((tmp_path / "from_job.json").read_text())
    from_cli = json.loads((tmp_path / "from_cli.json").read_text())
    assert from_job["layout_engine"] == "native"
    assert from_job["buckets"] == from_cli["buckets"]


def test_a_missing_warc_is_refused_before_spark_starts(tmp_path, capsys):
    assert label_hosts.main([str(tmp_path / "no.warc"), "--output", str(tmp_path / "out")]) == 2
    assert "no such WARC file" in capsys.readouterr().err


def one_pass_rows(warcs, options):
    """The rows of the single-pass job this one replaced: every HTML response body of a host
    held at once, in crawl order (file, then record), each URL's first capture, and
    `label_site` drawing the sample from all of them. Returns (rows, skipped hosts)."""
    import pagelevel

    from warcio.archiveiterator import ArchiveIterator

    hosts = defaultdict(list)
    seen = set()
    for path in warcs:
        with open(path, "rb") as stream:
            for record in ArchiveIterator(stream):
                if record.rec_type != "response" or record.http_headers.get_statuscode() != "200":
                    continue
                content_type = record.http_headers.get_header("Content-Type") or ""
                url = record.rec_headers.get_header("WARC-Target-URI")
                if "html" not in content_type.lower() or url in seen:
                    continue
                seen.add(url)
                body = record.content_stream().read()
                hosts[label_hosts.site_of(url)].append((url, body, label_hosts.http_charset(content_type)))
    rows, skipped = [], []
    for host, pages in sorted(hosts.items()):
        try:
            labelled = pagelevel.label_site(pages, host=host, **options)
        except pagelevel.SiteError as error:
            skipped.append((host, str(error)))
            continue
        # as read_rows reads the CSV: no domain is "", the template flag before the area
        for site, domain, layout, page, area, template, *features in labelled:
            rows.append((site, domain or "", layout, page, template, area, *features))
    return rows, skipped


@pytest.fixture(scope="module")
def site_warcs(tmp_path_factory):
    """Four shared sites' WARCs, and one more file that re-captures two sqlite URLs (with other
    bodies: the first capture counts), adds sqlite pages (a host over two files), and a one-page
    host."""
    sites = tmp_path_factory.mktemp("sites")
    for name in ["sqlite-website", "httrack-website", "python3-docs-sphinx", "flask-docs-sphinx"]:
        (sites / name).symlink_to(SITES / name)
    directory = tmp_path_factory.mktemp("site-warcs")
    build_site_warcs.main(sites, directory)
    warcs = sorted(directory.glob("*.warc.gz"))
    sqlite = site_pages("sqlite-website", 2, "sqlite-website")
    recaptures = [(url, body.replace(b"<body", b"<body><nav>recaptured</nav"), kind) for url, body, kind in sqlite]
    extra = site_pages("sqlite-website", 3, "sqlite-website")
    extra = [(url.replace(".html", "-extra.html"), body, kind) for url, body, kind in extra]
    lonely = site_pages("httrack-website", 1, "lonely.example")
    last = directory / "zz-recaptures.warc.gz"
    write_warc(last, recaptures + extra + lonely)
    return [str(path) for path in warcs + [last]]


# msa's labels depend on the order of the sampled pages, frequency's do not
@pytest.mark.parametrize("labeler", ["frequency", "msa"])
def test_two_passes_give_the_rows_of_labelling_each_hosts_every_page_at_once(site_warcs, tmp_path, labeler):
    options = {**OPTIONS, "max_pages": 6, "labeler": labeler}
    output = tmp_path / "rows"
    count, skipped = label_hosts.run(site_warcs, str(output), "local[2]", options)
    expected_rows, expected_skipped = one_pass_rows(site_warcs, options)
    _, job = read_rows(output)
    assert count == len(job) == len(expected_rows) > 1000
    assert sorted(job) == sorted(expected_rows)
    assert {row[0] for row in job} == {"sqlite-website", "httrack-website", "python3-docs-sphinx", "flask-docs-sphinx"}
    assert [(name, reason) for _, name, reason in skipped.first] == expected_skipped
    assert expected_skipped == [("lonely.example", expected_skipped[0][1])]


def places_of(warc: Path):
    located = list(label_hosts.locate([(0, str(warc))]))
    assert all(kind == "place" for kind, _ in located)
    return [place for _, place in located]


def overwrite_records(warc: Path, places, keep):
    """Overwrites with garbage every record but the places numbered in `keep`."""
    data = bytearray(warc.read_bytes())
    ends = [place.offset for place in places[1:]] + [len(data)]
    for index, (place, end) in enumerate(zip(places, ends)):
        if index not in keep:
            data[place.offset : end] = b"garbage!" * ((end - place.offset) // 8) + b"!" * ((end - place.offset) % 8)
    warc.write_bytes(bytes(data))


def test_pass_one_keeps_where_each_response_lies_and_no_body(crawl):
    places = places_of(crawl)
    assert label_hosts.Place._fields == ("host", "url", "file", "record", "offset")
    assert [place.host for place in places] == ["sqlite.org"] * 5 + ["httrack.org"] * 4 + ["flask.org"]
    assert all(type(value) in (str, int) for place in places for value in place), "no bodies"
    assert [place.record for place in places] == list(range(10))
    assert places[0] == label_hosts.Place("sqlite.org", places[0].url, 0, 0, 0)
    assert all(earlier.offset < later.offset for earlier, later in zip(places, places[1:]))


def test_pass_two_reads_the_sampled_records_and_no_other(tmp_path):
    warc = tmp_path / "crawl.warc.gz"
    pages = site_pages("httrack-website", 8, "httrack.org")
    write_warc(warc, pages)
    places = places_of(warc)
    sample = [(rank, places[index]) for rank, index in enumerate([5, 2, 6])]
    overwrite_records(warc, places, keep={2, 5, 6})
    read = list(label_hosts.read_sample(str(warc), sample))
    assert sorted(read) == sorted(
        ("httrack.org", (rank, pages[index][0], pages[index][1], "utf-8")) for rank, index in enumerate([5, 2, 6])
    )


def test_a_sampled_record_that_cannot_be_read_again_skips_its_host_with_the_reason(tmp_path):
    warc = tmp_path / "crawl.warc.gz"
    write_warc(warc, site_pages("sqlite-website", 4, "sqlite.org"))
    places = places_of(warc)
    moved = places[1]._replace(offset=places[2].offset)
    overwrite_records(warc, places, keep={0, 1, 2})
    read = list(label_hosts.read_sample(str(warc), [(0, places[0]), (1, moved), (2, places[3])]))
    assert [body is None for _, (_, _, body, _) in read] == [False, True, True]
    assert "the record there is a response of https://sqlite.org/" in read[1][1][3]
    sample = [page for _, page in read]
    assert list(label_hosts.label_sample("sqlite.org", sample, OPTIONS)) == [("skipped", ("sqlite.org", read[1][1][3]))]


def test_a_sampled_record_cut_short_is_not_labelled_from_half_a_page(tmp_path):
    warc = tmp_path / "crawl.warc.gz"
    write_warc(warc, site_pages("sqlite-website", 3, "sqlite.org"))
    places = places_of(warc)
    data = warc.read_bytes()
    warc.write_bytes(data[: (places[2].offset + len(data)) // 2])  # an interrupted write
    read = list(label_hosts.read_sample(str(warc), [(0, places[0]), (1, places[2])]))
    assert read[0][1][2] is not None
    assert read[1][1][2] is None
    assert "truncated record: its WARC block ends " in read[1][1][3]


def test_a_warc_damaged_part_way_keeps_the_places_before_and_is_listed(tmp_path):
    warc = tmp_path / "crawl.warc.gz"
    write_warc(warc, site_pages("sqlite-website", 4, "sqlite.org"))
    places = places_of(warc)
    overwrite_records(warc, places, keep={0, 1, 3})
    located = list(label_hosts.locate([(0, str(warc))]))
    assert located[:2] == [("place", place) for place in places[:2]]
    assert located[2][0] == "skipped" and len(located) == 3
    assert located[2][1][0] == str(warc) and "past HTML response 2" in located[2][1][1]


def test_a_damaged_warc_is_listed_and_its_hosts_labelled_from_the_records_before(tmp_path, capsys):
    warc = tmp_path / "crawl.warc.gz"
    write_warc(warc, site_pages("httrack-website", 5, "httrack.org"))
    overwrite_records(warc, places_of(warc), keep={0, 1, 2})
    arguments = [str(warc), "--output", str(tmp_path / "rows"), "--master", "local[2]"]
    assert label_hosts.main([*arguments, "--min-pages", "3", "--max-pages", "3"]) == 0
    errors = capsys.readouterr().err.splitlines()
    assert errors[0].startswith(f"pagelevel: warning: read only part of {warc}: cannot read past HTML response 3")
    assert errors[1].startswith("wrote ") and "(0 hosts skipped, 1 WARC files read in part)" in errors[1]
    _, rows = read_rows(tmp_path / "rows")
    assert {row[3] for row in rows} == {url for url, _, _ in site_pages("httrack-website", 3, "httrack.org")}


def test_a_sampled_page_that_cannot_be_laid_out_is_listed_and_its_hosts_other_pages_labelled():
    pages = site_pages("sqlite-website", 3, "sqlite.org") + [("https://sqlite.org/empty.html", b"", "text/html")]
    sample = [(rank, url, body, "utf-8") for rank, (url, body, _) in enumerate(pages)]
    labelled = list(label_hosts.label_sample("sqlite.org", sample, OPTIONS))
    assert labelled[-1] == ("skipped", ("https://sqlite.org/empty.html", label_hosts.UNLABELLED_PAGE))
    assert all(kind == "row" for kind, _ in labelled[:-1])
    assert {row[3] for _, row in labelled[:-1]} == {url for url, _, _ in pages[:3]}


def test_the_driver_holds_counts_and_the_first_few_skipped_and_the_output_lists_them_all(tmp_path, capsys, monkeypatch):
    warc = tmp_path / "crawl.warc.gz"
    lonely = [(f"https://lonely-{n}.example/a.html", body, kind) for n, (_, body, kind) in
              enumerate(site_pages("sqlite-website", 3, "sqlite.org"))]
    write_warc(warc, site_pages("httrack-website", 3, "httrack.org") + lonely)
    monkeypatch.setattr(label_hosts, "SHOWN", 2)
    arguments = [str(warc), "--output", str(tmp_path / "rows"), "--master", "local[2]"]
    assert label_hosts.main([*arguments, "--min-pages", "3", "--max-pages", "3"]) == 0
    errors = capsys.readouterr().err.splitlines()
    assert errors[0].startswith("pagelevel: warning: skipped host lonely-0.example: ")
    assert "fewer than --min-pages 3" in errors[0]
    assert errors[1].startswith("pagelevel: warning: skipped host lonely-1.example: ")
    assert errors[2] == f"pagelevel: warning: 1 more skipped: {tmp_path / 'rows' / '_skipped'} lists them all"
    assert "(3 hosts skipped)" in errors[3]
    listed = []
    for part in sorted((tmp_path / "rows" / "_skipped").glob("part-*.csv")):
        with open(part, newline="") as stream:
            listed += [(row["kind"], row["name"]) for row in csv.DictReader(stream)]
    assert sorted(listed) == [("host", f"lonely-{n}.example") for n in range(3)]
    _, rows = read_rows(tmp_path / "rows")
    assert {row[0] for row in rows} == {"httrack.org"}
