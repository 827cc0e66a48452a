#!/usr/bin/env bash
# The development split of every labelled set in one run, four decimals: `dev_all.sh LABEL
# [EVAL FLAGS…]`. One line per set: template text / anchor text / links F1 (Smooth), sections a
# page, main_text and content_text word F1 (micro / macro), and ARI (levels 1 and 1+2) where the
# set has blocks. The JSON lines stay in /tmp/dev-all-LABEL.jsonl. Environment variables pass
# through, so an experiment toggled by one is compared run against run.
set -euo pipefail
label=$1; shift
cd "$(dirname "$0")/../../.."
D=${PAGELEVEL_DATASETS:-../shared/datasets}/labeled
./target/release/pagelevel eval --split dev --no-sitelevel -q \
  --dataset dragnet:$D/dragnet --dataset l3s-gn1:$D/l3s-gn1 --dataset cleaneval:$D/cleaneval \
  --dataset cleanportaleval:$D/cleanportaleval --dataset big9:$D/big9 \
  --dataset readability:$D/readability --dataset wcxb:$D/wcxb-dev --dataset kreuzer:$D/kreuzer \
  "$@" --json 2>/dev/null > "/tmp/dev-all-$label.jsonl"
python3 - "$label" <<'PY'
import json, sys
label = sys.argv[1]
for line in open(f"/tmp/dev-all-{label}.jsonl"):
    run = json.loads(line)
    smooth = run["variants"]["smooth"]
    name = run["dataset"].split(":")[0] + (" strict" if run.get("mapping") == "strict" else "")
    main = run["output"]["pagelevel main_text"]
    content = run["output"]["pagelevel content_text"]
    ari = smooth.get("ari")
    print(
        f"{label} {name:16s} template {smooth['text']['f1']:.4f}/{smooth['anchor_text']['f1']:.4f}/"
        f"{smooth['links']['f1']:.4f} sections {run['mean_sections']:5.1f} "
        f"main {main['micro']['f1']:.4f}/{main['macro']['f1']:.4f} "
        f"content {content['micro']['f1']:.4f}/{content['macro']['f1']:.4f}"
        + (f" ari {ari:.4f}/{smooth['ari_level2']:.4f}" if ari is not None else "")
    )
PY
