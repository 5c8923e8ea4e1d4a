#!/usr/bin/env bash
# Fuzzes the readers of untrusted input with libFuzzer (Linux): the YAML loader, the test-result
# readers (console, JUnit XML, xcresult JSON, Swift Testing events) with every report writer, and
# the hook's stdin. Seeds come from the captured fixtures. Exits non-zero when an input crashes,
# traps, leaks past the memory limit or hangs; the input is kept in .build/fuzz/crashes.
#
#   scripts/fuzz.sh [RUNS]      (default 200000 inputs; CI runs 30000 with the fixed seed)
#   FUZZ_SEED=0 scripts/fuzz.sh 1000000   a long campaign with a random seed
#   .build/fuzz/release/PrePushFuzz .build/fuzz/crashes/crash-…   replays one input
set -euo pipefail
cd "$(dirname "$0")/.."
runs="${1:-200000}"

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

# -timeout: an input taking over 10 s is a hang; -rss_limit_mb: over 2 GB is a memory bug.
log=.build/fuzz/last-run.log
status=0
./.build/fuzz/release/PrePushFuzz "$corpus" "$seeds" -runs="$runs" -max_len=16384 -timeout=10 \
    -rss_limit_mb=2048 -seed="${FUZZ_SEED:-1}" -artifact_prefix="$crashes/" -print_final_stats=1 > "$log" 2>&1 || status=$?
grep -E "^(#[0-9]+\s+DONE|Done|stat::peak_rss_mb|==[0-9]+==|SUMMARY|artifact_prefix|Test unit written)" "$log" || true
if [ "$status" -ne 0 ]; then
    tail -40 "$log" >&2
    echo "fuzz: an input failed (exit $status); it is in $crashes" >&2
    exit 1
fi
echo "fuzz: $runs inputs, no crash"
