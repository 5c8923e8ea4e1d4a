#!/usr/bin/env bash
# The README's test command: set up, then run every test (they build and run the real binary,
# real git repositories with bare remotes, real child processes and signals).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/bootstrap.sh --tests
# Every target declares what it imports (the check passes transitive imports on Linux with 6.3, so
# Package.swift lists them too).
swift build --build-tests --explicit-target-dependency-import-check error
# The tests build and test packages of their own, and swift-driver leaves a TemporaryDirectory.*
# folder in TMPDIR on every call (thousands a run): the run gets a temporary folder of its own,
# removed when it ends.
scratch=$(mktemp -d "${TMPDIR:-/tmp}/prepush-tests.XXXXXX")
trap 'rm -rf "$scratch"' EXIT
TMPDIR=$scratch swift test --skip-build "$@"
