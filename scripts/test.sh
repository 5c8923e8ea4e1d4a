#!/usr/bin/env bash
# The README's test command: set up, then run every test (they build and run the real binary,
# real git repositories with bare remotes, real child processes and signals).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/bootstrap.sh --tests
swift build --build-tests
swift test "$@"
