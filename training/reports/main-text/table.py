"""Main-text word F1 (micro / macro) per set from the summary.json of several `eval` reports:
`table.py NAME=REPORT_DIR ...` prints one markdown row per set, one column per report. CleanEval's gold
keeps the page's user comments: its row of main text followed by comments is printed too."""
import json
import sys

runs = [arg.split("=", 1) for arg in sys.argv[1:]]
by_set = {}
for name, folder in runs:
    for report in json.load(open(f"{folder}/summary.json")):
        dataset = report["dataset"].split(":")[0]
        if dataset in by_set and name in by_set[dataset]:
            continue  # l3s-gn1's second label mapping: the same outputs
        main = report["output"]["pagelevel main_text"]
        by_set.setdefault(dataset, {})[name] = (
            main["micro"]["f1"], main["macro"]["f1"], main["empty_failures"], main["pages"])
        with_comments = report["output"].get("pagelevel main_text+comments")
        if dataset == "cleaneval" and with_comments:
            by_set.setdefault("cleaneval main+comments", {})[name] = (
                with_comments["micro"]["f1"], with_comments["macro"]["f1"],
                with_comments["empty_failures"], with_comments["pages"])
print("| set | " + " | ".join(name for name, _ in runs) + " |")
print("|---|" + "---:|" * len(runs))
for dataset, cells in by_set.items():
    row = [f"{cells[n][0]:.4f} / {cells[n][1]:.4f}" + (f", {cells[n][2]} empty" if cells[n][2] else "")
           if n in cells else "–" for n, _ in runs]
    print(f"| {dataset} ({next(iter(cells.values()))[3]}) | " + " | ".join(row) + " |")
