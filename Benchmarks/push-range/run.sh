#!/usr/bin/env bash
# Push-range benchmark (issue: accessibility check, part a): a repository gets 2,000 generated
# SwiftUI view files (about 200,000 lines) in one commit on top of a base commit; then the range
# base..head is computed by `prepush range` (commits, changed files, added lines and removal
# points, through libgit2) and by `git diff --name-only` (file names only), 10 runs each after a
# warm-up (hyperfine). A second commit edits 200 of the files, for the update case.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
work="$root/Benchmarks/.work/push-range"
rm -rf "$work" && mkdir -p "$work"
(cd "$root" && swift build -c release --static-swift-stdlib --product prepush --scratch-path .build-static >/dev/null)
prepush="$root/.build-static/release/prepush"
export GIT_CONFIG_GLOBAL="$work/gitconfig" GIT_CONFIG_NOSYSTEM=1
: > "$GIT_CONFIG_GLOBAL"
export GIT_AUTHOR_NAME=bench GIT_AUTHOR_EMAIL=bench@prepush.invalid GIT_COMMITTER_NAME=bench GIT_COMMITTER_EMAIL=bench@prepush.invalid

repo="$work/repo"
git init --quiet -b main "$repo"
cd "$repo"
echo "# app" > README.md && git add -A && git commit --quiet -m base
python3 - <<'PY'
import os
os.makedirs("Views", exist_ok=True)
for i in range(2000):
    lines = [f"import SwiftUI", "", f"struct Screen{i}View: View {{", "    @State private var done = false", "    var body: some View {", "        VStack {"]
    for j in range(30):
        lines.append(f'            Button("Action {j}") {{ done.toggle() }}')
        lines.append(f'                .accessibilityIdentifier("screen{i}_button_action{j}")')
        lines.append(f'            Text("Row {j}")')
    lines += ["        }", "    }", "}", ""]
    open(f"Views/Screen{i}View.swift", "w").write("\n".join(lines))
PY
git add -A && git commit --quiet -m "2000 views"
lines=$(cat Views/*.swift | wc -l)
python3 - <<'PY'
for i in range(0, 2000, 10):
    path = f"Views/Screen{i}View.swift"
    text = open(path).read().replace('Text("Row 7")', 'Text("Row seven")\n            Image(systemName: "star")')
    open(path, "w").write(text)
PY
git commit --quiet -am "edit 200 views"
echo "== $(git ls-files Views | wc -l) view files, $lines lines"

# -N: no shell between hyperfine and the command (git diff takes only a few milliseconds).
hyperfine -N --style basic --warmup 2 --runs 20 --export-json "$work/add.json" \
    -n "git diff --name-only" "git diff --name-only HEAD~2 HEAD~1" \
    -n "prepush range --names-only" "$prepush range --names-only --base HEAD~2 --head HEAD~1" \
    -n "git diff -U0 (lines too)" "git diff -U0 HEAD~2 HEAD~1" \
    -n "prepush range (lines too)" "$prepush range --base HEAD~2 --head HEAD~1" >/dev/null
hyperfine -N --style basic --warmup 2 --runs 20 --export-json "$work/edit.json" \
    -n "git diff --name-only" "git diff --name-only HEAD~1 HEAD" \
    -n "prepush range --names-only" "$prepush range --names-only --base HEAD~1 --head HEAD" \
    -n "git diff -U0 (lines too)" "git diff -U0 HEAD~1 HEAD" \
    -n "prepush range (lines too)" "$prepush range --base HEAD~1 --head HEAD" >/dev/null
python3 - "$work/add.json" "$work/edit.json" <<'PY'
import json, sys
for path, label in zip(sys.argv[1:], ["2,000 added view files", "200 edited view files"]):
    results = json.load(open(path))["results"]
    base = results[0]["median"]
    print(f"-- {label}")
    for r in results:
        print(f"   {r['command']:<30} median {r['median']*1000:7.1f} ms   {r['median']/base:5.2f}x git diff --name-only")
PY
# In the hook the process has started and libgit2 is set up (beside argument parsing) before the
# range is computed: `--timing` reports the range computation alone (repository open included).
echo "-- in-process range computation (prepush range --timing, median of 20)"
for label_args in "2,000 added, names only|--names-only --base HEAD~2 --head HEAD~1" "2,000 added, lines too|--base HEAD~2 --head HEAD~1" \
                  "200 edited, names only|--names-only --base HEAD~1 --head HEAD" "200 edited, lines too|--base HEAD~1 --head HEAD"; do
    label=${label_args%%|*}
    args=${label_args#*|}
    # shellcheck disable=SC2086
    median=$(for _ in $(seq 20); do "$prepush" range --timing $args 2>&1 >/dev/null | sed 's/[^0-9]//g'; done | sort -n | sed -n 10p)
    awk -v label="$label" -v us="$median" 'BEGIN { printf "   %-28s median %7.1f ms\n", label, us / 1000 }'
done
