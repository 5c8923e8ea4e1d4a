#!/usr/bin/env python3
"""Precision and recall of prepush's accessibility rules on Tests/Fixtures/AccessibilityCorpus.

    scripts/a11y-corpus.py [BINARY] [-v]     (default .build/debug/prepush)

Each corpus line that ends with `// expect: rule-id[, rule-id]` is where a finding belongs; any other
finding is a false positive. The files are checked whole, in a throwaway git repository (older
prepush builds need one), and the table is printed in Markdown.
"""
import json, os, re, shutil, subprocess, sys, tempfile

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
corpus = os.path.join(root, "Tests", "Fixtures", "AccessibilityCorpus")
arguments = [a for a in sys.argv[1:] if a != "-v"]
binary = os.path.abspath(arguments[0] if arguments else os.path.join(root, ".build", "debug", "prepush"))
rules = ["missing-identifier", "identifier-convention", "duplicate-identifier", "icon-button-missing-label",
         "image-missing-label", "tap-gesture-missing-trait", "fixed-font-size", "small-touch-target"]

def measure(folder):
    expected = set()
    files = sorted(f for f in os.listdir(folder) if f.endswith(".swift"))
    for name in files:
        with open(os.path.join(folder, name), encoding="utf-8") as handle:
            for number, line in enumerate(handle, 1):
                match = re.search(r"// expect: ([a-z, -]+)$", line.rstrip("\n"))
                if match:
                    for rule in match.group(1).split(","):
                        expected.add((name, number, rule.strip()))

    with tempfile.TemporaryDirectory() as work:
        for name in files:
            shutil.copy(os.path.join(folder, name), work)
        subprocess.run(["git", "init", "-q"], cwd=work, check=True)
        run = subprocess.run([binary, "a11y", "--format", "json", *files], cwd=work, capture_output=True, text=True)
        if run.returncode not in (0, 1):
            sys.exit(f"{binary} failed ({run.returncode}): {run.stderr}")
        found = {(f["file"], f["line"], f["rule"]) for f in json.loads(run.stdout)["findings"]}
    return expected, found


def table(title, expected, found):
    print(f"\n{title}\n")
    print("| rule | expected | found | right | wrong (false positives) | missed | precision | recall |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    for rule in rules + ["all"]:
        want = {e for e in expected if rule in ("all", e[2])}
        got = {f for f in found if rule in ("all", f[2])}
        right = len(want & got)
        precision = f"{100 * right / len(got):.0f}%" if got else "–"
        recall = f"{100 * right / len(want):.0f}%" if want else "–"
        print(f"| {rule} | {len(want)} | {len(got)} | {right} | {len(got - want)} | {len(want - got)} | {precision} | {recall} |")
    if "-v" in sys.argv or os.environ.get("VERBOSE"):
        for item in sorted(found - expected): print("wrong:", *item)
        for item in sorted(expected - found): print("missed:", *item)


# Each folder is checked in a repository of its own: the top folder tags its controls (missing-identifier
# applies), PolicyOff has no identifiers and no UI tests, PartlyTagged tags only the screen its UI tests
# drive (missing-identifier applies there alone) in its own `screen-element` scheme.
table("Policy on (AccessibilityCorpus)", *measure(corpus))
table("Policy off (AccessibilityCorpus/PolicyOff)", *measure(os.path.join(corpus, "PolicyOff")))
table("Partly tagged (AccessibilityCorpus/PartlyTagged)", *measure(os.path.join(corpus, "PartlyTagged")))
