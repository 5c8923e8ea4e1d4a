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
if [ $# -gt 0 ]; then
    TMPDIR=$scratch swift test --skip-build "$@"
    exit
fi
# The one suite that loads both cores on purpose (OutputIntegrityPushTests: two CPU burners for its
# twenty runs) runs after the others, alone: beside them, its burners slowed every other test for
# most of the run (they ran for 525 of the 747 s the tests took in CI, a suite that takes 93 s alone).
TMPDIR=$scratch swift test --skip-build --skip OutputIntegrityPushTests
TMPDIR=$scratch swift test --skip-build --filter OutputIntegrityPushTests
