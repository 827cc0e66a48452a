#!/usr/bin/env bash
# Main-text word F1 of one main-text choice on the development split of every labelled set with
# an article-like gold: `dev_eval.sh CHOICE OUT_DIR` (CHOICE: shipped | rules | a model file).
# Prints one line per set: micro and macro F1 of main_text and content_text, empty pages.
set -euo pipefail
choice=$1 out=$2
cd "$(dirname "$0")/../../.."
D=${PAGELEVEL_DATASETS:-../shared/datasets}/labeled
./target/release/pagelevel eval --split dev --no-sitelevel -q --main-text-model "$choice" \
  --dataset dragnet:$D/dragnet --dataset l3s-gn1:$D/l3s-gn1 --dataset cleaneval:$D/cleaneval \
  --dataset cleanportaleval:$D/cleanportaleval --dataset big9:$D/big9 \
  --dataset readability:$D/readability --dataset wcxb:$D/wcxb-dev --dataset kreuzer:$D/kreuzer \
  --report "$out" > "$out.md" 2>/dev/null || true
grep "pagelevel main_text" "$out.md" | sed -E 's#\| ([a-z0-9-]+):[^|]*\| pagelevel main_text \| [^|]*\*\*([0-9.]+)\*\* \| [^|]*\*\*([0-9.]+)\*\* \| ([^|]*)\|#\1 main micro \2 macro \3 empty \4#'
