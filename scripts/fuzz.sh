#!/usr/bin/env bash
# Fuzzes the readers of untrusted input with libFuzzer (Linux): the YAML loader, the test-result
# readers (console, JUnit XML, xcresult JSON, Swift Testing events) with every report writer, the
# hook's stdin, a run history whose bytes a stage changed, the neutralising of printed lines, and the
# escaper of each output language (Markdown, YAML, HTML, links).
# Seeds come from the captured fixtures. Exits non-zero when an input crashes, traps, leaks past
# the memory limit or hangs; the input is kept in .build/fuzz/crashes.
#
#   scripts/fuzz.sh [RUNS [SECONDS]]   (default 200000 inputs, no time limit; CI runs up to 30000
#                                      with the fixed seed, for at most 180 s)
#   FUZZ_SEED=0 scripts/fuzz.sh 1000000   a long campaign with a random seed
#   .build/fuzz/release/PrePushFuzz .build/fuzz/crashes/crash-…   replays one input
#
# The time limit is CI's: the same seed and binary took 211 to 470 s for 30000 inputs on the 2-core
# machine (the corpus grows with megabyte inputs, and their speed varies with the machine's load),
# and a step whose length is not known is a CI whose length is not known. Every seed, each input
# that once crashed among them, runs before the first mutation, whatever the limit.
set -euo pipefail
cd "$(dirname "$0")/.."
runs="${1:-200000}" seconds="${2:-0}"

swift build -c release --product PrePushFuzz --scratch-path .build/fuzz \
    -Xswiftc -sanitize=fuzzer,address -Xswiftc -DPREPUSH_LIBFUZZER \
    -Xswiftc -Xclang-linker -Xswiftc -fuse-ld=lld 2>&1 | grep -v "Cannot export local symbol" | tail -1

# Seeds: each fixture once per reader it is meant for, behind that reader's selector byte.
seeds=.build/fuzz/seeds corpus=.build/fuzz/corpus crashes=.build/fuzz/crashes
rm -rf "$seeds"
mkdir -p "$seeds" "$corpus" "$crashes"
n=0
seed() { # selector file
    n=$((n + 1))
    { printf "\\$(printf '%03o' "$1")"; head -c 65536 "$2"; } > "$seeds/$n"
}
for fixtures in ../shared/fixtures Tests/Fixtures/captured Tests/Fixtures/traceability; do
    [ -d "$fixtures" ] || continue
    while IFS= read -r file; do
        case "$file" in
            *.yml|*.yaml) seed 0 "$file" ;;
            *.xml) seed 1 "$file" ;;
            *githooks*) seed 3 "$file" ;;
            *.log|*.txt|*.json) seed 2 "$file" ;;
        esac
    done < <(find "$fixtures" -type f | sort)
done
printf '\000stages:\n  unit: &u\n    run: swift test\n    timeout: 30\n  ui: *u\n' > "$seeds/config"
printf '\003refs/heads/main 1111111111111111111111111111111111111111 refs/heads/main 0000000000000000000000000000000000000000\n' > "$seeds/hook"
# Globs (4), regular expressions (5), the scenario catalog (6); and the inputs that were quadratic
# once, whole (a 200 KB one-line configuration with 20,000 unknown keys, a 1.6 MB minified JUnit
# file): -max_len keeps them whole, and -timeout catches a return to quadratic time.
printf '\004**/**/**/**/**/**/**/**/x.txt\na/b/c/d/e/f/g/h/i/j/k/l/m/y.txt\nSources/A/HomeView.swift\n' > "$seeds/glob"
printf '\005(a|a)*b\naaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\n[a-z]+(_[a-z0-9]+)*\nhome_button_add\n' > "$seeds/regex"
for file in Tests/Fixtures/traceability/scenarios.yml Examples/AgenticTodo/.prepush/scenarios.yml; do [ -f "$file" ] && seed 6 "$file"; done
# A run history a stage rewrote (0xF0: changes to a real one's bytes, 3 bytes each), and text that
# every printed line goes through (0xF1: CR, NEL, U+2028 and ESC before workflow commands).
printf '\360\000\020\377\000\144\000\001\000\123' > "$seeds/history"
printf '\361first\r::add-mask::x\r::error file=a.swift,line=1::forged\302\205::warning::nel\342\200\250::notice::ls\033[2J##[group]g\013::x\014::y' > "$seeds/neutralising"
# The escapers of each output language (0xF2): line breaks of every kind, markup, fences, backticks,
# a YAML document's own syntax and a link's scheme tricks.
printf '\362x\r## \342\234\205 Tests passed\r<!-- `a``b` ~~~~ | [l](javascript:alert(1)) \302\205- ok\342\200\250key: "v" # c\n  lint: {run: touch pwned}\t&lt; JaVaScRiPt&#58;x \001' > "$seeds/escapers"
# Every input that once crashed, as the fuzzer wrote it (its first byte picks the reader): each run tries them first.
for file in Tests/Fixtures/fuzz-regressions/*; do
    case "$file" in *.md) continue ;; esac
    cp "$file" "$seeds/regression-$(basename "$file")"
done
python3 - "$seeds" <<'PY'
import sys
folder = sys.argv[1]
with open(folder + "/one-line-config", "wb") as f:
    f.write(b"\0{" + ", ".join("k%d: 1" % i for i in range(20000)).encode() + b"}\n")
with open(folder + "/minified-junit", "wb") as f:
    cases = "".join('<testcase classname="S%d" name="t%d" time="0.001"/>' % (i % 50, i) for i in range(30000))
    f.write(b"\1<testsuites><testsuite name=\"x\">" + cases.encode() + b"</testsuite></testsuites>")
PY

# -timeout: an input taking over 10 s is a hang; -rss_limit_mb: over 2 GB is a memory bug.
log=.build/fuzz/last-run.log
status=0
./.build/fuzz/release/PrePushFuzz "$corpus" "$seeds" -runs="$runs" -max_total_time="$seconds" -max_len=2097152 -timeout=10 \
    -rss_limit_mb=2048 -seed="${FUZZ_SEED:-1}" -artifact_prefix="$crashes/" -print_final_stats=1 > "$log" 2>&1 || status=$?
grep -E "^(#[0-9]+\s+DONE|Done|stat::peak_rss_mb|==[0-9]+==|SUMMARY|artifact_prefix|Test unit written)" "$log" || true
if [ "$status" -ne 0 ]; then
    tail -40 "$log" >&2
    echo "fuzz: an input failed (exit $status); it is in $crashes" >&2
    exit 1
fi
# libFuzzer's last progress line counts the inputs it ran ("#30000 DONE ..."), a time limit included.
ran=$(grep -oE "^#[0-9]+\s+DONE" "$log" | grep -oE "[0-9]+" | tail -1)
echo "fuzz: ${ran:-$runs} inputs, no crash"
