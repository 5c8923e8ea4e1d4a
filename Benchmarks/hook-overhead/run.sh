#!/usr/bin/env bash
# Times one whole pre-push hook run with a no-op stage (`true`) for prepush, lefthook and
# pre-commit: the same repository content, the same ref line on stdin, the installed hook
# invoked as git invokes it (`.git/hooks/pre-push <remote> <url>`), warm-up runs first, then
# RUNS timed runs each with hyperfine. Prints medians and ratios; writes results.json.
#
#   Benchmarks/hook-overhead/run.sh            (RUNS=30 by default)
#
# Needs: swift, git, python3 with pip (for lefthook and pre-commit, installed into a venv
# under Benchmarks/.work), hyperfine (apt-get install -y hyperfine); perf (linux-perf) for the
# profile, when it is there.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
work="$root/Benchmarks/.work/hook-overhead"
runs=${RUNS:-30}
rm -rf "$work/repos"
mkdir -p "$work/repos"

command -v hyperfine >/dev/null || { echo "hyperfine is needed: apt-get install -y hyperfine (or brew install hyperfine)" >&2; exit 2; }

echo "== building prepush (release: the static binary a release ships on Linux, and the plain one)"
(cd "$root" && swift build -c release --product prepush >/dev/null)
prepush_dynamic="$root/.build/release/prepush"
if [ "$(uname)" = Linux ]; then
    # What scripts/build-static.sh links (and the release workflow ships): the Swift runtime, libgit2,
    # libyaml and their dependencies inside the binary, so the dynamic loader has almost nothing to do.
    (cd "$root" && scripts/build-static.sh >/dev/null)
    prepush="$root/.build-static/release/prepush"
else
    prepush="$prepush_dynamic"
fi

echo "== installing lefthook and pre-commit into $work/venv"
if [ ! -x "$work/venv/bin/pre-commit" ]; then
    python3 -m venv "$work/venv"
    "$work/venv/bin/pip" install --quiet lefthook pre-commit
fi
# The pip package's `lefthook` is a Python wrapper that starts the Go binary; put the Go binary
# itself first on PATH so lefthook is measured as its users mostly run it (npm, brew, go install).
lefthook_go=$(find "$work/venv" -path '*lefthook/bin/*' -type f -name lefthook | head -1)
mkdir -p "$work/bin"
ln -sf "$lefthook_go" "$work/bin/lefthook"
ln -sf "$work/venv/bin/pre-commit" "$work/bin/pre-commit"
ln -sf "$prepush" "$work/bin/prepush"
export PATH="$work/bin:$PATH"
export PRE_COMMIT_HOME="$work/pre-commit-cache"
export GIT_CONFIG_GLOBAL="$work/gitconfig" GIT_CONFIG_NOSYSTEM=1
: > "$GIT_CONFIG_GLOBAL"
export GIT_AUTHOR_NAME=bench GIT_AUTHOR_EMAIL=bench@prepush.invalid GIT_COMMITTER_NAME=bench GIT_COMMITTER_EMAIL=bench@prepush.invalid

make_repo() {
    local dir="$work/repos/$1"
    git init --quiet -b main "$dir"
    mkdir -p "$dir/Sources/App"
    for i in $(seq 1 20); do printf 'struct View%s {}\n' "$i" > "$dir/Sources/App/View$i.swift"; done
    git -C "$dir" remote add origin "$work/repos/origin.git"
    echo "$dir"
}
git init --quiet --bare "$work/repos/origin.git"

p=$(make_repo prepush)
# The stage runs every time, as lefthook's and pre-commit's do: the verdict cache is off here, and
# measured on its own as prepush-cached (the same tree pushed again: a tag, a second remote).
printf 'cache: false\nstages:\n  unit:\n    run: "true"\n' > "$p/.prepush.yml"
(cd "$p" && git add -A && git commit --quiet -m init && prepush install >/dev/null)
d=$(make_repo prepush-dynamic)
cp "$p/.prepush.yml" "$d/.prepush.yml"
(cd "$d" && git add -A && git commit --quiet -m init && "$prepush_dynamic" install >/dev/null)

k=$(make_repo prepush-cached)
printf 'stages:\n  unit:\n    run: "true"\n' > "$k/.prepush.yml"
(cd "$k" && git add -A && git commit --quiet -m init && "$prepush" install >/dev/null)

l=$(make_repo lefthook)
printf 'pre-push:\n  commands:\n    noop:\n      run: "true"\n' > "$l/lefthook.yml"
(cd "$l" && git add -A && git commit --quiet -m init && lefthook install >/dev/null)

c=$(make_repo pre-commit)
cat > "$c/.pre-commit-config.yaml" <<'YAML'
repos:
  - repo: local
    hooks:
      - id: noop
        name: noop
        entry: "true"
        language: system
        pass_filenames: false
        always_run: true
        stages: [pre-push]
YAML
(cd "$c" && git add -A && git commit --quiet -m init && pre-commit install -t pre-push >/dev/null)

zeros=0000000000000000000000000000000000000000
for tool in prepush prepush-dynamic prepush-cached lefthook pre-commit; do
    dir="$work/repos/$tool"
    echo "refs/heads/main $(git -C "$dir" rev-parse HEAD) refs/heads/main $zeros" > "$work/$tool.stdin"
    # A failing hook would make the timing meaningless: check each passes once first.
    (cd "$dir" && .git/hooks/pre-push origin "$work/repos/origin.git" < "$work/$tool.stdin" >/dev/null 2>&1) \
        || { echo "the $tool hook failed; not timing it" >&2; exit 1; }
done

echo "== timing $runs runs each (after 5 warm-up runs)"
hyperfine --style basic --warmup 5 --runs "$runs" --export-json "$work/results.json" \
    -n prepush "cd $work/repos/prepush && .git/hooks/pre-push origin $work/repos/origin.git < $work/prepush.stdin" \
    -n prepush-dynamic "cd $work/repos/prepush-dynamic && .git/hooks/pre-push origin $work/repos/origin.git < $work/prepush-dynamic.stdin" \
    -n prepush-cached "cd $work/repos/prepush-cached && .git/hooks/pre-push origin $work/repos/origin.git < $work/prepush-cached.stdin" \
    -n lefthook "cd $work/repos/lefthook && .git/hooks/pre-push origin $work/repos/origin.git < $work/lefthook.stdin" \
    -n pre-commit "cd $work/repos/pre-commit && .git/hooks/pre-push origin $work/repos/origin.git < $work/pre-commit.stdin" \
    >/dev/null

python3 - "$work/results.json" <<'PY'
import json, sys
results = {r["command"]: r for r in json.load(open(sys.argv[1]))["results"]}
base = results["prepush"]["median"]
print(f"{'tool':<17}{'median ms':>10}{'mean ms':>10}{'min ms':>9}{'max ms':>9}{'vs prepush':>12}")
for name in ["prepush", "prepush-dynamic", "prepush-cached", "lefthook", "pre-commit"]:
    r = results[name]
    print(f"{name:<17}{r['median']*1000:>10.1f}{r['mean']*1000:>10.1f}{r['min']*1000:>9.1f}{r['max']*1000:>9.1f}{r['median']/base:>11.2f}x")
PY

# The same two hooks in alternated pairs (prepush, lefthook, prepush, …), so that a slow moment of the
# machine falls on both: the median of the per-pair ratios.
echo "== $runs alternated pairs, prepush then lefthook (after 5 warm-up pairs)"
python3 - "$work" "$runs" <<'PY'
import statistics, subprocess, sys, time
work, runs = sys.argv[1], int(sys.argv[2])
def once(tool):
    with open(f"{work}/{tool}.stdin", "rb") as stdin:
        start = time.perf_counter()
        subprocess.run([".git/hooks/pre-push", "origin", f"{work}/repos/origin.git"], cwd=f"{work}/repos/{tool}",
                       stdin=stdin, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
        return time.perf_counter() - start
for _ in range(5):
    once("prepush"); once("lefthook")
pairs = [(once("prepush"), once("lefthook")) for _ in range(runs)]
ratios = [p / l for p, l in pairs]
print(f"prepush median {statistics.median(p for p, _ in pairs)*1000:.1f} ms, lefthook median {statistics.median(l for _, l in pairs)*1000:.1f} ms, "
      f"median ratio {statistics.median(ratios):.2f}x (pairs where prepush was faster: {sum(r < 1 for r in ratios)} of {runs})")
PY

# Start-up alone: `prepush --version` beside `lefthook version`, and where the hook's time goes
# (perf's software clock; hardware counters are not offered on every machine).
echo "== --version, $runs runs each"
hyperfine --style basic --warmup 3 --runs "$runs" -N -n prepush "$prepush --version" -n lefthook "lefthook version" 2>&1 \
    | grep -E "^(Benchmark|  Time|  Range|    [0-9.]+ ± [0-9.]+ times faster)"
if command -v perf >/dev/null && [ "$(uname)" = Linux ]; then
    echo "== perf: the hook's top symbols over 100 runs (prepush's process only)"
    (cd "$work/repos/prepush" && perf record -q -o "$work/perf.data" -e cpu-clock -F 20000 -- \
        sh -c "for i in \$(seq 1 100); do .git/hooks/pre-push origin $work/repos/origin.git < $work/prepush.stdin >/dev/null; done" 2>/dev/null) \
        && perf report -i "$work/perf.data" --stdio --no-children --comm prepush --sort symbol 2>/dev/null | grep -E "^ +[0-9]" | head -12
fi
