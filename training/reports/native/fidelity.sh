#!/usr/bin/env bash
# Element-by-element fidelity of native layout against Chromium on a fixed page list
# (fidelity-pages.tsv: label, page, web root, base href; paths under the shared datasets).
# Renders each page with both engines (Chromium through its layout cache) into OUT and runs
# compare.py on the pairs. Usage: fidelity.sh OUT [PAGELEVEL_BINARY]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=${1:?usage: fidelity.sh OUT [PAGELEVEL_BINARY]}
pagelevel=${2:-$here/../../../target/release/pagelevel}
datasets=${DATASETS:-$here/../../../../shared/datasets}
mkdir -p "$out/chromium" "$out/native"
: > "$out/pairs.tsv"
while IFS=$'\t' read -r label page root base_href; do
  name=${label//\//_}
  options=()
  [ -n "$root" ] && options+=(--root "$datasets/$root")
  [ -n "$base_href" ] && options+=(--base-href "$base_href")
  for engine in chromium native; do
    if [ "$engine" = native ] || [ ! -s "$out/chromium/$name.json" ]; then
      "$pagelevel" render --layout "$engine" "${options[@]}" -o "$out/$engine/$name.json" \
        "$datasets/$page" 2> "$out/$engine/$name.log" || echo "$label: $engine failed" >&2
    fi
  done
  printf '%s\t%s\t%s\n' "$out/chromium/$name.json" "$out/native/$name.json" "$label" >> "$out/pairs.tsv"
done < "${PAGES:-$here/fidelity-pages.tsv}"
python3 "$here/compare.py" "$out/pairs.tsv"
