#!/usr/bin/env bash
# Trains the shipped native-layout model (models/native.json): the same sites and settings as
# models/default.json, with pages laid out by Blitz in-process (--layout native) instead of
# Chromium. ~1 minute on 2 cores, no browser.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo run --release -- train \
  --layout native \
  --sites training/sites.txt \
  --out models/native.json \
  --report training/reports/native/model \
  "$@"
