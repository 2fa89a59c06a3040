import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { benchRouter, chainConfig, routerCall, sdkCall, sdkClient, UNLIMITED_SIM } from '../lib/arms.js';
import { num, pct, withIqr } from '../lib/format.js';
import { closedLoop, interleaved, sequential } from '../lib/load.js';
import { nextMessage, spawnNode } from '../lib/node-child.js';
import type { Breakdown } from '../lib/profile.js';
import { request } from '../lib/prompts.js';
import { check, overBy, type ScenarioReport, type TargetCheck } from '../lib/report.js';
import type { BenchContext, BenchScenario } from '../lib/scenario.js';
import { SimProcess } from '../lib/sim-process.js';
import { median, quantile, spread } from '../lib/stats.js';
import type { ProbeInput, ProbeOutput } from './overhead-probe.js';

const ARMS = ['direct', 'router', 'router-heuristic'] as const;
type ArmName = (typeof ARMS)[number];
const LABEL: Record<ArmName, string> = {
  direct: 'bare SDK (maxRetries 0)',
  router: 'router (default tokenizer: auto)',
  'router-heuristic': 'router (tokenizer: heuristic)',
};

interface Round {
  p50: number;
  p99: number;
}

function rotate<T>(xs: readonly T[], k: number): T[] {
  return xs.map((_, i) => xs[(i + k) % xs.length]!);
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

export const overhead: BenchScenario = {
  name: 'overhead',
  title: '1. Overhead: router.chat against the bare openai SDK (zero-latency simulator)',
  async run(ctx: BenchContext): Promise<ScenarioReport> {
    const q = ctx.quick;
    const rounds = q ? 2 : 7;
    const seqCalls = q ? 30 : 800;
    const c20Ms = q ? 150 : 1500;
    const warmup = q ? 30 : 600;
    const sim = await SimProcess.launch({ seed: 7, providers: { primary: { type: 'openai', limits: UNLIMITED_SIM }, secondary: { type: 'openai', limits: UNLIMITED_SIM } } });
    const baseURLs = { primary: sim.baseURL('primary'), secondary: sim.baseURL('secondary') };
    const req = request('Say hello in one short sentence, please.', 64);
    const direct = sdkClient(baseURLs.primary, 0);
    const routers = {
      router: benchRouter(chainConfig(baseURLs)),
      'router-heuristic': benchRouter(chainConfig(baseURLs, { tokenizer: 'heuristic' })),
    };
    const fns: Record<ArmName, () => Promise<unknown>> = {
      direct: () => sdkCall(direct, req),
      router: () => routerCall(routers.router, req),
      'router-heuristic': () => routerCall(routers['router-heuristic'], req),
    };

    try {
      ctx.log(`overhead: warm-up ${warmup} calls per arm`);
      for (const arm of ARMS) {
        await sequential(warmup, fns[arm]);
        await closedLoop(20, q ? 50 : 500, fns[arm]);
      }

      const seq: Record<ArmName, Round[]> = { direct: [], router: [], 'router-heuristic': [] };
      const c20: Record<ArmName, Array<{ rps: number; cpuUsPerCall: number; p50: number; p99: number; errors: number }>> = { direct: [], router: [], 'router-heuristic': [] };
      for (let r = 0; r < rounds; r++) {
        ctx.log(`overhead: round ${r + 1}/${rounds}`);
        // Call by call: direct, router, router-heuristic, direct, ... so drift hits every arm alike.
        const lat = await interleaved(seqCalls, rotate(ARMS, r).map((arm) => [arm, fns[arm]] as const));
        for (const arm of ARMS) seq[arm].push({ p50: quantile(lat[arm]!, 0.5), p99: quantile(lat[arm]!, 0.99) });
        for (const arm of rotate(ARMS, r + 1)) {
          const res = await closedLoop(20, c20Ms, fns[arm]);
          c20[arm].push({
            rps: (res.completed / res.elapsedMs) * 1000, cpuUsPerCall: res.cpuUs / Math.max(1, res.completed + res.errors),
            p50: quantile(res.latenciesUs, 0.5), p99: quantile(res.latenciesUs, 0.99), errors: res.errors,
          });
        }
      }

      // The BerriAI rule: a round whose direct p99 is more than twice the direct floor was disturbed.
      const floorP99 = Math.min(...seq.direct.map((x) => x.p99));
      const noisy = seq.direct.map((x) => x.p99 > 2 * floorP99);
      const keep = noisy.filter((n) => !n).length >= 3 ? noisy.map((n) => !n) : noisy.map(() => true);
      const kept = <T>(xs: T[]) => xs.filter((_, i) => keep[i]);
      const added = (arm: ArmName, k: keyof Round) => spread(kept(seq[arm].map((x, i) => x[k] - seq.direct[i]![k])));
      const ratio = (arm: ArmName) => spread(c20[arm].map((x, i) => x.rps / c20.direct[i]!.rps));
      const cpuExtra = (arm: ArmName) => spread(c20[arm].map((x, i) => x.cpuUsPerCall - c20.direct[i]!.cpuUsPerCall));

      ctx.log('overhead: heap bytes per call and profiles (child process, --expose-gc, 64 MB semi-space)');
      const probed = await probe({
        baseURLs, arms: [...ARMS], warmup: q ? 30 : 500, trials: q ? 2 : 9, callsPerTrial: q ? 30 : 200, profileCalls: q ? 0 : 3000,
      });
      const alloc = (arm: ArmName) => spread(probed.allocBytes[arm] ?? []);
      const addedAlloc = (arm: ArmName) => alloc(arm).median - alloc('direct').median;
      if (probed.cpu) writeFileSync(join(ctx.outDir, 'overhead-profile-breakdown.json'), JSON.stringify({ cpu: probed.cpu, alloc: probed.alloc }, null, 2));

      const rows: string[][] = [
        ['c=1 p50 latency (µs), median of rounds', ...ARMS.map((a) => withIqr(spread(kept(seq[a].map((x) => x.p50))), 0))],
        ['c=1 p99 latency (µs), median of rounds', ...ARMS.map((a) => withIqr(spread(kept(seq[a].map((x) => x.p99))), 0))],
        ['added p50 vs bare SDK (µs)', '', ...ARMS.slice(1).map((a) => withIqr(added(a, 'p50'), 1))],
        ['added p99 vs bare SDK (µs)', '', ...ARMS.slice(1).map((a) => withIqr(added(a, 'p99'), 1))],
        ['c=20 throughput (req/s)', ...ARMS.map((a) => withIqr(spread(c20[a].map((x) => x.rps)), 0))],
        ['throughput ratio to bare SDK', '1', ...ARMS.slice(1).map((a) => withIqr(ratio(a), 3))],
        ['c=20 p99 latency (µs)', ...ARMS.map((a) => withIqr(spread(c20[a].map((x) => x.p99)), 0))],
        ['CPU per call (µs, user+sys, c=20)', ...ARMS.map((a) => withIqr(spread(c20[a].map((x) => x.cpuUsPerCall)), 0))],
        ['router CPU over bare SDK (µs/call)', '', ...ARMS.slice(1).map((a) => withIqr(cpuExtra(a), 0))],
        ['router CPU as share of the SDK\'s', '', ...ARMS.slice(1).map((a) => pct(cpuExtra(a).median / median(c20.direct.map((x) => x.cpuUsPerCall))))],
        ['heap allocated per call (bytes)', ...ARMS.map((a) => withIqr(alloc(a), 0))],
        ['heap allocated over bare SDK (bytes/call)', '', ...ARMS.slice(1).map((a) => num(addedAlloc(a), 0))],
      ];

      const main: ArmName = 'router';
      const a50 = added(main, 'p50').median;
      const a99 = added(main, 'p99').median;
      const tr = ratio(main).median;
      const cpuShare = cpuExtra(main).median / median(c20.direct.map((x) => x.cpuUsPerCall));
      const allocAdd = addedAlloc(main);
      const targets: TargetCheck[] = [
        check('added p50 at c=1 (router)', '≤ 20 µs', `${num(a50, 1)} µs`, a50 <= 20, overBy(a50, 20, 'µs')),
        check('added p99 at c=1 (router)', '≤ 100 µs', `${num(a99, 1)} µs`, a99 <= 100, overBy(a99, 100, 'µs')),
        check('throughput at c=20 (router)', '≥ 0.97x bare SDK', `${num(tr, 3)}x`, tr >= 0.97, `${((0.97 - tr) * 100).toFixed(1)} points under`),
        check('router CPU per call (router)', '≤ 5% of the SDK\'s own', pct(cpuShare), cpuShare <= 0.05, `${((cpuShare - 0.05) * 100).toFixed(1)} points over (${(cpuShare / 0.05).toFixed(1)}x)`),
        check('heap allocated per call (router)', '≤ 2 KB (2048 B)', `${num(allocAdd, 0)} B`, allocAdd <= 2048, overBy(allocAdd, 2048, 'B', 0)),
        check('added p50 at c=1 (router, heuristic tokenizer)', '≤ 20 µs', `${num(added('router-heuristic', 'p50').median, 1)} µs`, added('router-heuristic', 'p50').median <= 20, overBy(added('router-heuristic', 'p50').median, 20, 'µs')),
      ];

      const notes: string[] = [];
      const errors = ARMS.map((a) => [a, c20[a].reduce((n, x) => n + x.errors, 0)] as const).filter(([, n]) => n > 0);
      if (errors.length) notes.push(`**Calls failed during the c=20 runs, which invalidates them**: ${errors.map(([a, n]) => `${a} ${n}`).join(', ')}.`);
      const dropped = keep.filter((k) => !k).length;
      if (dropped) notes.push(`${dropped} of ${rounds} c=1 rounds dropped: the bare SDK's p99 exceeded 2x its floor (${num(floorP99, 0)} µs) in them.`);
      if (seq.direct.some((x) => x.p99 > 35_000)) notes.push('A c=1 p99 above 35 ms was seen: check for a ~40 ms Nagle/delayed-ACK mode.');
      if (probed.cpu) {
        const cpuCats = (arm: ArmName) => probed.cpu![arm]!.byCategory;
        const deltas = Object.keys({ ...cpuCats('router'), ...cpuCats('direct') })
          .map((k) => [k, (cpuCats('router')[k] ?? 0) - (cpuCats('direct')[k] ?? 0)] as const)
          .filter(([, v]) => Math.abs(v) >= 1).sort((a, b) => b[1] - a[1]);
        notes.push(`Where the router's CPU goes (CPU profile, ${q ? 0 : 3000} sequential calls per arm, self time per call, router minus bare SDK): ${deltas.map(([k, v]) => `${k} ${v >= 0 ? '+' : ''}${num(v, 1)} µs`).join(', ')}.`);
        notes.push(`Heaviest functions of our own code (router arm, self µs per call): ${topLines(probed.cpu.router, 'µs')}.`);
        notes.push(`Heaviest own allocation sites (router arm, sampled, bytes per call): ${topLines(probed.alloc?.router, 'B')}.`);
      }
      return {
        name: 'overhead', title: this.title,
        method: [
          'Simulator in its own process (core 0), client on core 1; zero latency; one short prompt (maxTokens 64).',
          `Router: chain primary → secondary (two openai-type providers), breaker, RPM/TPM/concurrency budgets (never binding), retries, all at defaults; silent pino logger.`,
          `c=1: ${rounds} rounds × ${seqCalls} sequential calls per arm, interleaved call by call (arm order rotated each round); figures are medians of round figures [IQR]; added = per-round difference against the bare SDK.`,
          `c=20: closed loop, 20 workers, ${c20Ms} ms per arm per round, interleaved; CPU from process.cpuUsage() over the same window.`,
          'Heap bytes per call: a child with --expose-gc and a fixed 64 MB semi-space; gc() twice, then N calls, heapUsed after minus before; any trial in which a GC ran (PerformanceObserver "gc") is discarded; median of clean trials.',
        ],
        tables: [{ columns: ['metric', ...ARMS.map((a) => LABEL[a])], rows }],
        targets, notes,
        data: { rounds, seqCalls, c20Ms, seq, c20, keep, floorP99, allocBytes: probed.allocBytes, allocDiscarded: probed.discarded, cpuProfile: probed.cpu, allocProfile: probed.alloc },
      };
    } finally {
      for (const r of Object.values(routers)) await r.close();
      await sim.close();
    }
  },
};
