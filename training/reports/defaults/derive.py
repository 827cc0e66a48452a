#!/usr/bin/env python3
"""Derive the default threshold and penalty scale from the product's outputs on development pages.

For every (threshold, penalty multiplier) of the grid, runs
  pagelevel eval --split dev --json --no-sitelevel --threshold T --penalty-scale M·c0 …
with the layout engine and model under test, and reads what a user gets at that point: the
template F1 of Smooth's verdicts (text, anchor text, links) and the word F1 of the product's
`main_text` against the gold main text (micro), per development set.

Criterion (the same rule as training/reports/eval/choose_defaults.py, but on the product's
`main_text` instead of leaf-level verdicts): the mean over sets of the mean of those four F1s.
  1. threshold: the best criterion at the paper's penalty (multiplier 1);
  2. penalty: the largest multiplier whose criterion at that threshold is within TOLERANCE of the
     best multiplier's (larger sections segment better, Figure 3 of the paper).

Usage: derive.py PAGELEVEL OUT_DIR [--layout native] DATASET_SPEC...
Writes OUT_DIR/grid.csv (one row per set and grid point) and prints the choice.
"""
import csv
import json
import os
import subprocess
import sys

THRESHOLDS = [0.15, 0.2, 0.25, 0.3, 0.35]
MULTIPLIERS = [0.5, 1.0, 2.0]  # 5.0 scored 0.01-0.03 below 2.0 everywhere in the first run
BASE_SCALE = 0.01  # DEFAULT_PENALTY_SCALE (src/smooth/penalty.rs); multipliers apply to it
TOLERANCE = 0.01  # as training/reports/eval/choose_defaults.py
MEASURES = ("text_f1", "anchor_text_f1", "links_f1", "main_text_f1")


def run_point(pagelevel, layout, specs, threshold, multiplier):
    command = [pagelevel, "eval", "--split", "dev", "--json", "--quiet", "--no-sitelevel",
               "--layout", layout, "--threshold", str(threshold),
               "--penalty-scale", str(BASE_SCALE * multiplier)]
    for spec in specs:
        command += ["--dataset", spec]
    output = subprocess.run(command, check=True, capture_output=True, text=True).stdout
    rows = []
    for line in output.splitlines():
        report = json.loads(line)
        if report.get("mapping") == "strict":
            continue  # L3S-GN1 counts once, with its standard mapping
        smooth = report["variants"]["smooth"]
        main = report["output"]["pagelevel main_text"]
        rows.append({
            "dataset": report["dataset"].split(":", 1)[0],
            "threshold": threshold,
            "penalty_multiplier": multiplier,
            "pages": report["pages"],
            "text_f1": smooth["text"]["f1"],
            "anchor_text_f1": smooth["anchor_text"]["f1"],
            "links_f1": smooth["links"]["f1"],
            "main_text_f1": main["micro"]["f1"],
            "main_text_empty": main["empty_failures"],
            "content_text_f1": report["output"]["pagelevel content_text"]["micro"]["f1"],
        })
    return rows


def criterion(rows):
    return sum(sum(row[m] for m in MEASURES) / len(MEASURES) for row in rows) / len(rows)


def main():
    pagelevel, out_dir, *rest = sys.argv[1:]
    layout = "native"
    if rest[:1] == ["--layout"]:
        layout, rest = rest[1], rest[2:]
    os.makedirs(out_dir, exist_ok=True)
    grid = {}
    for multiplier in MULTIPLIERS:
        for threshold in THRESHOLDS:
            grid[(multiplier, threshold)] = run_point(pagelevel, layout, rest, threshold, multiplier)
            print(f"m {multiplier} t {threshold}: {criterion(grid[(multiplier, threshold)]):.4f}",
                  file=sys.stderr)
    with open(os.path.join(out_dir, "grid.csv"), "w", newline="") as file:
        rows = [row for point in grid.values() for row in point]
        writer = csv.DictWriter(file, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    threshold = max(THRESHOLDS, key=lambda t: (criterion(grid[(1.0, t)]), -t))
    best = max(criterion(grid[(m, threshold)]) for m in MULTIPLIERS)
    multiplier = max(m for m in MULTIPLIERS if criterion(grid[(m, threshold)]) >= best - TOLERANCE)
    print(f"threshold {threshold}, penalty multiplier {multiplier} "
          f"(criterion {criterion(grid[(multiplier, threshold)]):.4f}; best at this threshold {best:.4f})")
    print("criterion by multiplier (rows) and threshold (columns):")
    print("       " + " ".join(f"{t:>6}" for t in THRESHOLDS))
    for m in MULTIPLIERS:
        print(f"{m:>6} " + " ".join(f"{criterion(grid[(m, t)]):.4f}" for t in THRESHOLDS))
    print("at the chosen point (template text / anchor / links F1, main_text micro F1, empty):")
    for row in grid[(multiplier, threshold)]:
        print(f"  {row['dataset']:16} " + " ".join(f"{row[m]:.4f}" for m in MEASURES)
              + f" {row['main_text_empty']}")


if __name__ == "__main__":
    main()
