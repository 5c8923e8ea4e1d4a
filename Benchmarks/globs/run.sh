#!/usr/bin/env bash
# Glob matching on hostile patterns (issues 27 §6 and 28 §3): a repository of 30 files, the deepest
# 30 folders down, whose stage has `paths:` with N `**` segments before `x.txt` (no file matches, the
# worst case for backtracking). Times `prepush run --base HEAD~1` (the stage never runs: the time is
# the run's, globs included) with hyperfine, for N = 4, 8, 14 and 20. Set BASELINE to another
# prepush binary (an older build) to time it beside; its runs are capped at 60 s each.
#
#   Benchmarks/globs/run.sh                 BASELINE=/path/to/old/prepush Benchmarks/globs/run.sh
#
# Needs: swift, git, hyperfine.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
work="$root/Benchmarks/.work/globs"
rm -rf "$work" && mkdir -p "$work"
(cd "$root" && swift build -c release --product prepush >/dev/null)
prepush="$root/.build/release/prepush"
export GIT_CONFIG_GLOBAL="$work/gitconfig" GIT_CONFIG_NOSYSTEM=1
: > "$GIT_CONFIG_GLOBAL"
export GIT_AUTHOR_NAME=bench GIT_AUTHOR_EMAIL=bench@prepush.invalid GIT_COMMITTER_NAME=bench GIT_COMMITTER_EMAIL=bench@prepush.invalid

repo="$work/deep"
mkdir -p "$repo" && cd "$repo" && git init -q -b main
path=""
for i in $(seq 1 30); do
    path="$path/d$i"
    mkdir -p ".$path" && echo "$i" > ".$path/f.txt"
done
git add -A && git commit -qm files
echo "| \`**\` segments | prepush (this build) | ${BASELINE:+baseline |}"
echo "| ---: | ---: | ${BASELINE:+---: |}"
for n in 4 8 14 20; do
    pattern=$(printf '**/%.0s' $(seq 1 "$n"))x.txt
    printf 'cache: false\nstages:\n  unit:\n    run: "true"\n    paths: ["%s"]\n' "$pattern" > .prepush.yml
    echo "$n" >> ".$path/f.txt"
    git add -A && git commit -qm "n=$n"
    mine=$(hyperfine -N --warmup 2 --runs 20 --export-json "$work/mine-$n.json" "$prepush run --base HEAD~1" >/dev/null && python3 -c "import json; print('%.1f ms' % (json.load(open('$work/mine-$n.json'))['results'][0]['median'] * 1000))")
    other=""
    if [ -n "${BASELINE:-}" ]; then
        start=$(date +%s.%N)
        # KILL: an older prepush ignored SIGTERM outside its stages (issue 28 §5).
        if timeout -s KILL 60 "$BASELINE" run --base HEAD~1 >/dev/null 2>&1; then
            other="$(python3 -c "print('%.1f ms' % (($(date +%s.%N) - $start) * 1000))") |"
        else
            other="over 60 s |"
        fi
    fi
    echo "| $n | $mine | $other"
done
