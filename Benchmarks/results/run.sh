#!/usr/bin/env bash
# Results benchmarks (issue: test results):
#  1. a 1,000,000-line log made by repeating every console fixture, parsed to JUnit by
#     `prepush results` (release build): lines per second and peak memory (max RSS, GNU time);
#  2. a JUnit file of 100,000 test cases read back by `prepush results` and by Python's
#     junitparser (pip), side by side (hyperfine, 5 runs each after a warm-up).
# Needs: swift, python3 with pip, hyperfine, GNU time (apt-get install -y hyperfine time).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
work="$root/Benchmarks/.work/results"
mkdir -p "$work"
lines=${LINES_TOTAL:-1000000}
cases=${CASES:-100000}

(cd "$root" && swift build -c release --product prepush >/dev/null)
prepush="$root/.build/release/prepush"
if [ ! -x "$work/venv/bin/python" ]; then
    python3 -m venv "$work/venv"
    "$work/venv/bin/pip" install --quiet junitparser
fi

python3 "$here/generate.py" log "$lines" "$work/big.log"
python3 "$here/generate.py" junit "$cases" "$work/big.junit.xml"

echo "== 1. $lines-line log to JUnit"
/usr/bin/time -f "%e s elapsed, %M KB max RSS" "$prepush" results "$work/big.log" --format junit --output "$work/big.log.junit.xml" 2> "$work/time.txt" || true
cat "$work/time.txt" | tail -1
hyperfine --style basic --warmup 2 --runs 10 --export-json "$work/log.json" \
    -n "prepush results (log → JUnit)" "$prepush results $work/big.log --format junit --output $work/big.log.junit.xml || true" >/dev/null
python3 - "$work/log.json" "$lines" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))["results"][0]
lines = int(sys.argv[2])
print(f"median {r['median']:.3f} s  →  {lines / r['median']:,.0f} lines/s")
PY

echo "== 2. reading $cases JUnit test cases"
hyperfine --style basic --warmup 2 --runs 10 --export-json "$work/junit.json" \
    -n prepush "$prepush results $work/big.junit.xml --format json --output $work/big.junit.json || true" \
    -n junitparser "$work/venv/bin/python $here/junitparser_read.py $work/big.junit.xml $work/big.junitparser.json" >/dev/null
python3 - "$work/junit.json" <<'PY'
import json, sys
results = {r["command"]: r for r in json.load(open(sys.argv[1]))["results"]}
base = results["prepush"]["median"]
for name, r in results.items():
    print(f"{name:<12} median {r['median']*1000:8.1f} ms   {r['median']/base:5.2f}x prepush")
PY
/usr/bin/time -f "prepush reading JUnit: %M KB max RSS" "$prepush" results "$work/big.junit.xml" --format json --output "$work/big.junit.json" 2>&1 >/dev/null | tail -1 || true
