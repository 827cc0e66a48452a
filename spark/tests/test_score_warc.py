"""The Spark job in local[2] mode on WARC files built from shared sites: one Parquet row per
HTML response, the same texts as `pagelevel score` on the same WARC, failures as rows."""

import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pyarrow.parquet as parquet
import pytest

REPO = Path(__file__).resolve().parents[2]
CLI = Path(os.environ.get("PAGELEVEL_BIN", REPO / "target" / "release" / "pagelevel"))
SITES = REPO.parent / "shared" / "datasets" / "sites"
sys.path.insert(0, str(REPO / "spark"))

import score_warc  # noqa: E402


def write_warc(path: Path, pages):
    """A WARC file with one HTML response record per (url, body)."""
    from warcio.statusandheaders import StatusAndHeaders
    from warcio.warcwriter import WARCWriter

    with open(path, "wb") as stream:
        writer = WARCWriter(stream, gzip=path.suffix == ".gz")
        for url, body, content_type in pages:
            headers = StatusAndHeaders("200 OK", [("Content-Type", content_type)], protocol="HTTP/1.1")
            record = writer.create_warc_record(url, "response", payload=io.BytesIO(body), http_headers=headers)
            writer.write_record(record)


def site_pages(site: str, count: int, host: str):
    files = sorted((SITES / site).glob("*.html"))[:count]
    assert files, f"{SITES / site} holds no pages"
    return [(f"https://{host}/{file.name}", file.read_bytes(), "text/html; charset=utf-8") for file in files]


@pytest.fixture(scope="module")
def warcs(tmp_path_factory):
    directory = tmp_path_factory.mktemp("warcs")
    first = directory / "python-docs.warc.gz"
    write_warc(first, site_pages("python3-docs-sphinx", 3, "docs.python.org"))
    second = directory / "sqlite.warc"
    pages = site_pages("sqlite-website", 2, "sqlite.org")
    # An empty body cannot be scored: it must come out as a row with an error.
    pages.append(("https://sqlite.org/empty.html", b"", "text/html"))
    # Not HTML: no row at all.
    pages.append(("https://sqlite.org/logo.png", b"\x89PNG", "image/png"))
    write_warc(second, pages)
    return [first, second]


def test_every_html_response_is_a_row_with_the_clis_texts_and_failures_are_rows(warcs, tmp_path):
    output = tmp_path / "scored.parquet"
    rows = score_warc.run([str(path) for path in warcs], str(output), "local[2]", "native")
    assert rows == 6
    table = parquet.read_table(output).to_pylist()
    by_url = {row["url"]: row for row in table}
    assert len(by_url) == 6
    failed = by_url["https://sqlite.org/empty.html"]
    assert failed["error"] and "empty" in failed["error"]
    assert failed["main_text"] is None
    for path in warcs:
        cli = subprocess.run(
            [str(CLI), "score", "--layout", "native", "--format", "jsonl",
             "--quiet", str(path)],
            capture_output=True, check=False, text=True,
        )
        for line in cli.stdout.splitlines():
            page = json.loads(line)
            row = by_url[page["url"]]
            assert row["error"] is None
            assert row["host"] == page["url"].split("/")[2]
            assert row["main_text"] == page["main_text"]
            assert row["main_markdown"] == page["main_markdown"]
            assert row["content_text"] == page["content_text"]
            assert row["template_share"] == pytest.approx(page["template_text_share"])
            assert json.loads(row["sections"]) == page["sections"]
            assert json.loads(row["metadata"]) == page["metadata"]
            assert row["page_type"] == page["page_type"]["type"]
            assert row["page_type_probability"] == page["page_type"]["probability"]


def test_a_missing_warc_is_refused_before_spark_starts(tmp_path, capsys):
    assert score_warc.main([str(tmp_path / "no.warc"), "--output", str(tmp_path / "out")]) == 2
    assert "no such WARC file" in capsys.readouterr().err


def warc_member(url: str, http_block: bytes) -> bytes:
    """One WARC response record as a gzip member, its HTTP block as given (warcio's writer would
    refuse a malformed one)."""
    import zlib

    head = (
        "WARC/1.0\r\nWARC-Type: response\r\nWARC-Record-ID: <urn:uuid:00000000-0000-0000-0000-000000000000>\r\n"
        f"WARC-Target-URI: {url}\r\nContent-Type: application/http; msgtype=response\r\n"
        f"Content-Length: {len(http_block)}\r\n\r\n"
    ).encode()
    compressor = zlib.compressobj(6, zlib.DEFLATED, 31)
    return compressor.compress(head + http_block + b"\r\n\r\n") + compressor.flush()


def test_a_response_whose_http_head_cannot_be_read_is_a_failure_row_and_the_file_goes_on(tmp_path):
    warc = tmp_path / "crawl.warc.gz"
    (url, body, _), (second_url, second_body, _) = site_pages("sqlite-website", 2, "sqlite.org")
    page = b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n"
    malformed = b"HTTP/1.1 two hundred\r\nthis line has no colon\r\n\r\n<html><p>a page?</p></html>"
    warc.write_bytes(
        warc_member(url, page + body)
        + warc_member("https://sqlite.org/bad-head.html", malformed)
        + warc_member(second_url, page + second_body)
    )
    rows = list(score_warc.score_files([str(warc)], "native"))
    assert [row[0] for row in rows] == [url, "https://sqlite.org/bad-head.html", second_url]
    assert [row[-1] is None for row in rows] == [True, False, True]
    assert rows[1][1] == "sqlite.org"
    assert rows[1][-1] == "malformed HTTP response head (status line 'HTTP/1.1 two hundred')"


def test_a_record_cut_short_is_a_failure_row_not_half_a_page_scored(tmp_path):
    warc = tmp_path / "crawl.warc.gz"
    (url, body, _), (second_url, second_body, _) = site_pages("sqlite-website", 2, "sqlite.org")
    page = b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n"
    last = warc_member(second_url, page + second_body)
    warc.write_bytes(warc_member(url, page + body) + last[: len(last) // 2])  # an interrupted write
    rows = list(score_warc.score_files([str(warc)], "native"))
    assert [row[0] for row in rows] == [url, second_url]
    assert rows[0][-1] is None
    assert rows[1][-1].startswith("truncated record: its WARC block ends ") and rows[1][2] is None
