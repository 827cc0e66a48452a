"""Markdown structure against Readability's expected articles (issue 22, item 4).

For each page, the gold structure is read from `readability/expected/NAME.html` (the article
Readability.js extracts): heading texts (h1-h6), list item texts (li) and table cell texts
(td/th, of tables with at least two rows and two columns: data tables). An extractor's Markdown
is rendered to HTML by markdown-it-py (CommonMark with GitHub tables) — so only structure that
really parses as Markdown counts — and the same elements are read from it. Texts are compared
as their words (NFKC, lower case, runs of letters and digits); each gold element matches at most one output
element (multisets). Precision = matched / output elements, recall = matched / gold elements,
micro over the pages given, pages with no such element on either side contribute nothing.

    python structure.py --expected DIR --pages NAMES.txt --output NAME=DIR_OF_MD ...
"""

from __future__ import annotations

import argparse
import json
import collections
import pathlib
import re
import unicodedata

import lxml.html
from markdown_it import MarkdownIt

KINDS = ("headings", "list items", "table cells", "pictures")


def normalize(text: str) -> str:
    """The text's words: NFKC, lower case, runs of letters and digits (spacing and punctuation
    around inline markup differ between extractors and say nothing of structure)."""
    text = unicodedata.normalize("NFKC", text).lower()
    return " ".join(re.findall(r"\w+", text))


def own_text(element) -> str:
    """An element's text without the lists nested in it (their items count on their own)."""
    parts = [element.text or ""]
    for child in element:
        if not isinstance(child.tag, str):
            pass
        elif child.tag not in ("ul", "ol"):
            parts.append(own_text(child))
        parts.append(child.tail or "")
    return " ".join(parts)


def title_similarity(title: str, heading: str) -> float:
    """Readability.js's `_textSimilarity(title, heading)`: one less the share of the heading's
    characters (its words, joined by spaces) in words the title lacks."""
    title_words = [word for word in re.split(r"\W+", title.lower()) if word]
    heading_words = [word for word in re.split(r"\W+", heading.lower()) if word]
    if not title_words or not heading_words:
        return 0.0
    unshared = [word for word in heading_words if word not in title_words]
    return 1 - len(" ".join(unshared)) / len(" ".join(heading_words))


def duplicates_title(heading, title: str | None) -> bool:
    """Readability.js's `_headerDuplicatesTitle`: an h1 or h2 whose text is more than 0.75
    similar to the article's title is removed from the article (the title goes to its
    metadata), so its expected articles lack it."""
    return bool(title) and heading.tag in ("h1", "h2") and title_similarity(title, heading.text_content()) > 0.75


def elements(html: str, title: str | None = None) -> dict[str, collections.Counter]:
    found = {kind: collections.Counter() for kind in KINDS}
    if not html.strip():
        return found
    root = lxml.html.fromstring(f"<div>{html}</div>")
    for heading in root.xpath("//h1|//h2|//h3|//h4|//h5|//h6"):
        text = normalize(heading.text_content())
        if text and not duplicates_title(heading, title):
            found["headings"][text] += 1
    for item in root.xpath("//li"):
        text = normalize(own_text(item))
        if text:
            found["list items"][text] += 1
    for image in root.xpath("//img[@src]"):
        # A picture by its file name: the pages have no URL of their own, so a relative source
        # resolves differently on each side.
        name = image.get("src").split("?")[0].rstrip("/").rsplit("/", 1)[-1]
        if name and not image.get("src").startswith("data:"):
            found["pictures"][name] += 1
    for table in root.xpath("//table"):
        rows = table.xpath(".//tr[not(ancestor::table[1] != $table)]", table=table)
        if len(rows) < 2 or max(len(row.xpath("./td|./th")) for row in rows) < 2:
            continue
        for cell in table.xpath(".//td|.//th"):
            text = normalize(cell.text_content())
            if text:
                found["table cells"][text] += 1
    return found


def title_of(metadata: pathlib.Path | None, name: str) -> str | None:
    if metadata is None:
        return None
    return json.loads((metadata / f"{name}.json").read_text())["title"]


MARKDOWN = MarkdownIt("commonmark").enable("table").enable("strikethrough")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--expected", type=pathlib.Path, required=True)
    parser.add_argument("--pages", type=pathlib.Path, required=True)
    parser.add_argument("--output", action="append", required=True, help="NAME=DIR of NAME.md files")
    parser.add_argument("--per-page", type=pathlib.Path)
    parser.add_argument(
        "--metadata",
        type=pathlib.Path,
        help="readability/metadata: headings that duplicate the article's title are left out on "
        "both sides by Readability.js's own rule (it moves the title to the metadata and removes "
        "such h1/h2 from the article, so its expected articles lack them)",
    )
    args = parser.parse_args()
    names = [line.strip() for line in args.pages.read_text().splitlines() if line.strip()]
    titles = {name: title_of(args.metadata, name) for name in names}
    gold = {
        name: elements((args.expected / f"{name}.html").read_text(encoding="utf-8"), titles[name])
        for name in names
    }
    print(f"{len(names)} pages; gold elements: " + ", ".join(
        f"{kind} {sum(sum(g[kind].values()) for g in gold.values())}" for kind in KINDS))
    print()
    print("| extractor | " + " | ".join(f"{kind} P / R" for kind in KINDS) + " |")
    print("|---|" + "---:|" * len(KINDS))
    rows = []
    for spec in args.output:
        label, directory = spec.split("=", 1)
        totals = {kind: [0, 0, 0] for kind in KINDS}  # matched, output, gold
        for name in names:
            path = pathlib.Path(directory) / f"{name}.md"
            markdown = path.read_text(encoding="utf-8") if path.exists() else ""
            found = elements(MARKDOWN.render(markdown), titles[name])
            for kind in KINDS:
                matched = sum((found[kind] & gold[name][kind]).values())
                output = sum(found[kind].values())
                wanted = sum(gold[name][kind].values())
                totals[kind][0] += matched
                totals[kind][1] += output
                totals[kind][2] += wanted
                rows.append((label, name, kind, matched, output, wanted))
        cells = []
        for kind in KINDS:
            matched, output, wanted = totals[kind]
            precision = matched / output if output else 0.0
            recall = matched / wanted if wanted else 0.0
            cells.append(f"{precision:.3f} / {recall:.3f} ({matched}/{output}/{wanted})")
        print(f"| {label} | " + " | ".join(cells) + " |")
    if args.per_page:
        with args.per_page.open("w") as out:
            out.write("extractor,page,kind,matched,output,gold\n")
            for row in rows:
                out.write(",".join(map(str, row)) + "\n")


if __name__ == "__main__":
    main()
