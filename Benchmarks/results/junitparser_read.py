"""The peer, doing the same job as `prepush results FILE --format json --output OUT`: read a JUnit
file with junitparser and write every test case's outcome (suite, name, status, time, first
message) as JSON."""
import json
import sys

from junitparser import Error, Failure, JUnitXml, Skipped

xml = JUnitXml.fromfile(sys.argv[1])
tests = []
for suite in xml:
    for case in suite:
        status, message = "passed", None
        for result in case.result:
            if isinstance(result, Skipped):
                status, message = "skipped", result.message
            elif isinstance(result, (Failure, Error)):
                status, message = "failed", result.message
        tests.append({"suite": case.classname, "name": case.name, "status": status, "duration": case.time, "failureMessage": message})
summary = {s: sum(1 for t in tests if t["status"] == s) for s in ("passed", "failed", "skipped")}
with open(sys.argv[2], "w") as out:
    json.dump({"summary": summary, "tests": tests}, out, indent=2, sort_keys=True)
