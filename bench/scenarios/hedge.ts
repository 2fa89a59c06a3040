import type { SwitchyardConfig } from '../../src/config/index.js';
import { API_KEY, MODEL, ROOMY_LIMITS, UNLIMITED_SIM, benchRouter, failureLabel, routerCall } from '../lib/arms.js';
import { ms, num, pct } from '../lib/format.js';
import { eachOf, latencyMs, openLoop, type CallRecord } from '../lib/load.js';
import { request } from '../lib/prompts.js';
import { check, type ScenarioReport, type TargetCheck } from '../lib/report.js';
import type { BenchContext, BenchScenario } from '../lib/scenario.js';
import { SimProcess } from '../lib/sim-process.js';
import { quantile } from '../lib/stats.js';

/**
 * Hedged requests (docs/hedging.md, issue 23 item 4): a primary whose first attempts are slow one
 * time in ten (about 1.5 s against 100-200 ms), a healthy peer, and a chain [primary, peer] with and
 * without a hedge. The fast path is the peer alone: what the chain's p99 would be with no slow tail.
 */

interface Arm {
  name: string;
  label: string;
  steps: string[];
  hedge?: { afterMs?: number; percentile?: number; maxExtraPercent?: number };
}

const PRIMARY = `primary:${MODEL}`;
const PEER = `peer:${MODEL}`;
/** The slow tail's share of the primary's requests, and the cap that fits it with room (docs/hedging.md). */
const SLOW_SHARE = 0.1;
const FITTING_CAP = 15;
const ARMS: readonly Arm[] = [
  { name: 'fast', label: 'fast path alone (the peer, no slow tail)', steps: [PEER] },
  { name: 'no-hedge', label: 'chain [primary, peer], no hedge', steps: [PRIMARY, PEER] },
  { name: 'hedge-default-cap', label: 'hedge afterMs 200, maxExtraPercent at its default (5)', steps: [PRIMARY, PEER], hedge: { afterMs: 200 } },
  { name: 'hedge', label: `hedge afterMs 200, maxExtraPercent ${FITTING_CAP}`, steps: [PRIMARY, PEER], hedge: { afterMs: 200, maxExtraPercent: FITTING_CAP } },
  { name: 'hedge-p95', label: `hedge percentile 95 (afterMs 200 until 20 answers), maxExtraPercent ${FITTING_CAP}`, steps: [PRIMARY, PEER], hedge: { percentile: 95, afterMs: 200, maxExtraPercent: FITTING_CAP } },
];

interface ArmResult {
  arm: string;
  calls: number;
  failed: number;
  p50Ms: number;
  p90Ms: number;
  p99Ms: number;
  maxMs: number;
  /** Requests each provider received (counted at the simulator). */
  primaryRequests: number;
  peerRequests: number;
  /** Calls that sent a hedge, and of those the ones the hedge won. */
  hedged: number;
  hedgeWon: number;
  /** Attempts that ended `aborted` (the losers), from the results' attempt lists. */
  aborted: number;
  /** The primary's requests still open at the simulator when the last call had settled. */
  primaryInFlightAtEnd: number;
  failures: Record<string, number>;
}

type Answer = { hedged?: boolean; attempts: ReadonlyArray<{ ok: boolean; kind?: string; hedge?: true }> };

export const hedge: BenchScenario = {
  name: 'hedge',
  title: '9. Hedged requests: one first attempt in ten takes 1.5 s',
  async run(ctx: BenchContext): Promise<ScenarioReport> {
    const q = ctx.quick;
    const ratePerSec = q ? 40 : 50;
    const durationMs = q ? 1_500 : 20_000;
    const latency = { baseMs: 100, jitterMs: 100 };
    // slow_first_byte adds its delay to the base latency: 1.4 s + 100-200 ms ≈ 1.5 s.
    const slowDelayMs = 1_400;
    const req = request('Name one prime number.', 32);

    const results = await eachOf(ARMS, q, async (arm): Promise<ArmResult> => {
      const sim = await SimProcess.launch({
        seed: 23,
        providers: {
          primary: { type: 'openai', limits: UNLIMITED_SIM, latency, faults: [{ fault: 'slow_first_byte', probability: SLOW_SHARE, delayMs: slowDelayMs }] },
          peer: { type: 'openai', limits: UNLIMITED_SIM, latency },
        },
      }, 100);
      try {
        const provider = (name: string) => ({ type: 'openai' as const, apiKey: API_KEY, baseURL: sim.baseURL(name), timeoutMs: 10_000, limits: ROOMY_LIMITS });
        const router = benchRouter({
          providers: { primary: provider('primary'), peer: provider('peer') },
          chains: { default: arm.hedge ? { steps: arm.steps, hedge: arm.hedge } : arm.steps } as SwitchyardConfig['chains'],
          log: { level: 'silent' },
        });
        ctx.log(`hedge: ${arm.name}, ${ratePerSec} calls/s open loop for ${durationMs / 1000} s`);
        let records: CallRecord<Answer>[];
        let inFlight: number;
        try {
          records = await openLoop<Answer>({ ratePerSec, maxDurationMs: durationMs, drainMs: 15_000, job: () => routerCall(router, req) as Promise<Answer> });
          // Every call has settled: an aborted loser's request must be closed at the simulator too.
          await new Promise((r) => setTimeout(r, 50));
          inFlight = (await sim.stats()).stats.providers.primary?.inFlight ?? 0;
        } finally {
          await router.close();
        }
        const { stats } = await sim.stats();
        const ok = records.filter((r) => r.ok);
        const lat = ok.map(latencyMs);
        const answers = ok.map((r) => r.value!);
        const failures: Record<string, number> = {};
        for (const r of records) if (!r.ok) failures[failureLabel(r.error)] = (failures[failureLabel(r.error)] ?? 0) + 1;
        return {
          arm: arm.name, calls: records.length, failed: records.length - ok.length,
          p50Ms: quantile(lat, 0.5), p90Ms: quantile(lat, 0.9), p99Ms: quantile(lat, 0.99), maxMs: Math.max(...lat),
          primaryRequests: stats.providers.primary?.requests ?? 0, peerRequests: stats.providers.peer?.requests ?? 0,
          hedged: answers.filter((a) => a.hedged).length,
          hedgeWon: answers.filter((a) => a.hedged && a.attempts.some((x) => x.ok && x.hedge)).length,
          aborted: answers.reduce((n, a) => n + a.attempts.filter((x) => x.kind === 'aborted').length, 0),
          primaryInFlightAtEnd: inFlight,
          failures,
        };
      } finally {
        await sim.close();
      }
    });

    const get = (name: string) => results.find((r) => r.arm === name)!;
    const fast = get('fast');
    const extra = (r: ArmResult) => (r.arm === 'fast' ? 0 : r.peerRequests / Math.max(1, r.calls));
    const capOf = (name: string) => ARMS.find((a) => a.name === name)!.hedge?.maxExtraPercent ?? 5;
    const rows = results.map((r) => [
      ARMS.find((a) => a.name === r.arm)!.label, num(r.calls, 0), ms(r.p50Ms), ms(r.p90Ms), ms(r.p99Ms), ms(r.maxMs),
      `${num(r.p99Ms / Math.max(1, fast.p99Ms), 2)}x`,
      r.arm === 'fast' ? '' : `${pct(extra(r))} (${num(r.peerRequests, 0)})`,
      r.arm === 'fast' || r.arm === 'no-hedge' ? '' : `${num(r.hedged, 0)} / ${num(r.hedgeWon, 0)}`,
      num(r.aborted, 0), pct(r.failed / Math.max(1, r.calls), 2),
    ]);
    const p99Check = (name: string, what: string) => {
      const r = get(name);
      const cap = capOf(name);
      return [
        check(`${what}: p99`, '≤ 2x the fast path\'s p99', `${ms(r.p99Ms)} vs ${ms(fast.p99Ms)} (${num(r.p99Ms / Math.max(1, fast.p99Ms), 2)}x)`,
          r.p99Ms <= 2 * fast.p99Ms, `${ms(r.p99Ms - 2 * fast.p99Ms)} over`),
        check(`${what}: extra requests`, `≤ the cap (${cap}% of calls)`, pct(extra(r)), extra(r) <= cap / 100, `${pct(extra(r) - cap / 100)} over`),
      ];
    };
    const targets: TargetCheck[] = [
      ...p99Check('hedge', `hedge afterMs 200, cap ${FITTING_CAP}%`),
      ...p99Check('hedge-p95', `hedge percentile 95, cap ${FITTING_CAP}%`),
      // Expected to miss the p99 on a quiet machine: a 5% cap cannot cover a 10% slow share.
      ...p99Check('hedge-default-cap', 'hedge afterMs 200, default cap 5% (under the 10% slow share)'),
      check('losers aborted and closed', 'no primary request open once every call settled', results.map((r) => `${r.arm} ${r.primaryInFlightAtEnd}`).join(', '),
        results.every((r) => r.primaryInFlightAtEnd === 0), 'requests left open'),
    ];
    const slowSeen = (r: ArmResult) => r.primaryRequests > 0 ? r.primaryRequests : 0;
    const notes = [
      `By construction the p99 target is tight: a hedged slow call takes the 200 ms delay plus a fast answer (100-200 ms), so the p99 of all calls, the 90th percentile of the hedged tenth, is about 390 ms against twice the fast path's p99 of about 200 ms (1.95x on a quiet machine). On a loaded machine the fast path's own p99 grows and the ratio looks better than it is.`,
      `With ${pct(SLOW_SHARE, 0)} of first attempts slow, a cap under ${pct(SLOW_SHARE, 0)} of calls leaves the rest of the slow ones unhedged, and they are more than 1% of calls: the default cap (5%) hedges about half of them and the p99 stays at the slow attempt's 1.5 s. The cap has to exceed the slow share; ${FITTING_CAP}% fits 10% with room for the window's early calls.`,
      'Extra requests = requests the peer received ÷ calls (the peer is sent nothing but hedges here: no call fails on the primary). Hedged / hedge won: calls that sent a hedge, and of those the ones the hedge answered. Aborted: losing attempts, from the results.',
      `The percentile arm reads the primary's recent p95 from answers the primary won: a slow attempt that lost to its hedge is aborted and never observed, so the delay follows the fast answers (and the slow ones the cap did not hedge).`,
      `Requests at the simulator, primary / peer: ${results.map((r) => `${r.arm} ${slowSeen(r)} / ${r.peerRequests}`).join(', ')}.`,
      `Failed calls: ${results.map((r) => `${r.arm}: ${Object.entries(r.failures).map(([k, v]) => `${k} ${v}`).join(', ') || 'none'}`).join('; ')}.`,
    ];
    return {
      name: 'hedge', title: this.title,
      method: [
        `Upstream: two simulated OpenAI providers in one simulator process, latency ${latency.baseMs}–${latency.baseMs + latency.jitterMs} ms; the primary answers ${pct(SLOW_SHARE, 0)} of its requests (seeded draw) ${num(slowDelayMs / 1000, 1)} s later (≈ 1.5 s in all). A fresh simulator per arm, same seed.`,
        `Load: open loop, ${ratePerSec} calls a second for ${durationMs / 1000} s per arm, one arm at a time; latency counts from when each call was due.`,
        'Arms: the peer alone (the fast path); the chain [primary, peer] without a hedge; with `hedge: { afterMs: 200 }` at the default cap; with `maxExtraPercent: 15`; and with `percentile: 95` (afterMs 200 until the primary has 20 answers).',
      ],
      tables: [{
        columns: ['arm', 'calls', 'p50', 'p90', 'p99', 'max', 'p99 ÷ fast path', 'extra requests (peer)', 'hedged / hedge won', 'aborted', 'failed'],
        rows,
      }],
      targets, notes,
      data: { ratePerSec, durationMs, latency, slowShare: SLOW_SHARE, slowDelayMs, results },
    };
  },
};
