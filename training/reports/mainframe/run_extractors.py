#!/usr/bin/env python3
"""Main-text outputs of three reference extractors on the human-labelled page sets.

What it does
    For every page of the labelled sets under ``--labeled`` (the folders ``dragnet``,
    ``cleaneval``, ``cleanportaleval``, ``l3s-gn1``, ``kreuzer``, ``big9``, ``readability`` and
    ``wcxb-dev``), it runs

    * trafilatura: ``trafilatura.extract(html, include_comments=False, include_tables=True,
      favor_precision=False)``, every other option at its default (plain-text output, no URL
      given). ``html`` is the page's raw bytes; if that raises, the bytes decoded to str (UTF-8,
      else windows-1252) are tried once.
    * readability-lxml: ``Document(html).summary()`` on the same raw bytes (same str fallback),
      then the text of that HTML: the text nodes in document order as lxml's ``text_content()``
      sees them, with a line break around every block-level element and at ``<br>``, runs of
      whitespace inside a line collapsed to one space and empty lines dropped.
    * rs-trafilatura (the Rust port of trafilatura with a page-type classifier, its Python
      package): ``rs_trafilatura.extract_bytes(html, url=URL).main_content``, every other option
      at its default (tables in, comments out). ``URL`` is the page's address where the set
      records one (wcxb-dev's ``ground-truth/<id>.json`` ``url``; pagelevel's loader gives it
      the same), else none. Its classifier was fitted on wcxb-dev's pages by its authors, so
      its wcxb-dev numbers, test part included, are in-sample.

    and writes each output, UTF-8, to

        OUT/<tool>/<dataset folder>/<html path relative to the dataset folder>.txt

    e.g. ``OUT/trafilatura/dragnet/HTML/14.html.txt`` or
    ``OUT/trafilatura/wcxb-dev/html/0001.html.gz.txt`` (a gzipped page keeps its ``.gz`` name:
    ``pagelevel eval --external NAME=OUT/<tool>`` reads ``<dataset folder>/<page path>.txt``),
    with ``<tool>`` one of ``trafilatura``, ``readability-lxml`` and ``rs-trafilatura``. An extractor that raises,
    returns None or runs past ``--timeout`` gets an empty file and its error in
    ``OUT/<tool>/timings.csv``, one row per page:
    ``dataset,html,ms,error`` (``html`` is the path relative to the dataset folder; ``ms`` is
    ``time.perf_counter`` around the extraction call only, including the str retry if one was
    needed and, for readability-lxml, the HTML-to-text step; ``error`` is empty on success).
    ``OUT/versions.json`` records the Python and package versions of the run.

Which files are the pages
    The same HTML file that the project's loaders (``src/eval/datasets/*.rs``) give as a page's
    ``html_path``, found the same way:

    * ``dragnet``: ``HTML/*.html``;
    * ``cleaneval``: ``input/*.html``;
    * ``cleanportaleval``: ``<portal>/input/*.html`` for each subfolder that has ``input/``;
    * ``l3s-gn1``: ``original/<uuid>.html`` for each ``annotated/<uuid>.html`` (the crawled
      page, not the annotated one);
    * ``kreuzer``: ``<page>/index.blocks.html`` for each subfolder that has it (the labelled
      DOM is also the page the detector sees);
    * ``big9``: ``<site>/html/<stem>.html`` for each row ``site  stem  year ...`` of
      ``pages.tsv`` after its header line;
    * ``readability``: ``pages/*.html`` (Mozilla Readability's test pages; the gold is
      ``expected/<name>.html``);
    * ``wcxb-dev``: ``html/<id>.html.gz`` for each ``ground-truth/<id>.json``, sorted by id.

    A file is ``*.html`` (``*.json``) when its last extension is exactly ``html`` (``json``).
    Page bytes are read as they are, except that a page whose name ends in ``.gz`` (wcxb-dev)
    is gunzipped first, as the loaders do; the extractors get the decompressed bytes and the
    decompression is not timed.

How to run it
    The extractors are not project dependencies; install them in a throwaway venv::

        python3 -m venv /work/extractors/venv
        /work/extractors/venv/bin/pip install trafilatura readability-lxml lxml_html_clean
        /work/extractors/venv/bin/pip install rs-trafilatura==0.1.1
        /work/extractors/venv/bin/python run_extractors.py \\
            --labeled /work/shared/datasets/labeled --out /work/extractors/out

    ``--datasets`` and ``--tools`` restrict the run (space-separated names, e.g.
    ``--datasets readability wcxb-dev``). ``--timeout SECONDS`` stops an extraction that runs
    longer (default 0: no limit; the readability and wcxb-dev outputs were made with 20): the
    page gets an empty output and the error ``timeout after N s``. It is a ``SIGALRM`` timer, so
    it fires between Python steps: a single long call inside lxml's C code ends first. Pages run
    one at a time in one process, so the timings are single-core figures.

Versions it was run with
    Python 3.11.7, trafilatura 2.3.1, readability-lxml 0.9, lxml 6.1.3, lxml_html_clean 0.4.6,
    justext 3.0.2 (trafilatura's fallback), chardet 5.2.0. The readability and wcxb-dev
    outputs were added later with the same versions (a fresh venv, ``--timeout 20``)::

        pip install lxml==6.1.3 lxml_html_clean==0.4.6 justext==3.0.2 chardet==5.2.0
        pip install trafilatura==2.3.1
        pip install readability-lxml==0.9

    rs-trafilatura 0.1.1 was added on 2026-11-28 (``pip install rs-trafilatura==0.1.1``, the
    wcxb-dev pages, ``--timeout 20``).

    (in separate steps: pip 23.2 stops with an internal error on the ``lxml[html-clean]``
    extra that both extractors ask for when all are given at once).
"""

from __future__ import annotations

import argparse
import csv
import gzip
import json
import logging
import platform
import re
import signal
import sys
import time
import zlib
from importlib import metadata
from pathlib import Path
from typing import Callable, Iterator

import lxml.etree
import lxml.html
import trafilatura
from readability import Document

try:
    import rs_trafilatura
except ImportError:  # only `--tools rs-trafilatura` needs it
    rs_trafilatura = None

DATASETS = (
    "dragnet",
    "cleaneval",
    "cleanportaleval",
    "l3s-gn1",
    "kreuzer",
    "big9",
    "readability",
    "wcxb-dev",
)
TOOLS = ("trafilatura", "readability-lxml", "rs-trafilatura")
PACKAGES = (
    "trafilatura",
    "readability-lxml",
    "rs-trafilatura",
    "lxml",
    "lxml_html_clean",
    "justext",
    "chardet",
)


# ---------------------------------------------------------------------------------------------
# Pages of each set, as the Rust loaders find them


def html_files(folder: Path) -> list[Path]:
    """Files in `folder` whose last extension is exactly `html`, sorted by name."""
    return sorted(p for p in folder.iterdir() if p.suffix == ".html" and p.is_file())


def subfolders(root: Path, holds_a_page: Callable[[Path], bool]) -> list[Path]:
    return sorted(p for p in root.iterdir() if holds_a_page(p))


def dragnet_pages(root: Path) -> list[Path]:
    def natural(path: Path) -> tuple:
        # The loader's order: (numeric value if the stem is a number, stem).
        stem = path.stem
        return (1, int(stem), stem) if stem.isdigit() else (0, 0, stem)

    return sorted(html_files(root / "HTML"), key=natural)


def cleaneval_pages(root: Path) -> list[Path]:
    return html_files(root / "input")


def cleanportaleval_pages(root: Path) -> list[Path]:
    pages: list[Path] = []
    for portal in subfolders(root, lambda p: (p / "input").is_dir()):
        pages.extend(html_files(portal / "input"))
    return pages


def l3s_gn1_pages(root: Path) -> list[Path]:
    return [root / "original" / f"{p.stem}.html" for p in html_files(root / "annotated")]


def kreuzer_pages(root: Path) -> list[Path]:
    folders = subfolders(root, lambda p: (p / "index.blocks.html").is_file())
    return [folder / "index.blocks.html" for folder in folders]


def big9_pages(root: Path) -> list[Path]:
    text = (root / "pages.tsv").read_bytes().decode("utf-8-sig")
    named: list[tuple[str, Path]] = []
    for number, line in enumerate(text.splitlines()[1:], start=2):
        if not line.strip():
            continue
        fields = line.split("\t")
        if len(fields) < 3:
            raise ValueError(f"pages.tsv line {number}: fewer than 3 tab-separated fields")
        site, stem = fields[0], fields[1]
        named.append((f"{site}/{stem}", root / site / "html" / f"{stem}.html"))
    named.sort(key=lambda item: item[0])
    return [path for _, path in named]


def readability_pages(root: Path) -> list[Path]:
    return html_files(root / "pages")


def wcxb_pages(root: Path) -> list[Path]:
    # The loader's pages: one per ground-truth file, html/<id>.html.gz, sorted by id.
    golds = sorted(
        p for p in (root / "ground-truth").iterdir() if p.suffix == ".json" and p.is_file()
    )
    return [root / "html" / f"{p.stem}.html.gz" for p in golds]


PAGE_FINDERS: dict[str, Callable[[Path], list[Path]]] = {
    "dragnet": dragnet_pages,
    "cleaneval": cleaneval_pages,
    "cleanportaleval": cleanportaleval_pages,
    "l3s-gn1": l3s_gn1_pages,
    "kreuzer": kreuzer_pages,
    "big9": big9_pages,
    "readability": readability_pages,
    "wcxb-dev": wcxb_pages,
}


# ---------------------------------------------------------------------------------------------
# Extractors


def decode_fallback(html: bytes) -> str:
    try:
        return html.decode("utf-8")
    except UnicodeDecodeError:
        return html.decode("windows-1252", errors="replace")


def with_str_retry(extract: Callable[[bytes | str], str | None], html: bytes) -> str | None:
    """`extract(html)`; if it raises on the bytes, once more on the decoded str."""
    try:
        return extract(html)
    except Exception as bytes_error:  # noqa: BLE001 - any failure of the extractor
        try:
            return extract(decode_fallback(html))
        except Exception as str_error:  # noqa: BLE001
            raise RuntimeError(
                f"bytes: {describe(bytes_error)}; str: {describe(str_error)}"
            ) from str_error


def describe(error: BaseException) -> str:
    text = " ".join(str(error).split())
    return f"{type(error).__name__}: {text}" if text else type(error).__name__


def run_trafilatura(html: bytes, url: str | None) -> str | None:  # noqa: ARG001
    # No URL, as in every earlier run of this script: its numbers stay comparable.
    return with_str_retry(
        lambda page: trafilatura.extract(
            page, include_comments=False, include_tables=True, favor_precision=False
        ),
        html,
    )


# Elements whose text starts and ends a line (HTML's block-level and table elements).
BLOCK_TAGS = frozenset(
    """address article aside blockquote body caption center dd details dialog dir div dl dt
    fieldset figcaption figure footer form frameset h1 h2 h3 h4 h5 h6 header hgroup hr html
    legend li main menu nav noscript ol optgroup option p pre section summary table tbody td
    tfoot th thead tr ul""".split()
)
LINE_BREAK_TAGS = frozenset({"br"})
WHITESPACE = re.compile(r"\s+")


def html_to_text(html: str) -> str:
    """The text of an HTML fragment, one line per block (see the module docstring)."""
    if not html.strip():
        return ""
    try:
        root = lxml.html.document_fromstring(html)
    except lxml.etree.ParserError:  # nothing but whitespace or comments
        return ""
    pieces: list[str] = []

    def walk(element) -> None:
        # Like text_content(): comments and processing instructions add nothing but their tail.
        if isinstance(element.tag, str):
            tag = element.tag.lower()
            block = tag in BLOCK_TAGS
            if block or tag in LINE_BREAK_TAGS:
                pieces.append("\n")
            if element.text:
                pieces.append(element.text)
            for child in element:
                walk(child)
                if child.tail:
                    pieces.append(child.tail)
            if block:
                pieces.append("\n")

    walk(root)
    lines = (WHITESPACE.sub(" ", line).strip() for line in "".join(pieces).split("\n"))
    return "\n".join(line for line in lines if line)


def run_readability(html: bytes, url: str | None) -> str | None:  # noqa: ARG001
    return with_str_retry(lambda page: html_to_text(Document(page).summary()), html)


def run_rs_trafilatura(html: bytes, url: str | None) -> str | None:
    if rs_trafilatura is None:
        raise RuntimeError("rs-trafilatura is not installed (pip install rs-trafilatura)")
    return rs_trafilatura.extract_bytes(html, url=url).main_content


EXTRACTORS: dict[str, Callable[[bytes, str | None], str | None]] = {
    "trafilatura": run_trafilatura,
    "readability-lxml": run_readability,
    "rs-trafilatura": run_rs_trafilatura,
}


# ---------------------------------------------------------------------------------------------
# Driver


class PageTimeout(BaseException):
    """Raised by the timer; a BaseException so that the libraries' `except Exception` and the
    str retry do not swallow it."""


def on_alarm(signum, frame) -> None:  # noqa: ARG001 - signal handler signature
    raise PageTimeout


def read_page(html_path: Path) -> bytes:
    """The page's bytes; a `.gz` page decompressed (as the loaders do)."""
    data = html_path.read_bytes()
    return gzip.decompress(data) if html_path.suffix == ".gz" else data


def page_url(root: Path, html_path: Path) -> str | None:
    """The page's address where its set records one: wcxb-dev's ground truth."""
    if html_path.name.endswith(".html.gz"):
        gold = root / "ground-truth" / (html_path.name.removesuffix(".html.gz") + ".json")
        if gold.is_file():
            return json.loads(gold.read_text(encoding="utf-8")).get("url")
    return None


def extract_with_timeout(
    extract: Callable[[bytes, str | None], str | None],
    html: bytes,
    url: str | None,
    timeout: float,
) -> str | None:
    if timeout <= 0:
        return extract(html, url)
    signal.setitimer(signal.ITIMER_REAL, timeout)
    try:
        return extract(html, url)
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)


def pages_of(labeled: Path, datasets: list[str]) -> Iterator[tuple[str, Path, Path]]:
    """(dataset, dataset folder, html path) for every page of the named sets that exist."""
    for dataset in datasets:
        root = labeled / dataset
        if not root.is_dir():
            print(f"skipping {dataset}: no folder {root}", file=sys.stderr)
            continue
        for html_path in PAGE_FINDERS[dataset](root):
            yield dataset, root, html_path


def run_tool(tool: str, labeled: Path, out: Path, datasets: list[str], timeout: float) -> None:
    extract = EXTRACTORS[tool]
    tool_out = out / tool
    tool_out.mkdir(parents=True, exist_ok=True)
    summary: dict[str, dict[str, int]] = {}
    with open(tool_out / "timings.csv", "w", newline="", encoding="utf-8") as timings_file:
        timings = csv.writer(timings_file, lineterminator="\n")
        timings.writerow(["dataset", "html", "ms", "error"])
        for dataset, root, html_path in pages_of(labeled, datasets):
            relative = html_path.relative_to(root).as_posix()
            counts = summary.setdefault(dataset, {"pages": 0, "errors": 0, "empty": 0})
            counts["pages"] += 1
            text, error, elapsed_ms = "", "", 0.0
            try:
                html = read_page(html_path)
            except (OSError, EOFError, zlib.error) as read_error:
                error = f"unreadable page: {describe(read_error)}"
            else:
                start = time.perf_counter()
                try:
                    result = extract_with_timeout(
                        extract, html, page_url(root, html_path), timeout
                    )
                except PageTimeout:
                    result, error = None, f"timeout after {timeout:g} s"
                except Exception as extract_error:  # noqa: BLE001
                    result, error = None, describe(extract_error)
                elapsed_ms = (time.perf_counter() - start) * 1000.0
                if result is None and not error:
                    error = "returned None"
                text = result or ""
            if error:
                counts["errors"] += 1
            elif not text.strip():
                counts["empty"] += 1
            target = tool_out / dataset / f"{relative}.txt"
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(text, encoding="utf-8")
            timings.writerow([dataset, relative, f"{elapsed_ms:.3f}", error])
    for dataset, counts in summary.items():
        print(
            f"{tool:17} {dataset:16} pages {counts['pages']:4}  errors {counts['errors']:3}"
            f"  empty {counts['empty']:3}"
        )


def versions() -> dict[str, str]:
    found = {"python": platform.python_version()}
    for package in PACKAGES:
        try:
            found[package] = metadata.version(package)
        except metadata.PackageNotFoundError:
            found[package] = "not installed"
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--labeled", type=Path, required=True, help="the labelled sets' folder")
    parser.add_argument("--out", type=Path, required=True, help="where the outputs go")
    parser.add_argument("--datasets", nargs="+", choices=DATASETS, default=list(DATASETS))
    parser.add_argument("--tools", nargs="+", choices=TOOLS, default=list(TOOLS))
    parser.add_argument(
        "--timeout",
        type=float,
        default=0.0,
        metavar="SECONDS",
        help="per-page limit on one extraction (default 0: none)",
    )
    args = parser.parse_args()

    # Both libraries log a warning for every page they find little in; errors are in the CSV.
    logging.basicConfig(level=logging.CRITICAL)
    for name in ("trafilatura", "readability", "readability.readability", "htmldate"):
        logging.getLogger(name).setLevel(logging.CRITICAL)

    signal.signal(signal.SIGALRM, on_alarm)
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "versions.json").write_text(json.dumps(versions(), indent=2) + "\n")
    for tool in args.tools:
        run_tool(tool, args.labeled, args.out, args.datasets, args.timeout)


if __name__ == "__main__":
    main()
