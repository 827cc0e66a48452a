"""Stylesheets archived in the crawl style its pages in both jobs: a page is scored with the
CSS it links (found by URL, even when the record comes after the page), a CSS record gives no
row, and a host is labelled with the sheets its sampled pages load — the rows `pagelevel train
--sites` writes for the same WARC, and not those of the same pages without their CSS."""

import json
import sys
from pathlib import Path

import pyarrow.parquet as parquet

from test_label_hosts import OPTIONS, read_rows, train
from test_score_warc import REPO, SITES, write_warc

sys.path.insert(0, str(REPO / "spark"))

import archived_css  # noqa: E402
import build_site_warcs  # noqa: E402
import label_hosts  # noqa: E402
import score_warc  # noqa: E402

PAGE = (
    b'<html><head><link rel="stylesheet" href="../s.css"></head><body>'
    b'<div class="promo"><p>Buy our product now, a limited offer for readers of this page only today.</p></div>'
    b"<article><h1>Title</h1><p>" + b"The article text goes on for a while here. " * 40 + b"</p></article></body></html>"
)
PAGE_URL = "https://example.org/a/page.html"
# Imported by the linked sheet: hides the promotion.
SHEETS = [
    ("https://example.org/s.css", b'@import url("hide.css");', "text/css"),
    ("https://example.org/hide.css", b".promo { display: none }", "text/css; charset=utf-8"),
]


def test_a_pages_sheets_are_those_it_links_and_they_import_and_missing_ones_are_left_out():
    found = {url: (css, kind) for url, css, kind in SHEETS}
    sheets = archived_css.sheets_of_page(
        ["https://example.org/s.css", "https://example.org/missing.css"], found.get
    )
    assert list(sheets) == ["https://example.org/s.css", "https://example.org/hide.css"]
    assert archived_css.imported_urls(b"@import 'a.css' screen; @import url(/b.css);", "https://x.org/d/s.css") == [
        "https://x.org/d/a.css",
        "https://x.org/b.css",
    ]


def test_a_page_is_scored_with_its_archived_css_and_css_records_give_no_rows(tmp_path):
    styled, plain = tmp_path / "styled.warc.gz", tmp_path / "plain.warc.gz"
    # The crawler fetched the sheets after the page, as crawlers do.
    write_warc(styled, [(PAGE_URL, PAGE, "text/html")] + SHEETS)
    write_warc(plain, [(PAGE_URL, PAGE, "text/html")])
    output = tmp_path / "scored.parquet"
    assert score_warc.run([str(styled), str(plain)], str(output), "local[2]", "native") == 2
    rows = parquet.read_table(output).to_pylist()
    assert [row["url"] for row in rows] == [PAGE_URL, PAGE_URL], "a stylesheet is not a page"
    with_css, without_css = rows
    assert with_css["error"] is None and without_css["error"] is None
    # Unstyled, the promotion is laid out and scored; hidden by the archived CSS, it is gone.
    assert "Buy our product" in without_css["content_text"]
    assert "Buy our product" not in with_css["content_text"]
    assert "The article text goes on" in with_css["main_text"]
    # One section with text fewer: the promotion's, which the CSS hides.
    def sections_with_text(row):
        return [section for section in json.loads(row["sections"]) if section["text_chars"] > 0]

    assert len(sections_with_text(with_css)) < len(sections_with_text(without_css))


def test_a_host_is_labelled_with_the_sheets_its_pages_load_as_train_sites_labels_it(tmp_path):
    sites = tmp_path / "sites"
    sites.mkdir()
    for site in ("octave-manual-texinfo", "postgresql-docs-docbook"):
        (sites / site).symlink_to(SITES / site)
    build_site_warcs.main(sites, tmp_path / "styled", with_css=True)
    build_site_warcs.main(sites, tmp_path / "plain")
    rows = {}
    for kind in ("styled", "plain"):
        output = tmp_path / f"rows-{kind}"
        count, skipped = label_hosts.run([str(tmp_path / kind / "*.warc.gz")], str(output), "local[2]", OPTIONS)
        assert count > 0 and skipped.counts == {}
        rows[kind] = read_rows(output)[1]
    assert sorted(rows["styled"]) != sorted(rows["plain"]), "the CSS changed no layout"
    listed = tmp_path / "sites.txt"
    listed.write_text("".join(f"{warc}\n" for warc in sorted((tmp_path / "styled").glob("*.warc.gz"))))
    flags = ["--layout", "native", "--max-pages", 5, "--min-pages", 3, "--holdout-every", 2]
    train("--sites", listed, "--out", tmp_path / "model.json", "--rows-out", tmp_path / "rows.csv", *flags)
    assert sorted(read_rows(tmp_path / "rows.csv")[1]) == sorted(rows["styled"])


def test_boxes_with_css_from_the_warc_equal_boxes_with_css_on_disk():
    """Two pages (at the top of its folder, the web root `path=` gives) of shared sites linking
    their CSS relatively: laid out with the sheets their site's WARC archives, every element's
    box is the box it gets from the saved site's folder."""
    import pagelevel

    compared = 0
    for site in ("python3-docs-sphinx", "rust-book-mdbook", "scrapy-docs-sphinx-rtd", "apes-charity-hugo"):
        # (A 404 page links sheets the saved site does not hold.)
        files = [file for file in sorted((SITES / site).glob("*.html")) if file.name != "404.html"][:2]
        pages = {f"https://{site}/{file.relative_to(SITES / site).as_posix()}": file for file in files}
        sheets = build_site_warcs.site_stylesheets(SITES / site, {url: file.read_bytes() for url, file in pages.items()})
        assert sheets, f"{site} archives no stylesheets"
        for url, file in pages.items():
            on_disk = pagelevel.score(path=file, url=url)
            from_warc = pagelevel.score(file.read_bytes(), url, stylesheets=sheets)
            boxes = [node["box"] for node in from_warc["nodes"]]
            assert boxes == [node["box"] for node in on_disk["nodes"]], url
            unstyled = pagelevel.score(file.read_bytes(), url)
            assert boxes != [node["box"] for node in unstyled["nodes"]], f"{url}: its CSS changed nothing"
            compared += 1
    assert compared == 8
