"""The labelling job in local[2] mode on a WARC of two shared sites and a one-page host: the
training rows are those `pagelevel train --rows-out` writes for the same WARC, a host with too
few pages is skipped, and `pagelevel train --rows` fits the same model from either."""

import csv
import json
import subprocess
import sys
from pathlib import Path

import pytest

from test_score_warc import CLI, REPO, site_pages, write_warc

sys.path.insert(0, str(REPO / "spark"))

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
    assert [host for host, _ in skipped] == ["flask.org"]
    assert "fewer than" in skipped[0][1]

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
