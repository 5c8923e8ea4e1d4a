#!/usr/bin/env bash
# Accessibility check benchmark (issue: accessibility check, part b): 2,000 generated SwiftUI view
# files (about 200,000 lines, the push-range benchmark's generator plus images, toggles and text
# fields) are checked whole by `prepush a11y --all` (configuration, file walk, parse, all rules,
# output) and only read and parsed by `parse-floor` (swift-syntax's Parser, nothing else), 10 runs
# each after a warm-up (hyperfine). Both are static release builds. The goal: the check within
# 1.5x of the bare parse.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
work="$root/Benchmarks/.work/accessibility-check"
rm -rf "$work" && mkdir -p "$work"
(cd "$root" && swift build -c release --static-swift-stdlib --product prepush --scratch-path .build-static | grep -v "^\[" \
    && swift build -c release --static-swift-stdlib --product parse-floor --scratch-path .build-static | grep -v "^\[")
prepush="$root/.build-static/release/prepush"
floor="$root/.build-static/release/parse-floor"
export GIT_CONFIG_GLOBAL="$work/gitconfig" GIT_CONFIG_NOSYSTEM=1
: > "$GIT_CONFIG_GLOBAL"

repo="$work/repo"
git init --quiet -b main "$repo"
cd "$repo"
python3 - <<'PY'
import os
os.makedirs("Views", exist_ok=True)
for i in range(2000):
    lines = ["import SwiftUI", "", f"struct Screen{i}View: View {{", "    @State private var done = false",
             "    @State private var name = \"\"", "    var body: some View {", "        VStack {"]
    for j in range(18):
        lines.append(f'            Button("Action {j}") {{ done.toggle() }}')
        lines.append(f'                .accessibilityIdentifier("screen{i}_button_action{j}")')
        lines.append(f'            Text("Row {j}").font(.headline)')
        lines.append(f'            Image(systemName: "star").accessibilityHidden(true)')
        lines.append(f'            Toggle("Option {j}", isOn: $done).accessibilityIdentifier("screen{i}_toggle_option{j}")')
    lines.append(f'            TextField("Name", text: $name).accessibilityIdentifier("screen{i}_field_name")')
    lines += ["        }", "    }", "}", ""]
    open(f"Views/Screen{i}View.swift", "w").write("\n".join(lines))
PY
lines=$(cat Views/*.swift | wc -l)
files=$(ls Views | wc -l)
echo "== $files view files, $lines lines"
"$prepush" a11y --all >/dev/null   # must find nothing: every control is labelled and identified
hyperfine -N --style basic --warmup 1 --runs 10 --export-json "$work/check.json" \
    -n "parse-floor (read + parse)" "$floor $repo/Views" \
    -n "prepush a11y --all" "$prepush a11y --all" >/dev/null
python3 - "$work/check.json" <<'PY'
import json, sys
results = json.load(open(sys.argv[1]))["results"]
base = results[0]["median"]
for r in results:
    print(f"   {r['command']:<28} median {r['median']*1000:7.1f} ms   {r['median']/base:5.2f}x the bare parse")
PY
