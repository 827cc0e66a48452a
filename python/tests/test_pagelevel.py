"""The Python package on real pages: the bundled GNU page and pages of the shared labelled sets
(``../shared/datasets/labeled`` beside the repository)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

import pagelevel

REPO = Path(__file__).resolve().parents[2]
GNU = REPO / "datasets" / "example" / "gnu.org" / "index.html"
LABELLED = REPO / ".." / "shared" / "datasets" / "labeled"
# Pages of three sets, each with a sentence of its gold main text.
ARTICLES = {
    "dragnet/HTML/128.html": "many people were prepared to give up a little privacy",
    "big9/yahoo/html/2009-iran.html": "Iran offered help in combating the Afghan drugs trade",
    "cleaneval/input/final-80.html": "Our knowledge of the logical and natural foundations",
}
CLI = Path(os.environ.get("PAGELEVEL_BIN", REPO / "target" / "release" / "pagelevel"))


def labelled(name: str) -> Path:
    path = LABELLED / name
    if not path.exists():
        pytest.fail(f"{path} is missing: the shared datasets sit beside the repository")
    return path


def without_timings(page: dict) -> dict:
    return {key: value for key, value in page.items() if key != "timings_ms"}


def test_extract_of_the_bundled_page_is_its_article_without_the_footer():
    text = pagelevel.extract(GNU.read_text(encoding="utf-8"))
    assert "GNU is a Unix-like operating system" in text
    assert "Copyright Infringement Notification" not in text


def test_extract_as_markdown_is_the_command_lines_markdown():
    markdown = pagelevel.extract(path=GNU, format="markdown")
    if not CLI.exists():
        pytest.fail(f"{CLI} is missing: build it with `cargo build --release`")
    written = subprocess.run(
        [str(CLI), "score", "--format", "markdown", str(GNU)],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    assert markdown == written.rstrip("\n")
    assert "\n- The freedom to run the program, for any purpose (freedom 0).\n" in markdown
    linked = pagelevel.extract(GNU.read_bytes(), "https://www.gnu.org/", format="markdown", links=True)
    assert "](https://www.gnu.org/" in linked
    with pytest.raises(ValueError):
        pagelevel.extract(GNU.read_bytes(), format="html")
    with pytest.raises(ValueError):
        pagelevel.extract(GNU.read_bytes(), links=True)


def test_score_carries_the_pages_metadata_with_its_sources():
    page = pagelevel.score(path=GNU, nodes=False)
    metadata = page["metadata"]
    assert metadata["language"] == "en"
    assert metadata["sources"]["language"] == "html-lang"
    assert metadata["title"]


def test_score_says_what_kind_of_page_it_is():
    page = pagelevel.score(path=GNU, nodes=False)
    assert page["page_type"]["type"] in {
        "article", "collection", "documentation", "forum", "listing", "product", "service"
    }
    assert 0.0 < page["page_type"]["probability"] <= 1.0


def test_content_is_the_text_not_template():
    content = pagelevel.content(GNU.read_text(encoding="utf-8"))
    assert "GNU is a Unix-like operating system" in content
    assert "Copyright Infringement Notification" not in content


@pytest.mark.parametrize("name", sorted(ARTICLES))
def test_extract_finds_the_gold_article_of_labelled_pages(name):
    assert ARTICLES[name] in " ".join(pagelevel.extract(labelled(name).read_bytes()).split())


def test_score_is_the_object_the_command_line_writes():
    if not CLI.exists():
        pytest.fail(
            f"{CLI} is missing: build it with `cargo build --release` (or set PAGELEVEL_BIN)"
        )
    written = subprocess.run(
        [str(CLI), "score", "--layout", "native", "--format", "json", str(GNU)],
        check=True,
        capture_output=True,
    ).stdout
    from_cli = json.loads(written)
    from_python = pagelevel.score(path=GNU)
    assert without_timings(from_python) == without_timings(from_cli)
    assert from_python["timings_ms"].keys() == from_cli["timings_ms"].keys()


def test_score_reads_bytes_and_text_alike_and_keeps_the_url():
    html = labelled("dragnet/HTML/128.html").read_bytes()
    url = "https://www.example.com/2012/07/24/security.html"
    from_bytes = pagelevel.score(html, url)
    assert from_bytes["url"] == url
    assert from_bytes["format_version"] == 1
    assert from_bytes["nodes"][0]["tag"] == "html"
    assert from_bytes["main_text"] == pagelevel.extract(html, url)
    as_text = GNU.read_text(encoding="utf-8")
    assert without_timings(pagelevel.score(as_text)) == without_timings(
        pagelevel.score(as_text.encode("utf-8"))
    )


def test_a_page_on_disk_has_a_file_url_and_its_stylesheets():
    page = pagelevel.score(path=str(GNU))
    assert page["url"].startswith("file://") and page["url"].endswith("gnu.org/index.html")
    assert "GNU is a Unix-like operating system" in page["main_text"]


def test_a_saved_sites_root_relative_stylesheet_loads_from_the_web_root(tmp_path):
    # A page in a subfolder links /css/site.css: its folder is not the site's root.
    (tmp_path / "css").mkdir()
    (tmp_path / "css" / "site.css").write_text(".menu { display: none }")
    (tmp_path / "docs").mkdir()
    page = tmp_path / "docs" / "page.html"
    page.write_text(
        '<!doctype html><title>Intro</title><link rel="stylesheet" href="/css/site.css">'
        '<div class="menu"><a href="/">Home</a> <a href="/docs/">Docs</a></div>'
        "<article><h1>Introduction</h1><p>This page introduces the tool in words enough to be "
        "an article of its own, and a second sentence for good measure.</p></article>"
    )

    def menu_box(**where):
        nodes = pagelevel.score(path=page, **where)["nodes"]
        return next(node["box"] for node in nodes if node["tag"] == "div")

    assert menu_box() is not None, "from its own folder, /css/site.css is not found"
    assert menu_box(web_root=tmp_path) is None, "the site's stylesheet hides the menu"
    with pytest.raises(ValueError, match="web_root= applies to a page given as path="):
        pagelevel.extract("<p>x</p>", web_root=tmp_path)
    with pytest.raises(FileNotFoundError, match="no-such-root"):
        pagelevel.extract(path=page, web_root=tmp_path / "no-such-root")


def test_a_scorer_takes_the_scoring_options():
    strict = pagelevel.Scorer(threshold=0.9, content_floor=False)
    assert strict.layout == "native" and strict.threshold == 0.9
    assert strict.score(path=GNU)["threshold"] == 0.9


def test_an_empty_page_fails_with_the_command_line_message():
    with pytest.raises(pagelevel.PageError, match=r"^the page is empty \(0 bytes\)$"):
        pagelevel.extract("")
    with pytest.raises(ValueError):
        pagelevel.score(b"")


def test_binary_bytes_fail_as_not_html():
    with pytest.raises(pagelevel.PageError, match="looks binary, not HTML"):
        pagelevel.content(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR")


def test_a_page_beyond_the_limits_fails_naming_the_limit():
    with pytest.raises(pagelevel.PageError, match="over the limit of 100 bytes"):
        pagelevel.Scorer(max_bytes=100).extract(path=GNU)


def test_a_page_over_the_layout_memory_budget_fails_naming_its_size():
    page = "<body>" + "<div>x</div>" * 20_000
    with pytest.raises(pagelevel.PageError, match="20003 elements.*budget of 64 MiB"):
        pagelevel.Scorer(max_layout_memory=64).extract(page)
    assert pagelevel.Scorer().extract(page)  # within the default 512 MiB
    with pytest.raises(ValueError, match="max_layout_memory must be from 64"):
        pagelevel.Scorer(max_layout_memory=8)


def test_bad_arguments_are_value_errors():
    with pytest.raises(ValueError, match="layout must be"):
        pagelevel.Scorer(layout="gecko")
    with pytest.raises(ValueError, match="threshold must be between 0 and 1"):
        pagelevel.Scorer(threshold=1.5)
    with pytest.raises(ValueError, match="either as html or as path="):
        pagelevel.extract("<p>x</p>", path=GNU)
    with pytest.raises(ValueError, match="no page"):
        pagelevel.extract()
    with pytest.raises(ValueError, match="bad URL"):
        pagelevel.extract("<p>x</p>", "not a url")


def test_a_missing_file_is_file_not_found_naming_it():
    with pytest.raises(FileNotFoundError, match="cannot read .*no-such-page.html"):
        pagelevel.extract(path=REPO / "no-such-page.html")


def test_a_failed_page_leaves_the_scorer_usable():
    scorer = pagelevel.Scorer()
    with pytest.raises(pagelevel.PageError):
        scorer.extract(b"")
    assert "GNU is a Unix-like operating system" in scorer.extract(path=GNU)


def test_two_threads_sharing_a_scorer_give_the_results_of_one():
    pages = [GNU] + [labelled(name) for name in sorted(ARTICLES)]
    pages = pages * 2
    alone = pagelevel.Scorer()
    expected = [without_timings(alone.score(path=page)) for page in pages]
    shared = pagelevel.Scorer()
    with ThreadPoolExecutor(2) as pool:
        got = list(pool.map(lambda page: without_timings(shared.score(path=page)), pages))
    assert got == expected


@pytest.mark.skipif(
    shutil.which("chromium") is None and not Path("/usr/bin/chromium").exists(),
    reason="Chromium is not installed (.ci/setup installs it)",
)
def test_chromium_lays_the_page_out_with_the_chromium_model():
    scorer = pagelevel.Scorer(layout="chromium")
    text = scorer.extract(path=GNU)
    assert "GNU is a Unix-like operating system" in text
    assert "Copyright Infringement Notification" not in text


def test_the_served_charset_decodes_bytes_the_page_does_not_declare():
    text = "Съешь же ещё этих мягких французских булок, да выпей чаю."
    html = f"<html><body><article><p>{text}</p></article></body></html>".encode("windows-1251")
    assert text in pagelevel.content(html, charset="windows-1251")
    assert text in pagelevel.Scorer().score(html, charset="cp1251")["content_text"]
    with pytest.raises(ValueError, match="not an encoding"):
        pagelevel.content(html, charset="no-such-encoding")
    with pytest.raises(ValueError, match="applies to bytes"):
        pagelevel.content(text, charset="windows-1251")


def test_label_site_gives_training_rows_of_a_hosts_pages():
    site = LABELLED / ".." / "sites" / "sqlite-website"
    files = sorted(site.glob("*.html"))[:6]
    pages = [(f"https://sqlite.org/{file.name}", file.read_bytes(), None) for file in files]
    rows = pagelevel.label_site(pages, host="sqlite.org", max_pages=4, min_pages=3)
    columns = pagelevel.TRAINING_COLUMNS
    assert columns[:6] == ["site", "domain", "layout", "page", "area", "template"]
    assert rows and all(len(row) == len(columns) for row in rows)
    assert {row[0] for row in rows} == {"sqlite.org"}
    assert len({row[3] for row in rows}) == 4, "max_pages pages sampled"
    assert any(row[5] for row in rows) and not all(row[5] for row in rows), "both labels occur"
    again = pagelevel.label_site(pages, host="sqlite.org", max_pages=4, min_pages=3)
    assert again == rows, "the sample is seeded"
    with pytest.raises(pagelevel.SiteError, match="fewer than --min-pages 10"):
        pagelevel.label_site(pages[:2], host="sqlite.org")


@pytest.mark.parametrize("labeler", ["frequency", "pagelets", "rtdm", "msa"])
def test_host_sample_names_the_pages_label_site_samples_from_the_count_alone(labeler):
    site = LABELLED / ".." / "sites" / "httrack-website"
    files = sorted(site.glob("*.html"))[:9]
    pages = [(f"https://httrack.org/{file.name}", file.read_bytes(), None) for file in files]
    chosen = pagelevel.host_sample(len(pages), host="httrack.org", max_pages=4, seed=3)
    assert len(chosen) == len(set(chosen)) == 4 and all(0 <= index < 9 for index in chosen)
    assert pagelevel.host_sample(9, host="httrack.org", max_pages=4, seed=3) == chosen, "seeded"
    assert sorted(pagelevel.host_sample(3, host="httrack.org", max_pages=4)) == [0, 1, 2]
    options = {"host": "httrack.org", "max_pages": 4, "min_pages": 3, "seed": 3, "labeler": labeler}
    sample = [pages[index] for index in chosen]
    assert pagelevel.label_site(sample, sampled=True, **options) == pagelevel.label_site(pages, **options)
    with pytest.raises(ValueError, match="larger than max_pages 4"):
        pagelevel.label_site(pages, sampled=True, **options)


def test_score_without_nodes_is_the_command_lines_jsonl_line():
    page = labelled("dragnet/HTML/128.html")
    line = pagelevel.Scorer().score(path=page, nodes=False)
    cli = subprocess.run(
        [str(CLI), "score", "--layout", "native", "--format", "jsonl", str(page)],
        capture_output=True, check=True, text=True,
    )
    expected = json.loads(cli.stdout)
    assert "nodes" not in line
    assert without_timings(line) == without_timings(expected)


def test_the_type_stubs_name_every_method_and_parameter_of_the_extension():
    import ast
    import inspect

    from pagelevel import _pagelevel

    stubs = ast.parse((Path(pagelevel.__file__).parent / "_pagelevel.pyi").read_text())
    scorer = next(node for node in stubs.body if isinstance(node, ast.ClassDef) and node.name == "Scorer")
    stubbed = {
        node.name: [arg.arg for arg in node.args.args[1:] + node.args.kwonlyargs]
        for node in scorer.body
        if isinstance(node, ast.FunctionDef) and not node.decorator_list
    }
    compiled = {
        name: [
            parameter.name
            for parameter in inspect.signature(getattr(_pagelevel.Scorer, name)).parameters.values()
            if parameter.name != "self"
        ]
        for name in dir(_pagelevel.Scorer)
        if not name.startswith("_") and callable(getattr(_pagelevel.Scorer, name))
    }
    stubbed.pop("__new__", None)
    assert stubbed == compiled
