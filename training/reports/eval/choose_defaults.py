#!/usr/bin/env python3
"""Choose the default threshold and penalty scale from a `pagelevel eval --sweep-penalty` run.

Criterion: on the development sets, the mean of four F1 scores of PageLevel Smooth — template
F1 over text, anchor text and links, and main-text F1 (the same decision seen from the content
side, so that a threshold cannot win by calling everything template). Rule, in two steps:
  1. threshold: the best criterion at the paper's penalty (multiplier 1);
  2. penalty: the largest multiplier whose criterion at that threshold is within TOLERANCE of the
     best multiplier's — larger sections segment better (Figure 3) and cost little F1 (Figure 2).
Held-out sets are only reported at the chosen point.

Usage: choose_defaults.py SWEEP_CSV DEV_FORMAT[,DEV_FORMAT...]
"""
import csv
import sys
from collections import defaultdict

TOLERANCE = 0.01
MEASURES = ("text_f1", "anchor_text_f1", "links_f1", "main_text_f1")


def main(path, dev_formats):
    grid = defaultdict(dict)  # (multiplier, threshold) -> dataset -> row
    for row in csv.DictReader(open(path)):
        if row["variant"] == "smooth":
            grid[(float(row["penalty_multiplier"]), float(row["threshold"]))][row["dataset"]] = row
    is_dev = lambda dataset: dataset.split(":", 1)[0] in dev_formats

    def criterion(point):
        rows = [row for dataset, row in grid[point].items() if is_dev(dataset)]
        return sum(sum(float(row[m] or 0) for m in MEASURES) / len(MEASURES) for row in rows) / len(rows)

    multipliers = sorted({m for m, _ in grid})
    thresholds = sorted({t for _, t in grid})
    threshold = max(thresholds, key=lambda t: (criterion((1.0, t)), -t))
    best = max(criterion((m, threshold)) for m in multipliers)
    multiplier = max(m for m in multipliers if criterion((m, threshold)) >= best - TOLERANCE)
    print(f"threshold {threshold}, penalty multiplier {multiplier} "
          f"(criterion {criterion((multiplier, threshold)):.4f}; best at this threshold {best:.4f})")
    print("criterion by multiplier (rows) and threshold (columns):")
    print("        " + " ".join(f"{t:>6}" for t in thresholds))
    for m in multipliers:
        print(f"{m:>7} " + " ".join(f"{criterion((m, t)):.4f}" for t in thresholds))
    print("at the chosen point:")
    for dataset, row in sorted(grid[(multiplier, threshold)].items()):
        role = "dev" if is_dev(dataset) else "held-out"
        print(f"  {role:8} {dataset}: " + " ".join(f"{m} {row[m]}" for m in MEASURES) + f" ari {row['ari']}")


if __name__ == "__main__":
    main(sys.argv[1], set(sys.argv[2].split(",")))
