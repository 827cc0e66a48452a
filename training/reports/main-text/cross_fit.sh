#!/usr/bin/env bash
# WCXB development numbers that are not in-sample: the page-type model and the main-text model
# are both fitted on WCXB's development pages, so `dev_eval.sh` scores WCXB with models that
# saw every page it scores. Here the development domains are cut into three folds (by a hash of
# the domain, so a site is in one fold only); for each fold both models are fitted without it
# (`train-page-type`, and `train-main-text` as training/train-main-text-model.sh runs it, the
# other sets in whole) and the fold's pages are scored with them. The three folds' pages.csv
# together are one honest development run; `by_type.py` reads it.
#
#   cross_fit.sh OUT_DIR [extra train-main-text flags…]
#
# Writes OUT_DIR/fold{0,1,2}/ (views of the set, models, reports) and OUT_DIR/pages.csv, and
# prints macro word F1 by type beside trafilatura when its outputs are in $EXTERNAL (a
# `run_extractors.py` folder, default /work/ext-out). ~12 minutes on 2 cores; with
# MODELS_FROM=EARLIER_OUT_DIR the models of an earlier run are reused and only the pages are
# scored again (~1 minute). PAGELEVEL_BIN=FILE scores with another build (two builds side by side).
set -euo pipefail
out=$(realpath -m "$1")
shift
cd "$(dirname "$0")/../../.."
D=$(realpath "${PAGELEVEL_DATASETS:-../shared/datasets}/labeled")
EXTERNAL=${EXTERNAL:-/work/ext-out}
pagelevel=${PAGELEVEL_BIN:-$PWD/target/release/pagelevel}
mkdir -p "$out"
python3 - "$D/wcxb-dev" "$out" <<'EOF'
import hashlib, json, os, sys, urllib.parse
wcxb, out = sys.argv[1:]
files = json.load(open(os.path.join(wcxb, "metadata.json")))["files"]
for fold in range(3):
    for view in ("train", "wcxb-dev"):
        for folder in ("html", "ground-truth"):
            os.makedirs(os.path.join(out, f"fold{fold}", view, folder), exist_ok=True)
for page_id, facts in files.items():
    domain = (facts.get("domain") or urllib.parse.urlsplit(facts.get("url") or "").hostname
              or page_id).removeprefix("www.")
    page_fold = int(hashlib.sha1(domain.encode()).hexdigest(), 16) % 3
    for fold in range(3):
        # The fold's own pages are scored (`wcxb-dev`, the name the external outputs use);
        # the other folds' pages train.
        view = "wcxb-dev" if fold == page_fold else "train"
        for folder, name in (("html", f"{page_id}.html.gz"), ("ground-truth", f"{page_id}.json")):
            link = os.path.join(out, f"fold{fold}", view, folder, name)
            if not os.path.lexists(link):
                os.symlink(os.path.join(wcxb, folder, name), link)
EOF
externals=()
for name in trafilatura readability-lxml rs-trafilatura; do
  [ -d "$EXTERNAL/$name" ] && externals+=(--external "$name=$EXTERNAL/$name")
done
for fold in 0 1 2; do
  dir=$out/fold$fold
  if [ -n "${MODELS_FROM:-}" ]; then
    # A change that moves no training (a gate, a rule after the models): the folds' models of
    # an earlier run, the pages scored again.
    cp "$MODELS_FROM/fold$fold/page-type.json" "$MODELS_FROM/fold$fold/main-text.json" "$dir/"
  else
    "$pagelevel" train-page-type --dataset "wcxb:$dir/train" --out "$dir/page-type.json" 2> "$dir/train-page-type.log"
    # Exit code 1 (a page that cannot be laid out is reported and left out) still writes the
    # model.
    "$pagelevel" train-main-text --main-text-model rules -q \
      --dataset "dragnet:$D/dragnet" --dataset "l3s-gn1:$D/l3s-gn1" \
      --dataset "cleaneval:$D/cleaneval" --dataset "cleanportaleval:$D/cleanportaleval" \
      --dataset "big9:$D/big9" --dataset "readability:$D/readability" \
      --dataset "wcxb:$dir/train" \
      --out "$dir/main-text.json" "$@" 2> "$dir/train-main-text.log" || [ $? -eq 1 ]
  fi
  "$pagelevel" eval --split dev --no-sitelevel -q \
    --page-type-model "$dir/page-type.json" --main-text-model "$dir/main-text.json" \
    --dataset "wcxb:$dir/wcxb-dev" "${externals[@]}" --report "$dir/report" > "$dir/report.md" 2>/dev/null || true
done
python3 - "$out" <<'EOF'
import csv, sys
out = sys.argv[1]
rows = []
for fold in range(3):
    with open(f"{out}/fold{fold}/report/pages.csv") as f:
        reader = csv.DictReader(f)
        fields = reader.fieldnames
        rows.extend(reader)
with open(f"{out}/pages.csv", "w", newline="") as f:
    writer = csv.DictWriter(f, fieldnames=fields)
    writer.writeheader()
    writer.writerows(rows)
EOF
outputs=("pagelevel main_text")
[ -d "$EXTERNAL/trafilatura" ] && outputs+=(trafilatura)
[ -d "$EXTERNAL/rs-trafilatura" ] && outputs+=(rs-trafilatura)
python3 training/reports/main-text/by_type.py "$out/pages.csv" "${outputs[@]}"
