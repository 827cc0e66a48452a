#!/usr/bin/env bash
# Trains the shipped main-text model (models/main-text.json) on the development pages of every
# labelled set whose gold is the page's main text (the frozen test pages are never read), laid
# out natively and scored with the shipped template model, and refreshes the generated block of
# its card (models/main-text.md). ~1 minute on 2 cores. Kreuzer is left out: its gold marks all
# content, not the main text. Which sets, and why WCXB's every page type is in, is measured in
# training/reports/main-text/README.md.
set -euo pipefail
cd "$(dirname "$0")/.."
L=${PAGELEVEL_DATASETS:-../shared/datasets}/labeled
# Exit code 1 (a page that cannot be laid out is reported and left out) still writes the model.
# The rules alone label the `in_rules_main` feature, whatever model is shipped now.
cargo run --release -- train-main-text --main-text-model rules \
  --dataset dragnet:$L/dragnet --dataset l3s-gn1:$L/l3s-gn1 --dataset cleaneval:$L/cleaneval \
  --dataset cleanportaleval:$L/cleanportaleval --dataset big9:$L/big9 \
  --dataset readability:$L/readability --dataset wcxb:$L/wcxb-dev \
  --out models/main-text.json "$@" || [ $? -eq 1 ]
cargo run --release -- model-card --main-text models/main-text.json --update models/main-text.md
