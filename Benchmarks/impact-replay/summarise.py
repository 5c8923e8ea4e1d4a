#!/usr/bin/env python3
"""Tables for docs/selective-tests.md from mutants.sh and replay.py output.

Usage: summarise.py mutants OUT_DIR            (OUT of mutants.sh)
       summarise.py replay TSV RESULTS_JSON    (a replay-every<K>.tsv; results.json of one full prepush run)
"""
import json, re, statistics, sys

def pct(v, p):
    v = sorted(v); k = (len(v) - 1) * p / 100; f = int(k); c = min(f + 1, len(v) - 1)
    return v[f] + (v[c] - v[f]) * (k - f)

def mutants(out):
    muts = {}
    for l in open(__file__.rsplit('/', 1)[0] + '/mutants.txt'):
        if l.startswith('#') or not l.strip(): continue
        i, f, n, b, a = l.rstrip('\n').split('|'); muts[i] = (f, n, b, a)
    rows = [l.rstrip('\n').split('\t') for l in open(out + '/results.tsv')][1:]
    print('| mutant | file:line | before → after | tests chosen of 549 | selective run | failed tests | full `swift test` |')
    print('| --- | --- | --- | ---: | --- | ---: | --- |')
    for r in rows:
        i, site, sel, tot, sx, fx, secs = r
        f, n, b, a = muts[i]
        log = open(f'{out}/{i}.log').read()
        m = re.search(r'prepush: tests: (\d+) passed, (\d+) failed', log)
        failed = m.group(2) if m else '?'
        if 'test targets' in log and re.search(r'more than one command can name', log): sel += ' (their targets ran)'
        verdict = 'refused (exit %s)' % sx if sx != '0' else 'passed'
        full = {'-': 'not needed', '0': 'passes: not killed, discarded'}.get(fx, f'fails (exit {fx}): **MISS**')
        print(f'| {i} | `{f.split("/", 1)[1]}:{n}` | `{b}` → `{a}` | {sel} | {verdict} | {failed} | {full} |')

def replay(tsv, results):
    runs = json.load(open(results))['tests']
    dur = {t['testIdentifier']: t['duration'] for t in runs}
    rows = [l.rstrip('\n').split('\t') for l in open(tsv)][1:]
    total = 549
    share = {'tests': [], 'targets': [], 'full': []}
    falls = []
    for r in rows:
        c, p, mp, tc, tt, tn, gc, gt, gn = r
        t = total if tc == 'all' else int(tc) if tc.isdigit() else None
        g = total if gc == 'all' else int(gt) if gt.isdigit() else None
        if tc == 'all' or '?' in (tc,): falls.append((c, tn))
        if t is None or g is None: continue
        share['tests'].append(100 * t / total); share['targets'].append(100 * g / total); share['full'].append(100.0)
    print(f'{len(share["tests"])} commits')
    print('| selection | median share of tests run | p90 | mean |')
    print('| --- | ---: | ---: | ---: |')
    for k in ('tests', 'targets', 'full'):
        v = share[k]; print(f'| {k} | {statistics.median(v):.1f} % | {pct(v, 90):.1f} % | {statistics.mean(v):.1f} % |')
    print('fallbacks:'); [print(' ', c, n) for c, n in falls]

if __name__ == '__main__':
    mutants(sys.argv[2]) if sys.argv[1] == 'mutants' else replay(sys.argv[2], sys.argv[3])
