#!/usr/bin/env bash
# Constant index benchmark (issue 24, item 5): an app of 3,000 Swift files (2,700 views of about 100
# lines, 299 model files, one A11yIdentifiers.swift in Element X's style) where a push changes one
# view that names its identifiers through constants, so the check must look the constants up in
# the rest of the repository. Measured: the CPU time (user + system, from the kernel's accounting
# of the child) of `prepush a11y --base HEAD~1`, the hook's accessibility step, 10 runs each:
#   - cold: no .git/prepush/constants (every file read and scanned, then the store written);
#   - warm: the store from the previous run (files whose stamp matches git's index are not read);
#   - and, when BEFORE=path/to/an/older/prepush is given, that binary (no store).
# Since issue 36 the same push also measures the identifier practice (a census of every file, kept in
# the same store). Release build of the current tree; figures go in docs/benchmarks.md.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
work="$root/Benchmarks/.work/constant-index"
rm -rf "$work" && mkdir -p "$work"
(cd "$root" && swift build -c release --product prepush | grep -v "^\[")
prepush="$root/.build/release/prepush"
export GIT_CONFIG_GLOBAL="$work/gitconfig" GIT_CONFIG_NOSYSTEM=1
: > "$GIT_CONFIG_GLOBAL"
git config --global user.name bench && git config --global user.email bench@example.com

repo="$work/repo"
git init --quiet -b main "$repo"
cd "$repo"
python3 - <<'PY'
import os
os.makedirs("App/Views", exist_ok=True)
os.makedirs("App/Models", exist_ok=True)
screens = 2700
ids = ["enum A11yIdentifiers {"]
for i in range(screens):
    ids.append(f"    static let screen{i} = Screen{i}()")
for i in range(screens):
    ids += [f"    struct Screen{i} {{", f'        let save = "screen{i}_button_save"', f'        let name = "screen{i}_field_name"', "    }"]
ids.append("}")
open("App/A11yIdentifiers.swift", "w").write("\n".join(ids) + "\n")
for i in range(screens):
    lines = ["import SwiftUI", "", f"struct Screen{i}View: View {{", "    @State private var name = \"\"",
             "    @State private var items: [String] = []", "    var body: some View {", "        VStack {"]
    for j in range(20):
        lines += [f'            Text("Row {j}").font(.headline)',
                  f'            Image(systemName: "star").accessibilityHidden(true)',
                  f'            Text(items.count > {j} ? items[{j}] : "").foregroundStyle(.secondary)',
                  "            Divider()"]
    lines += [f'            TextField("Name", text: $name).accessibilityIdentifier(A11yIdentifiers.screen{i}.name)',
              f'            Button("Save") {{ save() }}.accessibilityIdentifier(A11yIdentifiers.screen{i}.save)',
              "        }", "    }", "", "    private func save() {}", "}", ""]
    open(f"App/Views/Screen{i}View.swift", "w").write("\n".join(lines))
for i in range(299):
    body = [f"struct Model{i}: Codable, Hashable {{", "    let id: UUID", "    var title: String", "    let created: Date"]
    body += [f"    var field{j}: Int = {j}" for j in range(40)]
    body += ["}", ""]
    open(f"App/Models/Model{i}.swift", "w").write("import Foundation\n\n" + "\n".join(body))
PY
git add -A && git commit --quiet -m app
sed -i 's/Button("Save")/Button("Save changes")/' App/Views/Screen1234View.swift
git commit --quiet -am "one view changes"
echo "== $(git ls-files | wc -l) files, $(cat $(git ls-files) | wc -l) lines"

measure() { # label, command...: median and mean CPU seconds of 10 runs
    python3 - "$@" <<'PY'
import os, statistics, subprocess, sys
label, command = sys.argv[1], sys.argv[2:]
cold = label.startswith("cold")
times = []
for _ in range(11):
    if cold and os.path.exists(".git/prepush/constants"): os.remove(".git/prepush/constants")
    child = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(child.pid, 0)
    times.append(usage.ru_utime + usage.ru_stime)
times = times[1:]  # the first run warms the page cache
print(f"   {label:<44} CPU median {statistics.median(times)*1000:7.1f} ms   max {max(times)*1000:7.1f} ms")
PY
}
"$prepush" a11y --base HEAD~1 >/dev/null || true
if [ -n "${BEFORE:-}" ]; then measure "before ($(basename "$BEFORE"), no store)" "$BEFORE" a11y --base HEAD~1; fi
measure "cold: no store, every file scanned" "$prepush" a11y --base HEAD~1
measure "warm: the store, files known by the index" "$prepush" a11y --base HEAD~1
echo "   store: $(wc -l < .git/prepush/constants) lines, $(du -k .git/prepush/constants | cut -f1) KB"
