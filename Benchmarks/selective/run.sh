#!/usr/bin/env bash
# Selective tests (issue 14 §2): a generated package of 20 library modules in a binary tree (M1 is
# the root, Mi depends on M(i/2)), each with a test target of 10 Swift Testing tests that each take
# 0.1 s. A change in a leaf module (M20) is pushed and run through `prepush run --base HEAD~1` with
# `selective: true` and with it off: wall time of the run (incremental build included) and the
# number of tests each ran. Prints a Markdown table for docs/benchmarks.md.
#
#   Benchmarks/selective/run.sh
#
# Needs: swift, git.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
work="$root/Benchmarks/.work/selective"
modules=${MODULES:-20}
rm -rf "$work" && mkdir -p "$work"
(cd "$root" && swift build -c release --product prepush >/dev/null)
prepush="$root/.build/release/prepush"
export GIT_CONFIG_GLOBAL="$work/gitconfig" GIT_CONFIG_NOSYSTEM=1
: > "$GIT_CONFIG_GLOBAL"
export GIT_AUTHOR_NAME=bench GIT_AUTHOR_EMAIL=bench@prepush.invalid GIT_COMMITTER_NAME=bench GIT_COMMITTER_EMAIL=bench@prepush.invalid

repo="$work/chain"
mkdir -p "$repo" && cd "$repo" && git init -q -b main
{
    echo '// swift-tools-version:6.0'
    echo 'import PackageDescription'
    echo 'let package = Package(name: "Chain", targets: ['
    for i in $(seq 1 "$modules"); do
        if [ "$i" -eq 1 ]; then echo "    .target(name: \"M1\"),"; else echo "    .target(name: \"M$i\", dependencies: [\"M$((i / 2))\"]),"; fi
        echo "    .testTarget(name: \"M${i}Tests\", dependencies: [\"M$i\"]),"
    done
    echo '])'
} > Package.swift
for i in $(seq 1 "$modules"); do
    mkdir -p "Sources/M$i" "Tests/M${i}Tests"
    if [ "$i" -eq 1 ]; then echo 'public let value = 1' > "Sources/M1/M1.swift"
    else printf 'import M%d\npublic let value = M%d.value\n' $((i / 2)) $((i / 2)) > "Sources/M$i/M$i.swift"; fi
    {
        echo "import Testing"
        echo "import M$i"
        for t in $(seq 1 10); do echo "@Test func test$t() async throws { try await Task.sleep(for: .milliseconds(100)); #expect(value == 1) }"; done
    } > "Tests/M${i}Tests/M${i}Tests.swift"
done
echo '.build/' > .gitignore
write_config() {
    printf 'cache: false\nstages:\n  unit:\n    run: swift build --build-tests -q && swift test --skip-build --no-parallel --event-stream-output-path .build/events.jsonl --event-stream-version 0\n    selective: %s\n    timeout: 3600\n' "$1" > .prepush.yml
}
write_config true
git add -A && git commit -qm init
echo "== building the package once ($modules modules, $modules test targets)"
swift build --build-tests -q

measure() {
    local selective=$1 n=$2
    git checkout -q main
    write_config "$selective"
    git commit -qam "selective $selective" || true
    printf 'import M%d\npublic let value = M%d.value // %s %s\n' $((modules / 2)) $((modules / 2)) "$selective" "$n" > "Sources/M$modules/M$modules.swift"
    git commit -qam "leaf change $n"
    local start end
    start=$(date +%s.%N)
    "$prepush" run --base HEAD~1 > "$work/run-$selective-$n.txt" 2>&1 || { cat "$work/run-$selective-$n.txt"; exit 1; }
    end=$(date +%s.%N)
    local tests
    tests=$(grep -o 'tests: [0-9]* passed' "$work/run-$selective-$n.txt" | grep -o '[0-9]*')
    echo "$selective $(echo "$end - $start" | bc) $tests"
}
echo "| run | wall time | tests run |"
echo "| --- | ---: | ---: |"
for n in 1 2 3; do
    read -r _ full tests_full < <(measure false "$n")
    read -r _ sel tests_sel < <(measure true "$n")
    printf '| full, leaf change %d | %.1f s | %d |\n' "$n" "$full" "$tests_full"
    printf '| selective, leaf change %d | %.1f s | %d |\n' "$n" "$sel" "$tests_sel"
done
grep -h "selective:" "$work"/run-true-1.txt
