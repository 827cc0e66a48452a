#!/usr/bin/env bash
# Speed of `pagelevel score --layout native` on the benchmark pages (`benches/pages.rs --list`:
# the development pages of L3S-GN1, Dragnet and Big9 and Readability's modern pages, 582):
#   1. whole-score time per page on one core, median and p95 (`cargo bench --bench pages`);
#   2. throughput of `score --jobs 2` and `--jobs 1` over the same pages, with the process's
#      peak memory (GNU time): `--jobs 1` is one worker's peak.
# With ALL=1 also the earlier comparison on every labelled page (1,319): native, Chromium with
# --jobs 2 on the first 100 (no cache), and other extractors on the same pages
# (time_extractors.py; give their Python as $EXTRACTORS_PYTHON).
# Note the machine's load (printed first and last): other processes' work inflates wall times.
set -euo pipefail
cd "$(dirname "$0")/../../.."
DATASETS=${DATASETS:-../shared/datasets/labeled}
export DATASETS
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
cargo build --release --quiet -p pagelevel
cargo bench --quiet -p pagelevel --bench pages -- --runs "${RUNS:-3}"
list=$(mktemp)
cargo bench --quiet -p pagelevel --bench pages -- --list > "$list"
pages=$(wc -l < "$list")
timing=$(mktemp)
run() { # label, pages, arguments…
  local label=$1 count=$2; shift 2
  /usr/bin/time -f "%e %M" -o "$timing" "$@" > /dev/null 2> /dev/null || true
  # GNU time writes "Command exited with non-zero status N" first when a page failed.
  read -r seconds kilobytes < <(tail -n 1 "$timing")
  echo "$label: $count pages in ${seconds} s ($(echo "$count / $seconds" | bc -l | cut -c1-5) pages/s), peak $((kilobytes / 1024)) MB"
}
echo
mapfile -t benchmark_pages < "$list"
run "native --jobs 2" "$pages" target/release/pagelevel score --jobs 2 --quiet --format jsonl "${benchmark_pages[@]}"
run "native --jobs 1" "$pages" target/release/pagelevel score --jobs 1 --quiet --format jsonl "${benchmark_pages[@]}"
if [ -n "${ALL:-}" ]; then
  find "$DATASETS" -name '*.html' | sort > "$list"
  pages=$(wc -l < "$list")
  mapfile -t every_page < "$list"
  run "every labelled page, native --jobs 2" "$pages" target/release/pagelevel score --jobs 2 --quiet --format jsonl "${every_page[@]}"
  run "chromium --jobs 2 (no cache)" 100 target/release/pagelevel score --layout chromium --no-cache --jobs 2 --quiet --format jsonl "${every_page[@]:0:100}"
  if [ -n "${EXTRACTORS_PYTHON:-}" ]; then
    "$EXTRACTORS_PYTHON" training/reports/native/time_extractors.py "$list"
  fi
fi
rm -f "$list" "$timing"
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
