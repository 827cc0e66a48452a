#!/usr/bin/env bash
# Trains the shipped default model (models/default.json) on the shared multi-page sites, with
# pages laid out by Blitz in-process (native layout, the default engine), writes its report and
# refreshes the generated block of its card (models/README.md). ~1 minute on 2 cores, no browser.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo run --release -- train \
  --layout native \
  --sites training/sites.txt \
  --out models/default.json \
  --report training/reports/default \
  "$@"
# The card's numbers come from the model file.
cargo run --release -- model-card models/default.json --update models/README.md
