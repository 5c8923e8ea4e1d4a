#!/usr/bin/env bash
# Traceability benchmark (issue: traceability): a generated test tree of 5,000 XCTest methods (250
# files of 20, through a project base class, with launch arguments in setUp and in the bodies), a
# 2,000-scenario catalog (1,900 implemented, 100 without a test, 50 manual) and JUnit results for every
# test (2% failing). `prepush report` does the whole job: reads the catalog, finds the tests with
# swift-syntax, reads the results, builds the matrix and writes the report; 10 runs per format after
# a warm-up (hyperfine), static release build. The goal: the whole report under one second.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
work="$root/Benchmarks/.work/traceability"
rm -rf "$work" && mkdir -p "$work"
(cd "$root" && swift build -c release --static-swift-stdlib --product prepush --scratch-path .build-static | grep -v "^\[")
prepush="$root/.build-static/release/prepush"
export GIT_CONFIG_GLOBAL="$work/gitconfig" GIT_CONFIG_NOSYSTEM=1
: > "$GIT_CONFIG_GLOBAL"

repo="$work/repo"
git init --quiet -b main "$repo"
cd "$repo"
python3 - <<'PY'
import os, random
random.seed(7)
os.makedirs("AppUITests", exist_ok=True)
os.makedirs("App", exist_ok=True)
open("App/LaunchArguments.swift", "w").write(
    'enum LaunchArguments {\n    static let uitesting = "--uitesting"\n    static let seed = "--seed-data"\n}\n')
open("AppUITests/BaseUITestCase.swift", "w").write(
    "import XCTest\nclass BaseUITestCase: XCTestCase {\n    var app: XCUIApplication!\n"
    "    override func setUpWithError() throws {\n        app = XCUIApplication()\n"
    "        app.launchArguments = [LaunchArguments.uitesting]\n    }\n}\n")
names = []
for f in range(250):
    lines = ["import XCTest", "", f"final class Feature{f}UITests: BaseUITestCase {{"]
    for m in range(20):
        name = f"test_feature{f}_scenario{m}"
        names.append((f"Feature{f}UITests", name))
        lines += [f"    func {name}() throws {{",
                  f"        app.launchArguments += [LaunchArguments.seed, \"--screen={m}\"]",
                  "        app.launch()",
                  f"        XCTAssertTrue(app.buttons[\"feature{f}_button_action{m}\"].exists)",
                  "    }", ""]
    lines.append("}")
    open(f"AppUITests/Feature{f}UITests.swift", "w").write("\n".join(lines) + "\n")

chosen = random.sample(names, 1900)
with open("scenarios.yml", "w") as out:
    out.write("stories:\n" + "".join(f"  US{s}: Story {s}\n" for s in range(100)) + "scenarios:\n")
    for i, (_, name) in enumerate(chosen):
        out.write(f"  - story: US{i % 100}\n    priority: P{1 + i % 3}\n    description: Scenario {i} of the generated app\n"
                  f"    test: {name}\n    launchArguments: [--uitesting, --seed-data]\n")
    for i in range(100):
        manual = "    manual: true\n" if i < 50 else ""
        out.write(f"  - story: US{i}\n    priority: P{1 + i % 3}\n    description: Not automated {i}\n"
                  f"    test: test_missing_case{i}\n{manual}")

with open("junit.xml", "w") as out:
    out.write('<?xml version="1.0" encoding="UTF-8"?>\n<testsuites>\n')
    for f in range(250):
        out.write(f'  <testsuite name="AppUITests.Feature{f}UITests" tests="20">\n')
        for m in range(20):
            name = f"test_feature{f}_scenario{m}"
            time = round(random.uniform(0.5, 30), 3)
            if random.random() < 0.02:
                out.write(f'    <testcase classname="AppUITests.Feature{f}UITests" name="{name}" time="{time}">'
                          f'<failure message="XCTAssertTrue failed">Feature{f}UITests.swift:{6 + m * 6}</failure></testcase>\n')
            else:
                out.write(f'    <testcase classname="AppUITests.Feature{f}UITests" name="{name}" time="{time}"/>\n')
        out.write("  </testsuite>\n")
    out.write("</testsuites>\n")
PY
tests=$(grep -c "func test_" AppUITests/*.swift | awk -F: '{s += $2} END {print s}')
echo "== $tests test methods, $(grep -c '^  - story' scenarios.yml) scenarios, $(grep -c '<testcase' junit.xml) results"
"$prepush" report --scenarios scenarios.yml --results junit.xml --format json --output "$work/report.json" 2>/dev/null || true
python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print('   totals:', d['totals'], '| unmapped tests:', len(d['unmappedTests']))" "$work/report.json"
# The gate refuses (failing P1 scenarios), so each run exits 1: -i keeps hyperfine going.
hyperfine -N -i --style basic --warmup 1 --runs 10 --export-json "$work/report.json.bench" \
    -n "report --format html" "$prepush report --scenarios scenarios.yml --results junit.xml --format html --output $work/r.html" \
    -n "report --format markdown" "$prepush report --scenarios scenarios.yml --results junit.xml --format markdown --output $work/r.md" \
    -n "report --format json" "$prepush report --scenarios scenarios.yml --results junit.xml --format json --output $work/r.json" >/dev/null 2>&1
python3 - "$work/report.json.bench" <<'PY'
import json, sys
for r in json.load(open(sys.argv[1]))["results"]:
    print(f"   {r['command']:<26} median {r['median']*1000:7.1f} ms")
PY
ls -l "$work/r.html" | awk '{printf "   html report: %.1f MB\n", $5 / 1048576}'
