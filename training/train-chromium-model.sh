#!/usr/bin/env bash
# Trains the shipped Chromium-layout model (models/chromium.json, used by `--layout chromium`):
# the same sites and settings as models/default.json, with pages rendered in headless Chromium.
# Rendering is cached (~/.cache/pagelevel or $PAGELEVEL_CACHE): a second run only re-fits.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo run --release -- train \
  --layout chromium \
  --sites training/sites.txt \
  --out models/chromium.json \
  --report training/reports/chromium \
  "$@"
cargo run --release -- model-card models/chromium.json --update models/chromium.md
