#!/usr/bin/env python3
"""Page metadata against Readability.js's expected metadata, for pagelevel and trafilatura.

    # trafilatura's metadata of every page, once (its venv: trafilatura 2.3.1)
    /tmp/extractors-venv/bin/python compare.py trafilatura DATASET > trafilatura.jsonl
    # pagelevel's (the binary of this commit)
    target/release/pagelevel score --format jsonl --output-fields url,metadata \
        DATASET/pages > pagelevel.jsonl
    # the table, on one part of the frozen split (dev | test | all)
    python3 compare.py table DATASET pagelevel.jsonl trafilatura.jsonl --split dev
    # language detection alone: the pages without their declarations, scored again
    python3 compare.py undeclare DATASET /tmp/undeclared
    mkdir -p /tmp/undeclared-set && ln -sfn /tmp/undeclared /tmp/undeclared-set/pages && \
        ln -sfn DATASET/metadata /tmp/undeclared-set/metadata
    target/release/pagelevel score --format jsonl --output-fields url,metadata \
        /tmp/undeclared > undeclared.jsonl
    python3 compare.py table /tmp/undeclared-set undeclared.jsonl --split dev   # its language row

The outputs of this commit are kept beside this script (pagelevel.jsonl, trafilatura.jsonl).
DATASET is the Readability set (pages/NAME.html, metadata/NAME.json). A field counts only on
pages where the gold value is non-null and non-empty; a missing prediction is a miss.
Comparison, the same for both extractors:
  title, byline (author), site name: equal after collapsing whitespace runs to one space and
      trimming (case and punctuation kept: "exact");
  language: the primary subtag, lower-cased ("en-US" and "en" agree);
  date (publishedTime): the first ten characters, YYYY-MM-DD, as written (no time-zone shift).
A second title column cuts the gold site name (siteName), where a title starts or ends with it
after a separator (" | ", " - ", " – ", " — ", " · ", " :: ", ": "), from both titles before
comparing: Readability keeps "Headline | Site" when a meta tag has it, and the task asks for the
headline alone. A second, lenient byline column also folds case and drops a leading "By"/"By:"/"Par"/"Por",
because Readability's gold keeps them and the task asks for names without them.
The split is src/eval/datasets/split.rs's: a page is test when the 64-bit FNV-1a hash of its
name (the file stem) is divisible by 3.
"""

import argparse
import json
import re
import sys
from pathlib import Path

FIELDS = [
    # (column, gold key, pagelevel key, trafilatura key, comparison)
    ("title", "title", "title", "title", "exact"),
    ("title (site name cut)", "title", "title", "title", "site-cut"),
    ("byline", "byline", "author", "author", "exact"),
    ("byline (lenient)", "byline", "author", "author", "lenient"),
    ("language", "lang", "language", "language", "language"),
    ("site name", "siteName", "site_name", "sitename", "exact"),
    ("date", "publishedTime", "published", "date", "day"),
]


def fnv1a(text):
    value = 0xCBF29CE484222325
    for byte in text.encode("utf-8"):
        value = ((value ^ byte) * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
    return value


def split_of(name):
    return "test" if fnv1a(name) % 3 == 0 else "dev"


def collapse(text):
    return " ".join(str(text).split())


SEPARATORS = [" | ", " - ", " – ", " — ", " · ", " :: ", ": "]


def cut_site(title, site):
    """The title without a leading or trailing site name (compared case-insensitively)."""
    if not site:
        return title
    site = collapse(site).casefold()
    for separator in SEPARATORS:
        if title.casefold().endswith(separator + site):
            return title[: len(title) - len(separator + site)].strip()
        if title.casefold().startswith(site + separator):
            return title[len(site + separator):].strip()
    return title


def normalised(value, how, gold_record=None):
    if value is None:
        return None
    text = collapse(value)
    if not text:
        return None
    if how == "language":
        return text.split("-")[0].split("_")[0].lower()
    if how == "day":
        return text[:10]
    if how == "site-cut":
        return cut_site(text, (gold_record or {}).get("siteName"))
    if how == "lenient":
        return re.sub(r"^(by|par|por)\b:?\s*", "", text.casefold()).strip()
    return text


def run_trafilatura(dataset):
    import trafilatura

    for path in sorted((dataset / "pages").glob("*.html")):
        html = path.read_text(encoding="utf-8")
        document = trafilatura.extract_metadata(html)
        fields = document.as_dict() if document is not None else {}
        keep = {key: fields.get(key) for key in ("title", "author", "sitename", "date", "language")}
        print(json.dumps({"name": path.stem, **keep}, ensure_ascii=False))


def undeclare(dataset, out):
    """Copies of the pages with every language declaration removed (`lang`, `xml:lang`,
    og:locale, content-language, language metas, JSON-LD inLanguage): the language row of a
    table on them measures detection alone."""
    out.mkdir(parents=True, exist_ok=True)
    for path in sorted((dataset / "pages").glob("*.html")):
        html = path.read_text(encoding="utf-8")
        html = re.sub(r"""\s(xml:)?lang\s*=\s*("[^"]*"|'[^']*'|[^\s>]+)""", "", html)
        html = re.sub(r"<meta[^>]*(og:locale|content-language|name=\"language\"|dc.language)[^>]*>", "", html, flags=re.I)
        html = re.sub(r'"inLanguage"\s*:', '"x":', html)
        (out / path.name).write_text(html, encoding="utf-8")


def read_pagelevel(path):
    predictions = {}
    for line in Path(path).read_text(encoding="utf-8").splitlines():
        row = json.loads(line)
        name = Path(row["url"]).stem
        predictions[name] = row.get("metadata") or {}
    return predictions


def read_trafilatura(path):
    rows = (json.loads(line) for line in Path(path).read_text(encoding="utf-8").splitlines())
    return {row["name"]: row for row in rows}


def table(dataset, pagelevel, trafilatura, split, misses):
    golds = {
        path.stem: json.loads(path.read_text(encoding="utf-8"))
        for path in sorted((dataset / "metadata").glob("*.json"))
    }
    names = [name for name in golds if split == "all" or split_of(name) == split]
    systems = [("pagelevel", read_pagelevel(pagelevel), 2)]
    if trafilatura:
        systems.append(("trafilatura 2.3.1", read_trafilatura(trafilatura), 3))
    print(f"{len(names)} pages ({split})\n")
    print("| field | pages | " + " | ".join(name for name, _, _ in systems) + " |")
    print("|---|---:|" + "---:|" * len(systems))
    for field in FIELDS:
        column, gold_key, how = field[0], field[1], field[4]
        counted = [n for n in names if normalised(golds[n].get(gold_key), how) is not None]
        cells = []
        for system, predictions, key_index in systems:
            hits = 0
            for name in counted:
                gold = normalised(golds[name].get(gold_key), how, golds[name])
                predicted = normalised(predictions.get(name, {}).get(field[key_index]), how, golds[name])
                if predicted == gold:
                    hits += 1
                elif misses and system == "pagelevel":
                    print(f"  miss {column}: {name}: gold {gold!r} got {predicted!r}", file=sys.stderr)
            all_none = all(predictions.get(n, {}).get(field[key_index]) is None for n in names)
            cells.append("—" if all_none else f"{hits}/{len(counted)} ({hits / max(len(counted), 1):.0%})")
        print(f"| {column} | {len(counted)} | " + " | ".join(cells) + " |")
    # Answers on pages whose gold field is null: not counted above; some are right (Readability
    # finds no byline the page has), some are noise (a date, a user name).
    print("\n| answered where the gold is null | pages | " + " | ".join(name for name, _, _ in systems) + " |")
    print("|---|---:|" + "---:|" * len(systems))
    for field in FIELDS:
        column, gold_key, how = field[0], field[1], field[4]
        if how in ("site-cut", "lenient"):
            continue
        empty = [n for n in names if normalised(golds[n].get(gold_key), how) is None]
        cells = [
            str(sum(normalised(predictions.get(n, {}).get(field[key_index]), how) is not None for n in empty))
            for _, predictions, key_index in systems
        ]
        print(f"| {column} | {len(empty)} | " + " | ".join(cells) + " |")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    commands = parser.add_subparsers(dest="command", required=True)
    run = commands.add_parser("trafilatura", help="trafilatura's metadata of every page, as JSON lines")
    run.add_argument("dataset", type=Path)
    strip = commands.add_parser("undeclare", help="the pages without language declarations")
    strip.add_argument("dataset", type=Path)
    strip.add_argument("out", type=Path)
    compare = commands.add_parser("table", help="the exact-match table")
    compare.add_argument("dataset", type=Path)
    compare.add_argument("pagelevel")
    compare.add_argument("trafilatura", nargs="?")
    compare.add_argument("--split", choices=["dev", "test", "all"], default="dev")
    compare.add_argument("--misses", action="store_true", help="list pagelevel's misses on stderr")
    args = parser.parse_args()
    if args.command == "trafilatura":
        run_trafilatura(args.dataset)
    elif args.command == "undeclare":
        undeclare(args.dataset, args.out)
    else:
        table(args.dataset, args.pagelevel, args.trafilatura, args.split, args.misses)


if __name__ == "__main__":
    main()
