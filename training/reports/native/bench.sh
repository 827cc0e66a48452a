#!/usr/bin/env bash
# Throughput of `pagelevel score` on every labelled page of the shared sets (1,319 pages):
# native layout with --jobs 2, Chromium with --jobs 2 on the first 100 (no cache), and other
# extractors on the same pages (time_extractors.py; give their Python as $EXTRACTORS_PYTHON).
# Peak memory is the whole process's (GNU time). Run on an otherwise idle machine.
set -euo pipefail
cd "$(dirname "$0")/../../.."
DATASETS=${DATASETS:-../shared/datasets/labeled}
cargo build --release --quiet
list=$(mktemp)
find "$DATASETS" -name '*.html' | sort > "$list"
pages=$(wc -l < "$list")
run() { # label, pages, arguments…
  local label=$1 count=$2; shift 2
  /usr/bin/time -f "%e %M" -o /tmp/pagelevel-bench.time "$@" > /dev/null 2> /dev/null || true
  read -r seconds kilobytes < /tmp/pagelevel-bench.time
  echo "$label: $count pages in ${seconds} s ($(echo "$count / $seconds" | bc -l | cut -c1-5) pages/s), peak $((kilobytes / 1024)) MB"
}
run "native --jobs 2" "$pages" target/release/pagelevel score --layout native --jobs 2 --quiet --format jsonl $(cat "$list")
run "native --jobs 1" "$pages" target/release/pagelevel score --layout native --jobs 1 --quiet --format jsonl $(cat "$list")
head -100 "$list" > "$list.100"
run "chromium --jobs 2 (no cache)" 100 target/release/pagelevel score --no-cache --jobs 2 --quiet --format jsonl $(cat "$list.100")
if [ -n "${EXTRACTORS_PYTHON:-}" ]; then
  "$EXTRACTORS_PYTHON" training/reports/native/time_extractors.py "$list"
fi
rm -f "$list" "$list.100"
