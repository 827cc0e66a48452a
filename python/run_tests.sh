#!/usr/bin/env bash
# The Python package's tests (pytest, python/tests) against the installed wheel: .ci/setup (or
# python/install.sh after a change) builds and installs it. The tests compare with the command
# line's output, so target/release/pagelevel must be built (`cargo test --release` builds it).
set -euo pipefail
cd "$(dirname "$0")/.."
python3 -m pytest -q python/tests "$@"
