"""Where template text F1 is lost on Kreuzer (issue 23, item 3): every visible word of a
Kreuzer page, by the innermost labelled block around it (template or content type, as
`src/eval/datasets/kreuzer.rs` splits them), against pagelevel's verdict on the element holding
it. Prints words of gold content called template (precision's loss) and gold template called
content (recall's loss) by block type, by the page's guessed type, and the pages that lose most.

    python kreuzer_types.py [dev|test] [PAGELEVEL]   (from the project root; needs html5lib)

The page is parsed with html5lib (the HTML standard's tree, as html5ever builds it) so that the
element paths match those `score --format json` gives. Words are runs of letters and digits;
the numbers approximate `eval`'s (the same split, not the same tokenizer).
"""

import collections
import json
import pathlib
import re
import subprocess
import sys
import warnings

import html5lib

KREUZER = pathlib.Path(__file__).resolve().parents[3] / "../shared/datasets/labeled/kreuzer"
TEMPLATE = {"Header", "Footer", "Menu", "LinkList", "Ad", "Logo", "Searchbar", "Sidebar"}
CONTENT = {"Article", "Content", "Title", "Author", "Comments"}
SKIPPED = {"script", "style", "noscript"}


def fnv1a(text: str) -> int:
    value = 0xCBF29CE484222325
    for byte in text.encode():
        value = ((value ^ byte) * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
    return value


def words(text: str | None) -> int:
    return len(re.findall(r"\w+", text or ""))


def page_errors(page: pathlib.Path, pagelevel: str):
    """(counts by (kind, block type), the page's guessed type): kind is 'content called
    template', 'template called content' or 'right'."""
    meta = json.loads((page / "meta.json").read_text())
    scored = subprocess.run(
        [pagelevel, "score", str(page / "index.blocks.html"), "--format", "json",
         "--base-href", meta["base_href"]],
        capture_output=True, check=True,
    )
    output = json.loads(scored.stdout)
    verdicts = {node["xpath"]: node for node in output["nodes"]}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        tree = html5lib.parse((page / "index.blocks.html").read_bytes(), treebuilder="etree",
                              namespaceHTMLElements=False)
    counts = collections.Counter()

    def walk(element, path: str, gold):
        block_type = element.get("data-block-type")
        if block_type in TEMPLATE:
            gold = (True, block_type)
        elif block_type in CONTENT:
            gold = (False, block_type)
        node = verdicts.get(path)

        def count(text):
            if gold is None or node is None or node["box"] is None or not words(text):
                return
            gold_template, gold_type = gold
            if gold_template == node["template"]:
                kind = "right"
            elif gold_template:
                kind = "template called content"
            else:
                kind = "content called template"
            counts[(kind, gold_type)] += words(text)

        if not isinstance(element.tag, str) or element.tag in SKIPPED:
            return
        count(element.text)
        seen = collections.Counter()
        for child in element:
            if isinstance(child.tag, str):
                seen[child.tag] += 1
                walk(child, f"{path}/{child.tag}[{seen[child.tag]}]", gold)
            count(child.tail)

    walk(tree, "/html[1]", None)
    return counts, output["page_type"]


def main() -> None:
    split = sys.argv[1] if len(sys.argv) > 1 else "dev"
    pagelevel = sys.argv[2] if len(sys.argv) > 2 else "target/release/pagelevel"
    pages = [page for page in sorted(KREUZER.iterdir())
             if page.is_dir() and (fnv1a(page.name) % 3 == 0) == (split == "test")]
    by_type = collections.Counter()
    by_page_type = collections.defaultdict(collections.Counter)
    losses = []
    for page in pages:
        counts, page_type = page_errors(page, pagelevel)
        by_type.update(counts)
        guessed = page_type["type"] if page_type["probability"] >= 0.3 else "unsure"
        for (kind, _), count in counts.items():
            by_page_type[guessed][kind] += count
        lost = sum(count for (kind, _), count in counts.items() if kind != "right")
        losses.append((lost, page.name, guessed))
    print(f"{len(pages)} {split} pages")
    for kind in ("content called template", "template called content"):
        rows = sorted(((count, gold) for (k, gold), count in by_type.items() if k == kind), reverse=True)
        print(f"{kind} ({sum(c for c, _ in rows)} words): " + ", ".join(f"{g} {c}" for c, g in rows))
    right = sum(count for (kind, gold), count in by_type.items() if kind == "right" and gold in TEMPLATE)
    wrong_content = sum(count for (kind, _), count in by_type.items() if kind == "content called template")
    wrong_template = sum(count for (kind, _), count in by_type.items() if kind == "template called content")
    print(f"template text P {right / (right + wrong_content):.3f} R {right / (right + wrong_template):.3f} "
          f"F1 {2 * right / (2 * right + wrong_content + wrong_template):.3f} (micro, words)")
    print("by the page's guessed type (≥ 0.3, else unsure):")
    for guessed, counts in sorted(by_page_type.items()):
        print(f"  {guessed}: " + ", ".join(f"{kind} {counts[kind]}" for kind in
                                           ("right", "content called template", "template called content")))
    print("pages losing most:")
    for lost, name, guessed in sorted(losses, reverse=True)[:12]:
        print(f"  {name} ({guessed}): {lost} words")


if __name__ == "__main__":
    main()
