#!/usr/bin/env python3
"""Choose the default threshold and penalty multiplier from a `pagelevel eval --sweep-penalty`
run's sweep.csv: the Smooth grid point with the best mean template F1 (mean of Text, AT and
Links F1) over the development sets; the held-out sets are only reported at that point.

Usage: choose_defaults.py SWEEP_CSV DEV_FORMAT[,DEV_FORMAT...]
"""
import csv
import sys
from collections import defaultdict


def main(path, dev_formats):
    rows = list(csv.DictReader(open(path)))
    fmt = lambda row: row["dataset"].split(":", 1)[0]
    grid = defaultdict(dict)
    for row in rows:
        if row["variant"] != "smooth" or row["text_f1"] == "":
            continue
        key = (float(row["penalty_multiplier"]), float(row["threshold"]))
        f1 = [float(row[k]) for k in ("text_f1", "anchor_text_f1", "links_f1") if row[k]]
        grid[key][row["dataset"]] = (sum(f1) / len(f1), row)
    def dev_score(point):
        values = [v[0] for d, v in grid[point].items() if fmt({"dataset": d}) in dev_formats]
        return sum(values) / len(values)
    best = max(sorted(grid), key=dev_score)
    print(f"best: multiplier {best[0]} threshold {best[1]} dev mean F1 {dev_score(best):.4f}")
    for dataset, (mean_f1, row) in sorted(grid[best].items()):
        role = "dev" if fmt({"dataset": dataset}) in dev_formats else "held-out"
        print(f"  {role:8} {dataset}: text {row['text_f1']} AT {row['anchor_text_f1']} "
              f"links {row['links_f1']} main {row['main_text_f1']} ari {row['ari']}")
    print("dev mean F1 by (multiplier, threshold):")
    for point in sorted(grid):
        print(f"  {point[0]:>5} {point[1]:.2f} {dev_score(point):.4f}")


if __name__ == "__main__":
    main(sys.argv[1], set(sys.argv[2].split(",")))
