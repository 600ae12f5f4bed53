#!/usr/bin/env bash
# Makes Benchmarks/.venv with the Python baselines that Debian does not package at the version
# they need (shapely 2's batched STRtree; Debian 12 has shapely 1.8; ijson 3 with its C backend
# for the import benchmark). Prints the venv's python.
set -euo pipefail
cd "$(dirname "$0")"
if [ ! -x .venv/bin/python ] || ! .venv/bin/python -c 'import shapely, numpy, ijson' 2>/dev/null; then
    /usr/bin/python3 -m venv .venv >&2
    .venv/bin/pip install --quiet 'shapely==2.2.0' 'numpy==2.4.6' 'ijson==3.6.0' >&2
fi
echo "$PWD/.venv/bin/python"
