#!/usr/bin/env python3
"""Issue 21's sweep: does any shared page with visible text fail or come out empty?

Scores every page of the shared datasets with `pagelevel score --format jsonl --jobs 2` (the
default native layout and model) and, independently of our layout, counts each page's visible
words from its HTML (lxml's parser):

- `words`: `\\w+` tokens of the text outside `<head>`, `<script>`, `<style>`, `<template>` and
  `<title>` (`<noscript>` counts: with scripts off, as we lay pages out, it is what a reader sees);
- `unhidden_words`: the same without the subtrees the author hid inline: a `hidden` attribute,
  a `style` with `display: none` or `visibility: hidden`.

A page *fails* when `score` reports an error for it; its content or main text is *near-empty*
below 10 words. Every page with >= 50 `words` that fails or is near-empty is listed with a guessed
cause: the error, `noscript` (half its words in `<noscript>`), `hidden` (half its words in inline
hidden subtrees) or `other`.

    python3 training/reports/never-empty/sweep.py --bin target/release/pagelevel --out OUT

writes OUT/pages.tsv (one row per page) and OUT/summary.md. Needs lxml (`pip install lxml`).
Pages: l3s-gn1 `original/`, cleaneval `input/`, cleanportaleval `*/input/`, dragnet `HTML/`, big9,
kreuzer (`index.blocks.html` with its `meta.json` base href, as `eval` lays it out), readability
`pages/`, wcxb-dev `html/*.html.gz` (decompressed to a temporary directory) and every `.html`/`.htm`
of the saved sites (each site's folder as web root).
"""

import argparse
import gzip
import json
import re
import subprocess
import sys
import tempfile
import urllib.parse
from collections import Counter, defaultdict
from pathlib import Path

import lxml.html

WORD = re.compile(r"\w+")
NEAR_EMPTY = 10
VISIBLE = 50
SKIPPED = {"head", "script", "style", "template", "title"}
HIDDEN_STYLE = re.compile(r"display\s*:\s*none|visibility\s*:\s*hidden", re.I)


def visible_words(path):
    """(words, unhidden words, words inside <noscript>) of one HTML file."""
    data = path.read_bytes()
    if path.suffix == ".gz":
        data = gzip.decompress(data)
    try:
        root = lxml.html.document_fromstring(data)
    except Exception:  # an empty or unparsable document has no visible words
        return 0, 0, 0
    counts = Counter()

    def add(text, hidden, noscript):
        n = len(WORD.findall(text))
        counts["words"] += n
        if not hidden:
            counts["unhidden"] += n
        if noscript:
            counts["noscript"] += n

    # lxml keeps text after an element in its `tail`: walk iteratively with the parent's state.
    stack = [(root, False, False)]
    while stack:
        element, hidden, noscript = stack.pop()
        tag = element.tag.lower() if isinstance(element.tag, str) else ""
        if tag in SKIPPED or not isinstance(element.tag, str):
            continue
        hidden = hidden or element.get("hidden") is not None or bool(
            HIDDEN_STYLE.search(element.get("style") or "")
        )
        noscript = noscript or tag == "noscript"
        add(element.text or "", hidden, noscript)
        for child in element:
            add(child.tail or "", hidden, noscript)
            stack.append((child, hidden, noscript))
    return counts["words"], counts["unhidden"], counts["noscript"]


def labelled_pages(labelled, scratch):
    """(set, path, extra score arguments) for every labelled page."""
    sets = {
        "l3s-gn1": sorted((labelled / "l3s-gn1/original").glob("*.html")),
        "cleaneval": sorted((labelled / "cleaneval/input").glob("*.html")),
        "cleanportaleval": sorted((labelled / "cleanportaleval").glob("*/input/*.html")),
        "dragnet": sorted((labelled / "dragnet/HTML").glob("*.html")),
        "big9": sorted((labelled / "big9").glob("*/**/*.html")),
        "readability": sorted((labelled / "readability/pages").glob("*.html")),
    }
    for name, paths in sets.items():
        yield name, paths, []
    wcxb = scratch / "wcxb-dev"
    wcxb.mkdir()
    paths = []
    for gz in sorted((labelled / "wcxb-dev/html").glob("*.html.gz")):
        path = wcxb / gz.name[: -len(".gz")]
        path.write_bytes(gzip.decompress(gz.read_bytes()))
        paths.append(path)
    yield "wcxb-dev", paths, []
    for meta in sorted((labelled / "kreuzer").glob("*/meta.json")):
        base_href = json.loads(meta.read_text()).get("base_href")
        extra = ["--base-href", base_href] if base_href else []
        yield "kreuzer", [meta.parent / "index.blocks.html"], extra


def site_pages(sites):
    for site in sorted(p for p in sites.iterdir() if p.is_dir()):
        paths = sorted(p for p in site.rglob("*") if p.suffix in (".html", ".htm"))
        yield "sites", paths, ["--root", str(site)]


ERROR = re.compile(r"cannot score (.+?): (.*)$")


def score(binary, paths, extra):
    """{path: (content words, main words)} and {path: error} for one batch."""
    with tempfile.NamedTemporaryFile("w+") as output:
        run = subprocess.run(
            [binary, "score", "--format", "jsonl", "--jobs", "2", "--quiet", "-o", output.name,
             "--output-fields", "url,content_text,main_text", *extra, *map(str, paths)],
            capture_output=True, text=True,
        )
        results = {}
        for line in Path(output.name).read_text().splitlines():
            row = json.loads(line)
            path = urllib.parse.unquote(urllib.parse.urlparse(row["url"]).path)
            results[path] = (len(WORD.findall(row["content_text"])),
                             len(WORD.findall(row["main_text"])))
    errors = {}
    for line in run.stderr.splitlines():
        match = ERROR.search(line)
        if match:
            errors[match.group(1)] = match.group(2)
    if run.returncode not in (0, 1) or (run.returncode == 1 and not errors):
        sys.exit(f"score failed ({run.returncode}): {run.stderr[-2000:]}")
    return results, errors


def cause(row):
    if row["error"]:
        return "error: " + row["error"]
    if row["noscript_words"] * 2 >= row["words"]:
        return "noscript"
    if (row["words"] - row["unhidden_words"]) * 2 >= row["words"]:
        return "hidden"
    return "other"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--bin", default="target/release/pagelevel")
    parser.add_argument("--datasets", default="../shared/datasets", type=Path)
    parser.add_argument("--out", required=True, type=Path)
    parser.add_argument("--sets", help="comma-separated subset of set names (default: all)")
    args = parser.parse_args()
    args.datasets = args.datasets.resolve()
    args.out.mkdir(parents=True, exist_ok=True)
    wanted = set(args.sets.split(",")) if args.sets else None
    rows = []
    with tempfile.TemporaryDirectory() as scratch:
        batches = list(labelled_pages(args.datasets / "labeled", Path(scratch)))
        batches += list(site_pages(args.datasets / "sites"))
        for name, paths, extra in batches:
            if wanted and name not in wanted:
                continue
            results, errors = score(args.bin, paths, extra)
            for path in paths:
                words, unhidden, noscript = visible_words(path)
                key = str(path)
                content, main = results.get(key, (0, 0))
                error = errors.get(key, "" if key in results else "no output")
                shown = path.relative_to(scratch if name == "wcxb-dev" else args.datasets)
                rows.append(dict(set=name, page=str(shown), words=words, unhidden_words=unhidden,
                                 noscript_words=noscript, error=error, content_words=content,
                                 main_words=main))
    columns = list(rows[0])
    with open(args.out / "pages.tsv", "w") as tsv:
        tsv.write("\t".join(columns) + "\n")
        for row in rows:
            tsv.write("\t".join(str(row[c]).replace("\t", " ") for c in columns) + "\n")
    write_summary(rows, args.out / "summary.md")
    print((args.out / "summary.md").read_text())


def write_summary(rows, path):
    by_set = defaultdict(list)
    for row in rows:
        by_set[row["set"]].append(row)
    lines = [
        f"| set | pages | ≥ {VISIBLE} words (unhidden) | failed | content < {NEAR_EMPTY} words "
        f"| main < {NEAR_EMPTY} words | of those ≥ {VISIBLE} words: failed / content / main (unhidden) |",
        "|---|---|---|---|---|---|---|",
    ]
    bad = []
    totals = Counter()
    for name, set_rows in by_set.items():
        c = Counter()
        for row in set_rows:
            failed = bool(row["error"])
            empty_content = not failed and row["content_words"] < NEAR_EMPTY
            empty_main = not failed and row["main_words"] < NEAR_EMPTY
            c["pages"] += 1
            c["visible"] += row["words"] >= VISIBLE
            c["visible_unhidden"] += row["unhidden_words"] >= VISIBLE
            c["failed"] += failed
            c["content"] += empty_content
            c["main"] += empty_main
            if row["words"] >= VISIBLE:
                c["v_failed"] += failed
                c["v_content"] += empty_content
                c["v_main"] += empty_main
                if row["unhidden_words"] >= VISIBLE:
                    c["u_failed"] += failed
                    c["u_content"] += empty_content
                    c["u_main"] += empty_main
                if failed or empty_content or empty_main:
                    bad.append(row)
        totals.update(c)
        lines.append(summary_line(name, c))
    lines.append(summary_line("**all**", totals))
    lines += ["", f"Pages with ≥ {VISIBLE} words that fail or give < {NEAR_EMPTY} words, by cause:", ""]
    by_cause = defaultdict(list)
    for row in bad:
        by_cause[cause(row)].append(row)
    for reason, cause_rows in sorted(by_cause.items(), key=lambda item: -len(item[1])):
        lines.append(f"- **{reason}** ({len(cause_rows)}):")
        for row in cause_rows:
            lines.append(
                f"  - {row['set']} `{row['page']}`: {row['words']} words "
                f"({row['unhidden_words']} unhidden, {row['noscript_words']} in noscript), "
                f"content {row['content_words']}, main {row['main_words']}"
            )
    path.write_text("\n".join(lines) + "\n")


def summary_line(name, c):
    return (f"| {name} | {c['pages']} | {c['visible']} ({c['visible_unhidden']}) | {c['failed']} "
            f"| {c['content']} | {c['main']} | {c['v_failed']} / {c['v_content']} / {c['v_main']} "
            f"({c['u_failed']} / {c['u_content']} / {c['u_main']}) |")


if __name__ == "__main__":
    main()
