"""Macro word F1 per WCXB page type from an eval report's pages.csv (WCXB pages are named
`<type>/<id>`): `by_type.py REPORT_DIR/pages.csv [OUTPUT ...]` (outputs: rows of the `variant`
column, default `pagelevel main_text` and `pagelevel content_text`)."""
import collections
import csv
import sys

path = sys.argv[1]
outputs = sys.argv[2:] or ["pagelevel main_text", "pagelevel content_text"]
f1_by_type = collections.defaultdict(lambda: collections.defaultdict(list))
for row in csv.DictReader(open(path)):
    if not row["dataset"].startswith("wcxb") or row["variant"] not in outputs:
        continue
    tp, fp, fn = (int(row[f"main_text_{count}"]) for count in ("tp", "fp", "fn"))
    f1 = 2 * tp / (2 * tp + fp + fn) if tp + fp + fn else 1.0
    for page_type in (row["page"].split("/")[0], "all"):
        f1_by_type[page_type][row["variant"]].append(f1)
print("| type (pages) | " + " | ".join(outputs) + " |")
print("|---|" + "---:|" * len(outputs))
for page_type in sorted(f1_by_type, key=lambda name: (name == "all", name)):
    cells = f1_by_type[page_type]
    pages = len(cells[outputs[0]])
    # An output the report does not hold (an external extractor not given to `eval`) is "—".
    row = " | ".join(
        f"{sum(cells[o]) / len(cells[o]):.4f}" if cells[o] else "—" for o in outputs
    )
    print(f"| {page_type} ({pages}) | {row} |")
