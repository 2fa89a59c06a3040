import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PerformanceObserver } from 'node:perf_hooks';
import { UNLIMITED_SIM, makeArm, type Arm, type ArmSpec } from '../lib/arms.js';
import { foreignLoad } from '../lib/contention.js';
import { num, pct, withIqr } from '../lib/format.js';
import { closedLoop, interleaved, mixedClosedLoop, sequential } from '../lib/load.js';
import { balancedOrder, compare, comparisonColumns, comparisonRow, formatInterval, roundsBrief, roundsLine, roundsUntilTight, type Comparison, type StoppingRule } from '../lib/noise.js';
import { nextMessage, spawnNode } from '../lib/node-child.js';
import { plainUpstream, type Placement, type PlainUpstream } from '../lib/plain-upstream.js';
import type { Breakdown } from '../lib/profile.js';
import { request } from '../lib/prompts.js';
import { check, overBy, type ScenarioReport, type TargetCheck } from '../lib/report.js';
import type { BenchContext, BenchScenario } from '../lib/scenario.js';
import { SimProcess } from '../lib/sim-process.js';
import { mean, median, quantile, spread, type Spread } from '../lib/stats.js';
import type { ProbeInput, ProbeOutput } from './overhead-probe.js';

interface Round {
  p50: number;
  p99: number;
}

interface C20Round {
  rps: number;
  cpuUsPerCall: number;
  p50: number;
  p99: number;
  errors: number;
  /** GC pause time inside this arm's window, ms per second of window. */
  gcMsPerSec: number;
}

interface MixedRound {
  p50: number;
  p99: number;
  meanUs: number;
  /** Completed calls of this arm per second of the shared loop. */
  rps: number;
  errors: number;
}

function rotate<T>(xs: readonly T[], k: number): T[] {
  return xs.map((_, i) => xs[(i + k) % xs.length]!);
}

/**
 * How many rounds of c=1 and c=20: pairs of rounds (ABBA) until the tracked intervals (c=1 p50, c=20
 * throughput and CPU a call, of the router now against the baseline and of the A/A twin) are 3% wide.
 */
function stoppingRule(ctx: BenchContext): StoppingRule {
  const defaults: StoppingRule = ctx.quick ? { width: 0.03, minRounds: 2, maxRounds: 2, maxMs: 60_000 } : { width: 0.03, minRounds: 6, maxRounds: 30, maxMs: 6 * 60_000 };
  return Object.assign(defaults, ctx.stopping);
}

async function probe(input: ProbeInput): Promise<ProbeOutput> {
  const child = spawnNode(new URL('./overhead-probe.ts', import.meta.url), {
    role: 'client',
    nodeFlags: ['--expose-gc', '--min-semi-space-size=64', '--max-semi-space-size=64'],
  });
  child.send(input);
  const msg = await nextMessage<{ out: ProbeOutput }>(child, (m) => m.type === 'result', 600_000);
  return msg.out;
}

function topLines(b: Breakdown | undefined, unit: string, n = 8): string {
  if (!b) return 'n/a';
  return b.topOwn.slice(0, n).map((f) => `${f.fn} ${num(f.perCall)} ${unit}`).join('; ');
}

/** GC pauses of this process (PerformanceObserver "gc"), to tell which arm's window a collection landed in. */
function gcMeter() {
  const entries: Array<{ at: number; ms: number }> = [];
  const obs = new PerformanceObserver((list) => {
    for (const e of list.getEntries()) entries.push({ at: e.startTime, ms: e.duration });
  });
  obs.observe({ entryTypes: ['gc'] });
  return {
    /** GC ms that started in [t0, t1). Entries arrive a tick late: read after an await. */
    between: (t0: number, t1: number) => entries.reduce((s, e) => (e.at >= t0 && e.at < t1 ? s + e.ms : s), 0),
    stop: () => obs.disconnect(),
  };
}

/**
 * The arms: the bare SDK, the router of `--baseline-ref` (if given), the A/A twin of the comparisons'
 * baseline (a second router of `--baseline-ref`, or without it a second bare SDK: same code, its own
 * instance, measured like every arm), the router now (working tree or `--ref-now`) on its default
 * transport (node:http), and the router now on the SDK's own fetch: the like-for-like figure of what the
 * router adds to the SDK, transport aside.
 */
export function overheadArms(ctx: BenchContext): ArmSpec[] {
  const { now, before, beforeTwin } = ctx.sources;
  const nowName = now.ref ? `now: ${now.label}` : 'now';
  // The twin imports its own copy of REF's modules (a second folder), as now and before are two copies.
  const twin: ArmSpec = before
    ? { name: 'before-aa', label: `router (before: ${before.label}), A/A twin`, kind: 'router', root: (beforeTwin ?? before).root }
    : { name: 'direct-aa', label: 'bare SDK, A/A twin', kind: 'sdk' };
  return [
    { name: 'direct', label: 'bare SDK (maxRetries 0)', kind: 'sdk' },
    ...(before ? [{ name: 'before', label: `router (before: ${before.label})`, kind: 'router', root: before.root } as const] : []),
    twin,
    { name: 'router', label: `router (${nowName}, tokenizer: auto)`, kind: 'router', root: now.root },
    { name: 'router-fetch', label: `router (${nowName}, transport: fetch, as the bare SDK)`, kind: 'router', root: now.root, transport: 'fetch' },
  ];
}

export const overhead: BenchScenario = {
  name: 'overhead',
  title: '1. Overhead: router.chat against the bare openai SDK (zero-latency simulator)',
  async run(ctx: BenchContext): Promise<ScenarioReport> {
    const q = ctx.quick;
    const rule = stoppingRule(ctx);
    const seqCalls = q ? 30 : 800;
    const c20Ms = q ? 150 : 1500;
    const warmup = q ? 30 : 600;
    const plainRounds = q ? 1 : 7;
    const plainCalls = q ? 20 : 800;
    const specs = overheadArms(ctx);
    const ARMS = specs.map((s) => s.name);
    const ROUTERS = ARMS.slice(1);
    const LABEL = Object.fromEntries(specs.map((s) => [s.name, s.label])) as Record<string, string>;
    const hasBefore = ARMS.includes('before');
    // What each comparison is against, its A/A twin, and the arms compared with it.
    const BASE = hasBefore ? 'before' : 'direct';
    const TWIN = hasBefore ? 'before-aa' : 'direct-aa';
    const CANDIDATES = hasBefore ? ['router'] : ['router', 'router-fetch'];

    const sim = await SimProcess.launch({ seed: 7, providers: { primary: { type: 'openai', limits: UNLIMITED_SIM }, secondary: { type: 'openai', limits: UNLIMITED_SIM } } });
    const baseURLs = { primary: sim.baseURL('primary'), secondary: sim.baseURL('secondary') };
    const req = request('Say hello in one short sentence, please.', 64);
    const built: Arm[] = [];
    const plain: Partial<Record<Placement, { upstream: PlainUpstream; arms: Arm[] }>> = {};
    const gc = gcMeter();

    try {
      for (const spec of specs) built.push(await makeArm(spec, baseURLs, req));
      const fns: Record<string, () => Promise<unknown>> = Object.fromEntries(built.map((a) => [a.spec.name, a.call]));

      ctx.log(`overhead: warm-up ${warmup} calls per arm (${ARMS.join(', ')})`);
      for (const arm of ARMS) {
        await sequential(warmup, fns[arm]!);
        await closedLoop(20, q ? 50 : 500, fns[arm]!);
      }

      const seq: Record<string, Round[]> = Object.fromEntries(ARMS.map((a) => [a, []]));
      const c20: Record<string, C20Round[]> = Object.fromEntries(ARMS.map((a) => [a, []]));
      const mixed: Record<string, MixedRound[]> = Object.fromEntries(ARMS.map((a) => [a, []]));
      // Share of the client's core taken by other processes in each c=1 round (pinned runs only).
      const foreign: number[] = [];
      // The intervals the stopping rule waits for: the main candidate against the baseline, and the A/A.
      const tracked = () => [
        compare('', 'lower', seq[CANDIDATES[0]!]!.map((x) => x.p50), seq[BASE]!.map((x) => x.p50), seq[TWIN]!.map((x) => x.p50), rule.width),
        compare('', 'higher', c20[CANDIDATES[0]!]!.map((x) => x.rps), c20[BASE]!.map((x) => x.rps), c20[TWIN]!.map((x) => x.rps), rule.width),
        compare('', 'lower', c20[CANDIDATES[0]!]!.map((x) => x.cpuUsPerCall), c20[BASE]!.map((x) => x.cpuUsPerCall), c20[TWIN]!.map((x) => x.cpuUsPerCall), rule.width),
      ].flatMap((c) => [c.cmp, c.aa]);
      const roundOf = async (r: number) => {
        const widths = r >= 2 ? ` (widest interval so far ${(Math.max(...tracked().map((i) => i.width)) * 100).toFixed(1)}%)` : '';
        ctx.log(`overhead: round ${r + 1} (at least ${rule.minRounds}, at most ${rule.maxRounds})${widths}`);
        // Call by call: direct, router, router-fetch, direct, ... so drift hits every arm alike. The
        // order is balanced across rounds (ABBA): each two arms run in each order equally often.
        const order = balancedOrder(ARMS, r);
        const load = foreignLoad('1');
        const lat = await interleaved(seqCalls, order.map((arm) => [arm, fns[arm]!] as const));
        foreign.push(load().share);
        for (const arm of ARMS) seq[arm]!.push({ p50: quantile(lat[arm]!, 0.5), p99: quantile(lat[arm]!, 0.99) });
        // c=20, one arm at a time (each its own window, CPU and GC), in the round's order.
        for (const arm of order) {
          const t0 = performance.now();
          const res = await closedLoop(20, c20Ms, fns[arm]!);
          const t1 = performance.now();
          await new Promise((res) => setImmediate(res));
          c20[arm]!.push({
            rps: (res.completed / res.elapsedMs) * 1000, cpuUsPerCall: res.cpuUs / Math.max(1, res.completed + res.errors),
            p50: quantile(res.latenciesUs, 0.5), p99: quantile(res.latenciesUs, 0.99), errors: res.errors,
            gcMsPerSec: gc.between(t0, t1) / ((t1 - t0) / 1000),
          });
        }
        // c=20, every arm in one loop, worker by worker taking the arms in turn (same load, GC, event loop).
        const mix = await mixedClosedLoop(20, c20Ms * ARMS.length, order.map((arm) => [arm, fns[arm]!] as const));
        for (const arm of ARMS) {
          const m = mix.arms[arm]!;
          mixed[arm]!.push({
            p50: quantile(m.latenciesUs, 0.5), p99: quantile(m.latenciesUs, 0.99), meanUs: mean(m.latenciesUs),
            rps: (m.completed / mix.elapsedMs) * 1000, errors: m.errors,
          });
        }
      };
      const stopped = await roundsUntilTight(rule, roundOf, tracked, () => performance.now());
      const rounds = stopped.rounds;
      ctx.log(`overhead: ${roundsLine(stopped, rule)}`);

      // c=1 against a plain node:http upstream (no simulator, no rate-limit headers), in this process and in a child.
      const placements: Placement[] = ['separate process', 'in-process'];
      for (const placement of placements) {
        const upstream = await plainUpstream(placement);
        const urls = { primary: upstream.baseURL, secondary: upstream.baseURL };
        const arms: Arm[] = [];
        for (const spec of specs) arms.push(await makeArm(spec, urls, req));
        plain[placement] = { upstream, arms };
        for (const a of arms) await sequential(q ? 10 : 200, a.call);
      }
      const plainSeq: Record<Placement, Record<string, Round[]>> = {
        'separate process': Object.fromEntries(ARMS.map((a) => [a, []])),
        'in-process': Object.fromEntries(ARMS.map((a) => [a, []])),
      };
      for (let r = 0; r < plainRounds; r++) {
        ctx.log(`overhead: plain upstream, c=1, round ${r + 1}/${plainRounds}`);
        for (const placement of rotate(placements, r)) {
          const arms = plain[placement]!.arms;
          const lat = await interleaved(plainCalls, balancedOrder(arms, r).map((a) => [a.spec.name, a.call] as const));
          for (const arm of ARMS) plainSeq[placement][arm]!.push({ p50: quantile(lat[arm]!, 0.5), p99: quantile(lat[arm]!, 0.99) });
        }
      }
      for (const p of Object.values(plain)) {
        for (const a of p!.arms) await a.close();
        await p!.upstream.close();
      }
      delete plain['in-process'];
      delete plain['separate process'];

      // The BerriAI rule: a round whose direct p99 is more than twice the direct floor was disturbed.
      const floorP99 = Math.min(...seq.direct!.map((x) => x.p99));
      const noisy = seq.direct!.map((x) => x.p99 > 2 * floorP99);
      const keep = noisy.filter((n) => !n).length >= 3 ? noisy.map((n) => !n) : noisy.map(() => true);
      const kept = <T>(xs: T[]) => xs.filter((_, i) => keep[i]);
      const added = (arm: string, k: keyof Round) => spread(kept(seq[arm]!.map((x, i) => x[k] - seq.direct![i]![k])));
      const ratio = (arm: string) => spread(c20[arm]!.map((x, i) => x.rps / c20.direct![i]!.rps));
      const cpuExtra = (arm: string) => spread(c20[arm]!.map((x, i) => x.cpuUsPerCall - c20.direct![i]!.cpuUsPerCall));
      const sdkCpu = median(c20.direct!.map((x) => x.cpuUsPerCall));
      const plainAdded = (p: Placement, arm: string, k: keyof Round) => spread(plainSeq[p][arm]!.map((x, i) => x[k] - plainSeq[p].direct![i]![k]));
      const mixedAdded = (arm: string, k: 'p50' | 'p99') => spread(mixed[arm]!.map((x, i) => x[k] - mixed.direct![i]![k]));
      // In a loop where every worker takes the arms in turn, each arm completes the same number of calls
      // by construction; what differs is the time a call holds a worker. Little's law (X = N / R) turns
      // that into the throughput all 20 workers would reach on this arm alone, as a ratio to the SDK's.
      const mixedRatio = (arm: string) => spread(mixed[arm]!.map((x, i) => mixed.direct![i]!.meanUs / x.meanUs));

      ctx.log('overhead: heap bytes per call and profiles (child process, --expose-gc, 64 MB semi-space)');
      const probed = await probe({
        baseURLs, arms: specs, warmup: q ? 30 : 500, trials: q ? 2 : 12, callsPerTrial: q ? 30 : 200, profileCalls: q ? 0 : 3000, profileSkip: [TWIN],
      });
      const alloc = (arm: string) => spread(probed.allocBytes[arm] ?? []);
      const addedAlloc = (arm: string) => alloc(arm).median - alloc('direct').median;
      if (probed.cpu) writeFileSync(join(ctx.outDir, 'overhead-profile-breakdown.json'), JSON.stringify({ arms: specs, cpu: probed.cpu, alloc: probed.alloc }, null, 2));

      const blank = [''];
      const rows: string[][] = [
        ['c=1 p50 latency (µs), median of rounds', ...ARMS.map((a) => withIqr(spread(kept(seq[a]!.map((x) => x.p50))), 0))],
        ['c=1 p99 latency (µs), median of rounds', ...ARMS.map((a) => withIqr(spread(kept(seq[a]!.map((x) => x.p99))), 0))],
        ['added p50 vs bare SDK (µs)', ...blank, ...ROUTERS.map((a) => withIqr(added(a, 'p50'), 1))],
        ['added p99 vs bare SDK (µs)', ...blank, ...ROUTERS.map((a) => withIqr(added(a, 'p99'), 1))],
        ['c=20 throughput (req/s)', ...ARMS.map((a) => withIqr(spread(c20[a]!.map((x) => x.rps)), 0))],
        ['throughput ratio to bare SDK', '1', ...ROUTERS.map((a) => withIqr(ratio(a), 3))],
        ['c=20 p99 latency (µs)', ...ARMS.map((a) => withIqr(spread(c20[a]!.map((x) => x.p99)), 0))],
        ['CPU per call (µs, user+sys, c=20)', ...ARMS.map((a) => withIqr(spread(c20[a]!.map((x) => x.cpuUsPerCall)), 0))],
        ['router CPU over bare SDK (µs/call)', ...blank, ...ROUTERS.map((a) => withIqr(cpuExtra(a), 0))],
        ['router CPU as share of the SDK\'s', ...blank, ...ROUTERS.map((a) => pct(cpuExtra(a).median / sdkCpu))],
        ['GC pauses in the arm\'s c=20 window (ms/s)', ...ARMS.map((a) => withIqr(spread(c20[a]!.map((x) => x.gcMsPerSec)), 1))],
        ['heap allocated per call (bytes)', ...ARMS.map((a) => withIqr(alloc(a), 0))],
        ['heap allocated over bare SDK (bytes/call)', ...blank, ...ROUTERS.map((a) => num(addedAlloc(a), 0))],
      ];
      const interleavedRows: string[][] = [
        ['c=20 mixed loop: p50 latency (µs)', ...ARMS.map((a) => withIqr(spread(mixed[a]!.map((x) => x.p50)), 0))],
        ['c=20 mixed loop: p99 latency (µs)', ...ARMS.map((a) => withIqr(spread(mixed[a]!.map((x) => x.p99)), 0))],
        ['c=20 mixed loop: added p50 vs bare SDK (µs)', ...blank, ...ROUTERS.map((a) => withIqr(mixedAdded(a, 'p50'), 1))],
        ['c=20 mixed loop: completed calls/s of the arm', ...ARMS.map((a) => withIqr(spread(mixed[a]!.map((x) => x.rps)), 0))],
        ['c=20 mixed loop: throughput ratio (SDK mean latency ÷ arm\'s)', '1', ...ROUTERS.map((a) => withIqr(mixedRatio(a), 3))],
        ...placements.flatMap((p) => [
          [`plain upstream (${p}), c=1: p50 (µs)`, ...ARMS.map((a) => withIqr(spread(plainSeq[p][a]!.map((x) => x.p50)), 0))],
          [`plain upstream (${p}), c=1: added p50 (µs)`, ...blank, ...ROUTERS.map((a) => withIqr(plainAdded(p, a, 'p50'), 1))],
          [`plain upstream (${p}), c=1: added p99 (µs)`, ...blank, ...ROUTERS.map((a) => withIqr(plainAdded(p, a, 'p99'), 1))],
        ]),
      ];

      const tables = [
        { columns: ['metric', ...ARMS.map((a) => LABEL[a]!)], rows },
        { title: 'The interleaved method: c=20 with the arms mixed in one loop (simulator), and c=1 against a plain node:http upstream', columns: ['metric', ...ARMS.map((a) => LABEL[a]!)], rows: interleavedRows },
      ];
      // Every comparison: per-round ratios against the baseline (the router before, or the bare SDK), with
      // the A/A twin's beside it (bench/lib/noise.ts). Heap bytes pair the probe's trials (both arms clean).
      const baseLabel = hasBefore ? 'before' : 'bare SDK';
      const comparisons = (arm: string): Comparison[] => {
        const who = CANDIDATES.length > 1 ? `${LABEL[arm]}: ` : '';
        const of = <T>(xs: Record<string, T[]>, k: keyof T, better: 'lower' | 'higher', metric: string) =>
          compare(`${who}${metric}`, better, xs[arm]!.map((x) => x[k] as number), xs[BASE]!.map((x) => x[k] as number), xs[TWIN]!.map((x) => x[k] as number), rule.width);
        const heap = (a: string) => probed.allocByTrial?.[a]?.map((x) => x ?? Number.NaN) ?? [];
        return [
          of(seq, 'p50', 'lower', 'c=1 p50'),
          of(seq, 'p99', 'lower', 'c=1 p99'),
          of(c20, 'rps', 'higher', 'c=20 throughput'),
          of(c20, 'cpuUsPerCall', 'lower', 'CPU per call (c=20)'),
          of(c20, 'p99', 'lower', 'c=20 p99'),
          compare(`${who}heap allocated per call`, 'lower', heap(arm), heap(BASE), heap(TWIN), rule.width),
        ];
      };
      const compared = Object.fromEntries(CANDIDATES.map((a) => [a, comparisons(a)]));
      tables.push({
        title: hasBefore
          ? `Router now against router before (${ctx.sources.before!.label}), same run: per-round ratios with the A/A twin beside each (${roundsBrief(stopped)})`
          : `Against the bare SDK, same run: per-round ratios with the A/A twin (a second bare SDK) beside each (${roundsBrief(stopped)})`,
        columns: comparisonColumns({ cmp: hasBefore ? 'now ÷ before' : `arm ÷ ${baseLabel}`, aa: `A/A: ${baseLabel} twin ÷ ${baseLabel}` }),
        rows: CANDIDATES.flatMap((a) => compared[a]!.map(comparisonRow)),
      });

      const main = 'router';
      const a50 = added(main, 'p50').median;
      const a99 = added(main, 'p99').median;
      const tr = ratio(main).median;
      const cpuShare = cpuExtra(main).median / sdkCpu;
      const allocAdd = addedAlloc(main);
      const targets: TargetCheck[] = [
        check('added p50 at c=1 (router)', '≤ 20 µs', `${num(a50, 1)} µs`, a50 <= 20, overBy(a50, 20, 'µs')),
        check('added p99 at c=1 (router)', '≤ 100 µs', `${num(a99, 1)} µs`, a99 <= 100, overBy(a99, 100, 'µs')),
        check('throughput at c=20 (router)', '≥ 0.97x bare SDK', `${num(tr, 3)}x`, tr >= 0.97, `${((0.97 - tr) * 100).toFixed(1)} points under`),
        check('router CPU per call (router)', '≤ 5% of the SDK\'s own', pct(cpuShare), cpuShare <= 0.05, `${((cpuShare - 0.05) * 100).toFixed(1)} points over (${(cpuShare / 0.05).toFixed(1)}x)`),
        check('heap allocated per call (router)', '≤ 2 KB (2048 B)', `${num(allocAdd, 0)} B`, allocAdd <= 2048, overBy(allocAdd, 2048, 'B', 0)),
        check('added p50 at c=1 (router on the SDK\'s fetch: like for like)', '≤ 20 µs', `${num(added('router-fetch', 'p50').median, 1)} µs`, added('router-fetch', 'p50').median <= 20, overBy(added('router-fetch', 'p50').median, 20, 'µs')),
      ];
      const mr = mixedRatio(main).median;
      targets.push(check('throughput at c=20, mixed loop (router)', '≥ 0.97x bare SDK', `${num(mr, 3)}x`, mr >= 0.97, `${((0.97 - mr) * 100).toFixed(1)} points under`));
      for (const p of placements) {
        const v = plainAdded(p, main, 'p50').median;
        targets.push(check(`added p50 at c=1, plain upstream ${p} (router)`, '≤ 20 µs', `${num(v, 1)} µs`, v <= 20, overBy(v, 20, 'µs')));
      }
      if (hasBefore) {
        // "No figure may get worse": now against before, beyond the A/A interval of the same run.
        for (const c of compared.router!.filter((x) => !x.metric.includes('p99'))) {
          targets.push(check(`${c.metric}, now vs before`, 'not worse beyond its A/A interval', `${formatInterval(c.cmp)} (A/A ${formatInterval(c.aa)})`,
            c.verdict !== 'worse beyond noise', `worse beyond noise${c.tight ? '' : ' (interval wider than the rule\'s)'}`));
        }
      }

      const notes: string[] = [];
      notes.push(`Comparisons (the ratio table): ${roundsLine(stopped, rule)} A ratio is per round (the arms of a round share the machine's state), its interval the 95% t-interval of the rounds' log ratios; the A/A line is the twin of the baseline (${LABEL[TWIN]}) against the baseline, measured the same way in the same rounds: the noise floor. A verdict says "beyond noise" only when the interval excludes 1 and lies wholly outside the A/A interval (bench/README.md, "Change or noise").`);
      const errors = ARMS.map((a) => [a, c20[a]!.reduce((n, x) => n + x.errors, 0) + mixed[a]!.reduce((n, x) => n + x.errors, 0)] as const).filter(([, n]) => n > 0);
      if (errors.length) notes.push(`**Calls failed during the c=20 runs, which invalidates them**: ${errors.map(([a, n]) => `${a} ${n}`).join(', ')}.`);
      const dropped = keep.filter((k) => !k).length;
      if (dropped) notes.push(`${dropped} of ${rounds} c=1 rounds dropped: the bare SDK's p99 exceeded 2x its floor (${num(floorP99, 0)} µs) in them.`);
      if (seq.direct!.some((x) => x.p99 > 35_000)) notes.push('A c=1 p99 above 35 ms was seen: check for a ~40 ms Nagle/delayed-ACK mode.');
      const pinned = process.env.BENCH_PIN === '1';
      const busy = median(foreign);
      if (pinned) {
        notes.push(`Other processes took ${pct(busy, 0)} of the client's core (core 1) during the median c=1 round (per round: ${foreign.map((x) => pct(x, 0)).join(', ')}).${busy > 0.1 ? ' **That is more than 10%: the machine was busy, and a busy core stretches the router\'s extra CPU into more added latency than a quiet one shows (bench/README.md); re-run on a quiet machine before quoting these figures.**' : ''}`);
      }
      notes.push('In the mixed c=20 loop every worker takes the arms in turn, so each arm completes the same number of calls by construction (the "completed calls/s" row); its throughput ratio is the SDK\'s mean latency over the arm\'s (Little\'s law, X = N / R): the throughput 20 workers would reach on that arm, under the shared load. Why it and the plain-upstream figures differ from the rows above: bench/README.md, "Why the interleaved figures differ".');
      if (probed.cpu) {
        const cpuCats = (arm: string) => probed.cpu![arm]!.byCategory;
        for (const arm of ROUTERS.filter((a) => a !== 'router-fetch' && a !== TWIN)) {
          const deltas = Object.keys({ ...cpuCats(arm), ...cpuCats('direct') })
            .map((k) => [k, (cpuCats(arm)[k] ?? 0) - (cpuCats('direct')[k] ?? 0)] as const)
            .filter(([, v]) => Math.abs(v) >= 1).sort((a, b) => b[1] - a[1]);
          notes.push(`Where ${LABEL[arm]}'s CPU goes (CPU profile, ${q ? 0 : 3000} sequential calls per arm, self time per call, router minus bare SDK): ${deltas.map(([k, v]) => `${k} ${v >= 0 ? '+' : ''}${num(v, 1)} µs`).join(', ')}.`);
          notes.push(`Heaviest functions of our own code (${LABEL[arm]}, self µs per call): ${topLines(probed.cpu[arm], 'µs')}.`);
          notes.push(`Heaviest own allocation sites (${LABEL[arm]}, sampled, bytes per call): ${topLines(probed.alloc?.[arm], 'B')}.`);
        }
      }
      return {
        name: 'overhead', title: this.title,
        method: [
          'Simulator in its own process (core 0), client on core 1; zero latency; one short prompt (maxTokens 64).',
          `Router: chain primary → secondary (two openai-type providers), breaker, RPM/TPM/concurrency budgets (never binding), retries, all at defaults; silent pino logger.${hasBefore ? ` The "before" arm is the same config through the router of ${ctx.sources.before!.label}, materialised outside the repo (git archive, node_modules symlinked) and imported into this process next to the router now; it is interleaved exactly like the other arms.` : ''}`,
          `c=1: ${rounds} rounds × ${seqCalls} sequential calls per arm, interleaved call by call (arm order balanced across rounds, ABBA: each round pair runs the arms in one order and then its reverse, and each pair starts one arm later); figures are medians of round figures [IQR]; added = per-round difference against the bare SDK.`,
          `c=20: closed loop, 20 workers, ${c20Ms} ms per arm per round, one arm at a time in the round's order; CPU from process.cpuUsage() over the same window; GC pauses (PerformanceObserver "gc") that started in the window.`,
          `Rounds (c=1, c=20 and the mixed loop together): pairs of rounds until the 95% intervals of c=1 p50, c=20 throughput and CPU a call (${LABEL[CANDIDATES[0]!]} ÷ ${LABEL[BASE]}, and the A/A twin ÷ ${LABEL[BASE]}) are each at most ${(rule.width * 100).toFixed(1)}% wide; at least ${rule.minRounds}, at most ${rule.maxRounds} rounds, no new pair after ${(rule.maxMs / 60_000).toFixed(1)} min.`,
          `Interleaved method: c=20 mixed: each round one closed loop of 20 workers for ${c20Ms * ARMS.length} ms in which each worker takes the arms in turn, call by call. Plain upstream: a node:http server answering one fixed chat completion with no rate-limit headers, in a child process (core 0) and in this process; ${plainRounds} rounds × ${plainCalls} calls per arm, interleaved call by call, both placements each round.`,
          'Heap bytes per call: a child with --expose-gc and a fixed 64 MB semi-space; gc() twice, then N calls, heapUsed after minus before; any trial in which a GC ran (PerformanceObserver "gc") is discarded; median of clean trials.',
        ],
        tables, targets, notes,
        data: {
          arms: specs, rounds, stopping: { rule, ...stopped }, comparisons: compared, seqCalls, c20Ms, seq, foreignShareC1: foreign, c20, mixed, plainRounds, plainCalls, plain: plainSeq, keep, floorP99,
          allocBytes: probed.allocBytes, allocDiscarded: probed.discarded, cpuProfile: probed.cpu, allocProfile: probed.alloc,
        },
      };
    } finally {
      gc.stop();
      for (const a of built) await a.close();
      for (const p of Object.values(plain)) {
        for (const a of p!.arms) await a.close();
        await p!.upstream.close();
      }
      await sim.close();
    }
  },
};
