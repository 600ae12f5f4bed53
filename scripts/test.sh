#!/usr/bin/env bash
# The README's second command: build everything (tests included) and run the test suite.
set -euo pipefail
cd "$(dirname "$0")/.."
swift build --build-tests
swift test --skip-build
