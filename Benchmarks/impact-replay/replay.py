#!/usr/bin/env python3
"""Replay a package's recent history as pushes and measure what `selective: tests` would run.

Usage: replay.py CLONE [--commits 100] [--every 0] [--out DIR] [--prepush PATH] [--wrap CMD]

CLONE is a git clone of the package (its working tree is checked out commit by commit and left
detached at the newest). For the last N first-parent commits of HEAD, oldest first, each commit is
"pushed" against its first parent with `prepush run --base PARENT`, once with `selective: tests`
and once with `selective: true` (test targets), each from a configuration file outside the
repository. The stage's `swift test` / `swift build` is a stub first on PATH (it prints its
arguments and exits 0), so no test runs: only the choice is read from prepush's own note
(`unit: selective: N of M tests (...)`, `... N of M test targets (A, B)`, `every test runs (why)`).
The stub's exit 0 makes the run itself refuse (chose N, ran 0): that verdict is ignored here.

The impact map is recorded (real `swift`, `prepush impact record`) at the commit before the first
replayed one, and, with --every K, again every K commits (at the parent of the commit replayed).

Writes OUT/replay-every<K>.tsv: commit, parent, tests mode (chosen, total, note), targets mode
(chosen targets, their test count per the map, note). Summarise with summarise.py.
"""
import argparse, json, os, re, sqlite3, subprocess, sys, time

ap = argparse.ArgumentParser()
ap.add_argument('clone'); ap.add_argument('--commits', type=int, default=100)
ap.add_argument('--every', type=int, default=0); ap.add_argument('--out', default='/work/eval-impact/replay')
ap.add_argument('--only', default='', help='comma-separated commit prefixes: replay only these (with --every 1: each with a map recorded at its parent)')
ap.add_argument('--prepush', default='prepush'); ap.add_argument('--wrap', default='')
ap.add_argument('--relabel', action='store_true', help='before each push, import the current map as if recorded on the pushed '
                'commit\'s parent (an estimate of a map per commit: line ranges are the older tree\'s; not a safe selection)')
ap.add_argument('--no-merges', action='store_true', help='the last N commits that are not merges, each against its '
                'parent (a history of merged branches, whose first-parent line is mostly merges), instead of the first-parent line')
ap.add_argument('--maps', default='', help='a folder of maps `impact export` wrote, map-<parent, 8 hex>.json: imported instead of recorded')
a = ap.parse_args()
os.makedirs(a.out, exist_ok=True)
wrap = a.wrap.split() if a.wrap else []

def git(*args):
    return subprocess.run(['git', '-C', a.clone, *args], check=True, capture_output=True, text=True).stdout.strip()

# Configuration files outside the repository (the config file is then no change of the tree).
cfg = {}
for mode in ('tests', 'true'):
    cfg[mode] = os.path.join(a.out, f'prepush-{mode}.yml')
    with open(cfg[mode], 'w') as f:
        f.write(f'stages:\n  unit:\n    run: swift test\n    timeout: 3600\n    selective: {mode}\n    impactMapAge: 100000\n')

# The stub: `swift test` / `swift build` print and succeed; anything else (package describe,
# --version) goes to the real swift.
real_swift = subprocess.run(['sh', '-c', 'command -v swift'], capture_output=True, text=True).stdout.strip()
stub_dir = os.path.join(a.out, 'stub-bin'); os.makedirs(stub_dir, exist_ok=True)
with open(os.path.join(stub_dir, 'swift'), 'w') as f:
    calls = os.path.join(a.out, 'stub-calls.log')  # commit and full arguments of every stubbed call
    f.write(f'#!/bin/sh\ncase "$1" in test|build) echo "$(git rev-parse --short=8 HEAD 2>/dev/null) $*" >> {calls}; '
            f'echo "[stub] swift $*" | cut -c1-300; exit 0;; esac\nexec {real_swift} "$@"\n')
os.chmod(os.path.join(stub_dir, 'swift'), 0o755)
stub_env = dict(os.environ, PATH=stub_dir + ':' + os.environ['PATH'])

commits = git('rev-list', '--no-merges' if a.no_merges else '--first-parent', '--reverse', '-n', str(a.commits), 'HEAD').split()
tip = commits[-1]
log = open(os.path.join(a.out, f'replay-every{a.every}.log'), 'a')

def run(cmd, env=None):
    t = time.time()
    p = subprocess.run(wrap + cmd, cwd=a.clone, env=env, capture_output=True, text=True)
    log.write(f'$ {" ".join(cmd)}  (exit {p.returncode}, {time.time()-t:.1f} s)\n{p.stdout}{p.stderr}\n'); log.flush()
    return p, time.time() - t

def record(at):
    git('checkout', '-q', '-f', '--detach', at)
    given = os.path.join(a.maps, f'map-{at[:8]}.json') if a.maps else ''
    for _ in range(180):  # a map record-maps.sh is still recording: wait for it (up to 30 min)
        if not given or os.path.exists(given): break
        time.sleep(10)
    if given and os.path.exists(given):
        # A map recorded before (record-maps.sh), the newest of the stage once imported.
        p, secs = run([a.prepush, 'impact', 'import', given])
        print(f'imported the map of {at[:8]}: exit {p.returncode}', flush=True)
        tests = json.load(open(given))['tests']
        return {t['identifier'].split('.')[0]: sum(1 for u in tests if u['identifier'].split('.')[0] == t['identifier'].split('.')[0]) for t in tests}
    p, secs = run([a.prepush, 'impact', 'record', '--config', cfg['tests']])
    subprocess.run(['git', '-C', a.clone, 'clean', '-qfd'], check=False)  # nothing should be there
    m = re.search(r'mapped (\d+) of (\d+) tests in ([^,]+),', p.stdout + p.stderr)
    exp = os.path.join(a.out, f'map-{at[:8]}.json')
    run([a.prepush, 'impact', 'export', exp])
    tests = json.load(open(exp))['tests']
    per_target = {}
    for t in tests:
        per_target[t['identifier'].split('.')[0]] = per_target.get(t['identifier'].split('.')[0], 0) + 1
    print(f'record at {at[:8]}: exit {p.returncode}, {m.group(0) if m else "?"}, {secs:.0f} s wall', flush=True)
    return per_target

res = open(os.path.join(a.out, f'replay-every{a.every}{"-only" if a.only else ""}{"-relabel" if a.relabel else ""}.tsv'), 'w')
res.write('commit\tparent\tmap\tmap_tests\ttests_chosen\ttests_total\ttests_ran\ttests_note\ttargets\ttarget_tests\ttargets_note\n')
per_target, map_at = None, None
for i, c in enumerate(commits):
    parent = git('rev-parse', c + '^1')
    if a.only and not any(c.startswith(o) for o in a.only.split(',')):
        continue
    if per_target is None or (a.every and i % a.every == 0):
        per_target, map_at = record(parent), parent
    if a.relabel:
        # What `impact import` of the map with its commit replaced stores, written straight into the
        # store: a debug build's import of a 1.5 MB map takes 20 s or more on a loaded machine.
        db = sqlite3.connect(os.path.join(a.clone, '.git', 'prepush', 'impact.sqlite'))
        ident, old, body = db.execute('SELECT id, commit_id, body FROM maps ORDER BY id DESC LIMIT 1').fetchone()
        db.execute('UPDATE maps SET commit_id = ?, body = ? WHERE id = ?', (parent, bytes(body).replace(old.encode(), parent.encode(), 1), ident))
        db.commit(); db.close()
    git('checkout', '-q', '-f', '--detach', c)
    row = [c[:8], parent[:8], map_at[:8] + ('→parent' if a.relabel else ''), str(sum(per_target.values()))]
    for mode in ('tests', 'true'):
        p, _ = run([a.prepush, 'run', '--base', parent, '--config', cfg[mode], '--reports-dir',
                    os.path.join(a.out, 'reports'), '--skip-ui-tests'], env=stub_env)
        out = p.stdout + p.stderr
        notes = [l.split('unit: selective: ', 1)[1] for l in out.splitlines() if 'unit: selective: ' in l]
        note = notes[0] if notes else ('stage left out' if 'unit' not in out or 'skipped' in out else 'no note')
        if mode == 'tests':
            m = re.match(r'(\d+) of (\d+) tests', note)
            skipped = re.search(r'by skipping the (\d+) others', note)
            # What runs: the chosen tests, or with --skip every test but the skipped ones.
            ran = str(int(m.group(2)) - int(skipped.group(1))) if m and skipped else (m.group(1) if m else '')
            row += [m.group(1), m.group(2), ran] if m else ['all' if 'every test runs' in note else ('0' if notes == [] else '?'), '', '']
            row.append(note[:200])
        else:
            m = re.match(r'(\d+) of (\d+) test targets \(([^)]*)\)', note)
            if m:
                names = [n.strip() for n in m.group(3).replace(' and ', ', ').split(',') if n.strip()]
                row += [str(len(names)), str(sum(per_target.get(n, 0) for n in names))]
            elif 'no test target depends' in note or note == 'stage left out':
                row += ['0', '0']
            else:
                row += ['all' if 'every test runs' in note else '?', '']
            row.append(note[:200])
    res.write('\t'.join(row) + '\n'); res.flush()
    print('\t'.join(row), flush=True)
git('checkout', '-q', '-f', '--detach', tip)
