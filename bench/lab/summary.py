#!/usr/bin/env python3
"""Summarises bench/lab/discrepancy.ts results: per router arm, the added p50 against the bare SDK on
the same upstream (median [IQR] of per-round differences), over every round, over the quiet rounds
(other processes took < 10% of core 1), and per mode when rounds alternate a loop shape or the hog.
Usage: python3 bench/lab/summary.py OUTDIR/*.json"""
import json, sys

def q(xs, p):
    xs = sorted(xs)
    if not xs:
        return float('nan')
    k = (len(xs) - 1) * p
    f = int(k)
    c = min(f + 1, len(xs) - 1)
    return xs[f] + (xs[c] - xs[f]) * (k - f)

def fmt(xs):
    return f"{q(xs, .5):7.1f} [{q(xs, .25):.1f}..{q(xs, .75):.1f}] n={len(xs)}"

def pair(a):
    return 'direct@' + (a.split('@')[1] if '@' in a else 'sim')

for fn in sys.argv[1:]:
    try:
        d = json.load(open(fn))
    except Exception as e:
        print(fn, 'ERR', e)
        continue
    pr, fo = d['perRound'], d['foreign']
    modes = d.get('mode') or [{}] * len(pr)
    keys = sorted({json.dumps(m, sort_keys=True) for m in modes})
    quiet = [i for i, x in enumerate(fo) if x['share'] < 0.10]
    print(f"{fn.split('/')[-1]}: {len(pr)} rounds, quiet {len(quiet)}, other processes' share of core 1 median {q([x['share'] for x in fo], .5):.0%}")
    for a in pr[0]:
        if a.startswith('direct') or pair(a) not in pr[0]:
            continue
        diff = [r[a]['p50'] - r[pair(a)]['p50'] for r in pr]
        line = f"   {a:34s} added p50 {fmt(diff)}   quiet {fmt([diff[i] for i in quiet])}"
        if len(keys) > 1:
            for k in keys:
                line += f"   {k}: {fmt([diff[i] for i, m in enumerate(modes) if json.dumps(m, sort_keys=True) == k])}"
        print(line)
    for a in pr[0]:
        if a.startswith('direct'):
            arm = d['arms'][a]
            print(f"   {a:34s} p50 {q([r[a]['p50'] for r in pr], .5):.0f} µs, process CPU {arm['cpuMean']:.0f} µs/call, sleeps {arm.get('sleepsPerCall', float('nan')):.2f}/call")
    for a in pr[0]:
        if not a.startswith('direct'):
            arm = d['arms'][a]
            da = d['arms'].get(pair(a))
            if da:
                print(f"   {a:34s} CPU over SDK {arm['cpuMean'] - da['cpuMean']:+.0f} µs/call (mean), sleeps {arm.get('sleepsPerCall', float('nan')):.2f}/call, GC {arm['gcMsPerCall']*1000:.1f} µs/call vs SDK {da['gcMsPerCall']*1000:.1f}")
