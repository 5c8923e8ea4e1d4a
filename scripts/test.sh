#!/usr/bin/env bash
# The README's test command: set up, then run every test (they build and run the real binary,
# real git repositories with bare remotes, real child processes and signals).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/bootstrap.sh --tests
# Every target declares what it imports (the check passes transitive imports on Linux with 6.3, so
# Package.swift lists them too).
swift build --build-tests --explicit-target-dependency-import-check error
swift test --skip-build "$@"
