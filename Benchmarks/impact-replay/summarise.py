#!/usr/bin/env python3
"""Tables for docs/selective-tests.md from mutants.sh and replay.py output.

Usage: summarise.py mutants OUT_DIR            (OUT of mutants.sh; MUTANTS as for mutants.sh)
       summarise.py replay TSV RESULTS_JSON   (a replay-every<K>.tsv; results.json of one full prepush run,
           whose per-test durations estimate the test time of a share of the tests)
"""
import json, os, re, statistics, sys

def pct(v, p):
    v = sorted(v); k = (len(v) - 1) * p / 100; f = int(k); c = min(f + 1, len(v) - 1)
    return v[f] + (v[c] - v[f]) * (k - f)

def mutants(out):
    muts = {}
    for l in open(os.environ.get('MUTANTS') or __file__.rsplit('/', 1)[0] + '/mutants.txt'):
        if l.startswith('#') or not l.strip(): continue
        i, f, n, b, a = l.rstrip('\n').split('|', 4); muts[i] = (f, n, b, a)
    rows = [l.rstrip('\n').split('\t') for l in open(out + '/results.tsv')][1:]
    total = next((l.split('\t')[3] for l in list(open(out + '/results.tsv'))[1:]), '?')
    print(f'| mutant | file:line (under Sources/) | before → after | tests chosen of {total} | selective run (stage time, build included) | failed tests | full `swift test` |')
    print('| --- | --- | --- | ---: | --- | ---: | --- |')
    for r in rows:
        i, site, sel, tot, sx, fx, secs = r
        f, n, b, a = muts[i]
        log = open(f'{out}/{i}.log').read()
        m = re.search(r'prepush: tests: (\d+) passed, (\d+) failed', log)
        failed = m.group(2) if m else '?'
        if re.search(r'more than one command can name', log): sel += ' (above 400: %s)' % re.search(r'selective: (\d+ of \d+ test targets)', log).group(1)
        st = re.search(r'unit: (?:failed \(exit \d+\) after|passed in) ([0-9.]+ s|[0-9]+ min [0-9]+ s)', log)
        verdict = ('refused (exit %s, ' % sx if sx != '0' else 'passed (') + (st.group(1) if st else '?') + ')'
        full = {'-': 'not needed', '0': 'passes: not killed, discarded'}.get(fx, f'fails (exit {fx}): **MISS**')
        if 'the build failed' in log:  # a mutant that does not compile kills nothing: it is no mutant
            verdict, failed, full = 'the build failed', '–', 'does not build: discarded'
        print(f'| {i} | `{f}:{n}` | `{b}` → `{a}` | {sel} | {verdict} | {failed} | {full} |')

def replay(tsv, results):
    runs = json.load(open(results))['tests']
    # Test time of the full run: XCTest runs one test after another; Swift Testing runs its tests in
    # parallel (each reports about the whole parallel run), so its part counts once.
    xc = sum(t['duration'] for t in runs if not t['name'].endswith(')'))
    st = max((t['duration'] for t in runs if t['name'].endswith(')')), default=0)
    full_time = xc + st
    rows = [l.rstrip('\n').split('\t') for l in open(tsv)][1:]
    share = {'tests': [], 'targets': [], 'full': []}
    kinds = {}
    for r in rows:
        c, p, mp, mt, tc, tt, tr, tn, gc, gt, gn = r
        mt = int(mt)
        # Target level: the chosen targets' tests in the map, of the map's tests.
        g = 100.0 if gc == 'all' else (0.0 if gc == '0' else 100 * int(gt) / mt)
        if tn == 'stage left out':
            t = 0.0; kind = 'nothing a test run reads: stage left out'
        elif tc == 'all':
            t = 100.0; kind = 'every test: ' + re.sub(r'^every test runs \((.*)\)$', r'\1', tn)
        elif 'their test targets run' in tn:  # neither the filters nor the skips fit one command
            t = g; kind = 'chosen from the map, too many for one command: their targets ran'
        else:
            t = 100 * int(tr) / int(tt)
            kind = 'chosen from the map' + (', run by skipping the others' if 'by skipping' in tn else '') + (', none: build only' if tc == '0' else '')
        kinds[kind] = kinds.get(kind, 0) + 1
        share['tests'].append(t); share['targets'].append(g); share['full'].append(100.0)
    print(f'{len(rows)} commits; full test time {full_time:.1f} s (XCTest {xc:.1f} s + Swift Testing {st:.1f} s, {len(runs)} tests)')
    print('| selection | median share of tests run | p90 | mean | estimated test time, median / p90 |')
    print('| --- | ---: | ---: | ---: | ---: |')
    for k in ('tests', 'targets', 'full'):
        v = share[k]
        print(f'| {k} | {statistics.median(v):.1f} % | {pct(v, 90):.1f} % | {statistics.mean(v):.1f} % | '
              f'{statistics.median(v) * full_time / 100:.1f} s / {pct(v, 90) * full_time / 100:.1f} s |')
    print('| what decided `selective: tests` | commits |'); print('| --- | ---: |')
    for k, n in sorted(kinds.items(), key=lambda x: -x[1]): print(f'| {k} | {n} |')

if __name__ == '__main__':
    mutants(sys.argv[2]) if sys.argv[1] == 'mutants' else replay(sys.argv[2], sys.argv[3])
