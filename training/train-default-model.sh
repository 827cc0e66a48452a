#!/usr/bin/env bash
# Trains the shipped model (models/default.json) on the shared multi-page sites, with a report,
# and refreshes the generated block of its card (models/README.md).
# Rendering is cached (~/.cache/pagelevel or $PAGELEVEL_CACHE): a second run only re-fits.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo run --release -- train \
  --sites training/sites.txt \
  --out models/default.json \
  --report training/reports/default \
  "$@"
# The card's numbers come from the model file.
cargo run --release -- model-card models/default.json --update models/README.md
