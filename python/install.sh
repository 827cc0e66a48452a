#!/usr/bin/env bash
# Builds the `pagelevel` wheel (abi3: one wheel for CPython ≥ 3.9) into target/wheels, on top of
# the dependencies the workspace has compiled in target/, and installs it into python3.
# Needs maturin (`python3 -m pip install 'maturin>=1.9,<2'`, as .ci/setup does).
set -euo pipefail
cd "$(dirname "$0")/.."
# Tagged linux, not manylinux: the wheel links the system fontconfig and freetype (Blitz finds
# fonts through them) instead of carrying copies, so it is for this machine, not for PyPI.
python3 -m maturin build --release --quiet --compatibility linux -m python/Cargo.toml --out target/wheels
wheel=$(ls -t target/wheels/pagelevel-*-abi3-*.whl | head -n 1)
python3 -m pip install --quiet --disable-pip-version-check --root-user-action=ignore --no-deps --force-reinstall "$wheel"
echo "pagelevel setup: installed $wheel" >&2
