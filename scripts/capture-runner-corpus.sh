#!/usr/bin/env bash
# Captures what the test runner prints and how it exits, for each case of the package in
# Tests/Fixtures/RunnerCorpus, into Tests/Fixtures/runner-corpus/:
#   CASE.console.txt   standard output and error, as they came
#   CASE.events.jsonl  Swift Testing's event stream (version 0), when the runner wrote one
#   CASE.xunit.xml     the xunit file SwiftPM wrote, when it wrote one
#   CASE.exit          the runner's exit status
# The package is built and run in /tmp/prepush-runner-corpus/RunnerCorpus, a fixed path, so that the
# paths in the output are the same on every capture and nothing in it is edited afterwards.
# Run it again after a toolchain update; the tests (RunnerVerdictTests) then check the new output.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
out="$root/Tests/Fixtures/runner-corpus"
base=/tmp/prepush-runner-corpus
work="$base/RunnerCorpus"
rm -rf "$base"
mkdir -p "$base" "$out"
cp -R "$root/Tests/Fixtures/RunnerCorpus" "$work"
rm -rf "$work/.build"
cd "$work"
swift build --build-tests >/dev/null
binary=$(ls -d .build/debug/*.xctest | head -1)

# capture CASE COMMAND...: runs COMMAND with @EVENTS@ and @XUNIT@ replaced by the case's files.
capture() {
    local name=$1; shift
    local events="$base/$name.events.jsonl" xunit="$base/$name.xunit.xml"
    local args=() status=0
    for arg in "$@"; do arg=${arg//@EVENTS@/$events}; args+=("${arg//@XUNIT@/$xunit}"); done
    "${args[@]}" >"$out/$name.console.txt" 2>&1 || status=$?
    echo "$status" >"$out/$name.exit"
    rm -f "$out/$name.events.jsonl" "$out/$name.xunit.xml"
    [ -s "$events" ] && cp "$events" "$out/$name.events.jsonl"
    # SwiftPM writes Swift Testing's xunit beside XCTest's, with -swift-testing before the extension.
    [ -s "$xunit" ] && cp "$xunit" "$out/$name.xunit.xml"
    [ -s "${xunit%.xml}-swift-testing.xml" ] && cp "${xunit%.xml}-swift-testing.xml" "$out/$name.swift-testing.xunit.xml"
    echo "$name: exit $status"
}

# swiftTest CASE FILTER [OPTION...]: `swift test` with the event stream of version 0 (the documented,
# stable one), and for Swift Testing again as CASE-ev6.3 with version 6.3, whose stream carries
# warnings (`isFailure: false`) and cancellations that version 0 leaves out.
swiftTest() {
    local name=$1 filter=$2; shift 2
    capture "$name" swift test --skip-build --filter "$filter" --event-stream-output-path @EVENTS@ --event-stream-version 0 \
        --xunit-output @XUNIT@ "$@"
    case $name in st-*|everything)
        capture "$name-ev6.3" swift test --skip-build --filter "$filter" --event-stream-output-path @EVENTS@ \
            --event-stream-version 6.3 "$@";;
    esac
}

swiftTest st-warnings VerdictSwiftTests.Warnings
swiftTest st-warnings-verbose VerdictSwiftTests.Warnings --verbose
swiftTest st-cancelled VerdictSwiftTests.Cancellations
swiftTest st-detached-issue VerdictSwiftTests.DetachedIssues
swiftTest st-known-issues VerdictSwiftTests.KnownIssues
swiftTest st-parameterized VerdictSwiftTests.Parameterized
swiftTest st-multiline-messages VerdictSwiftTests.MultiLineMessages
swiftTest st-all-pass VerdictSwiftTests.AllPass
swiftTest st-same-names 'VerdictSwiftTests.SameName'
swiftTest xct-multiline-failures VerdictXCTests.MultiLineFailures
swiftTest xct-multiline-skip VerdictXCTests.MultiLineSkips
swiftTest xct-all-pass VerdictXCTests.XCTAllPass
swiftTest xct-parallel-multiline-failures VerdictXCTests.MultiLineFailures --parallel
# Repetitions are an option of the test binary, not of `swift test`; it colours its output unless told not to.
capture st-repeat-coloured "$binary" --testing-library swift-testing --filter Repeated --repetitions 3 \
    --event-stream-output-path @EVENTS@ --event-stream-version 0
for version in 0 6.3; do
    capture "st-repeat-until-pass$([ $version = 0 ] || echo -ev$version)" env NO_COLOR=1 "$binary" --testing-library swift-testing \
        --filter Repeated --repeat-until pass --repetitions 3 --event-stream-output-path @EVENTS@ --event-stream-version $version
done
swiftTest everything .
