#!/usr/bin/env python3
"""Summarises bench/lab/discrepancy.ts results: per router arm, the added p50 against the bare SDK on
the same upstream, over every round and over the quiet rounds only (other processes took < 10% of
core 1). Usage: python3 bench/lab/summary.py OUTDIR/*.json"""
import json,sys,statistics as st
def q(xs,p):
    xs=sorted(xs); 
    if not xs: return float('nan')
    k=(len(xs)-1)*p; f=int(k); c=min(f+1,len(xs)-1); return xs[f]+(xs[c]-xs[f])*(k-f)
for fn in sys.argv[1:]:
    try: d=json.load(open(fn))
    except Exception as e: print(fn, 'ERR', e); continue
    pr=d['perRound']; fo=d['foreign']
    quiet=[i for i,x in enumerate(fo) if x['share']<0.10]
    print(f"{fn.split('/')[-1]}: quiet rounds {len(quiet)}/{len(pr)}")
    arms=list(pr[0].keys())
    for a in arms:
        if a.startswith('direct'): continue
        d_=  'direct@'+(a.split('@')[1] if '@' in a else 'sim')
        if d_ not in pr[0]: continue
        allr=[r[a]['p50']-r[d_]['p50'] for r in pr]
        qr=[pr[i][a]['p50']-pr[i][d_]['p50'] for i in quiet]
        print(f"   {a:28s} added p50 all {q(allr,.5):7.1f} [{q(allr,.25):.1f}..{q(allr,.75):.1f}]   quiet {q(qr,.5):7.1f} [{q(qr,.25):.1f}..{q(qr,.75):.1f}]  per-round {' '.join('%.0f'%x for x in allr)}")
    for a in arms:
        if a.startswith('direct'):
            print(f"   {a:28s} p50 all {q([r[a]['p50'] for r in pr],.5):.0f} quiet {q([pr[i][a]['p50'] for i in quiet],.5):.0f}")
