"""Inputs for the results benchmarks, from the fixture logs in shared/fixtures.

  generate.py log LINES OUT      every console fixture, concatenated and repeated to LINES lines
  generate.py junit CASES OUT    a JUnit file of CASES test cases (1 in 10 failing, 1 in 20 skipped),
                                 in the shape xcbeautify and fastlane write
"""
import os
import sys

here = os.path.dirname(os.path.abspath(__file__))
fixtures = os.environ.get("PREPUSH_SHARED_FIXTURES", os.path.join(here, "..", "..", "..", "shared", "fixtures"))


def log(lines, out):
    folder = os.path.join(fixtures, "console")
    chunk = b""
    for name in sorted(os.listdir(folder)):
        data = open(os.path.join(folder, name), "rb").read()
        chunk += data if data.endswith(b"\n") else data + b"\n"
    chunk_lines = chunk.count(b"\n")
    written = 0
    with open(out, "wb") as f:
        while written + chunk_lines <= lines:
            f.write(chunk)
            written += chunk_lines
        rest = chunk.split(b"\n")[: lines - written]
        f.write(b"\n".join(rest) + (b"\n" if rest else b""))
        written += len(rest)
    print(f"{out}: {written} lines")


def junit(cases, out):
    per_suite = 100
    with open(out, "w", encoding="utf-8") as f:
        f.write('<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="generated">\n')
        for suite in range(0, cases, per_suite):
            f.write(f'  <testsuite name="Suite{suite // per_suite}" tests="{per_suite}">\n')
            for case in range(suite, min(cases, suite + per_suite)):
                f.write(f'    <testcase classname="App.Suite{suite // per_suite}" name="test_feature_scenario{case}" time="0.{case % 1000:03d}"')
                if case % 10 == 3:
                    f.write(f'>\n      <failure message="Views/HomeView.swift:{case % 500} - XCTAssertEqual failed: (&quot;{case}&quot;) is not equal to (&quot;0&quot;)"/>\n    </testcase>\n')
                elif case % 20 == 7:
                    f.write('>\n      <skipped message="not on this platform"/>\n    </testcase>\n')
                else:
                    f.write("/>\n")
            f.write("  </testsuite>\n")
        f.write("</testsuites>\n")
    print(f"{out}: {cases} test cases")


if __name__ == "__main__":
    kind, count, out = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    {"log": log, "junit": junit}[kind](count, out)
