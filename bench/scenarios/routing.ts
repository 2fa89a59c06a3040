import type { SwitchyardConfig } from '../../src/config/index.js';
import { failureLabel, routerCall } from '../lib/arms.js';
import { ms, num, pct } from '../lib/format.js';
import { eachOf, latencyMs, openLoop } from '../lib/load.js';
import { MEMBERS, PoolUpstream, type Brownout, type Member, type UpstreamProfile } from '../lib/pool-upstream.js';
import { request } from '../lib/prompts.js';
import { check, type ScenarioReport, type TargetCheck } from '../lib/report.js';
import type { BenchContext, BenchScenario } from '../lib/scenario.js';
import { quantile } from '../lib/stats.js';
import type { Router } from '../../src/router.js';
import { buildRouter, notBuilt, target, warmUp } from './routing-router.js';
import { shadowSplit, weightedSplit, type ShadowResult, type WeightedResult } from './routing-splits.js';

/**
 * Routing that learns (issue 36, part 5): one loopback upstream, three pool members (healthy; 3x
 * slower; one that browns out: slow, then 500s, then 200s with garbage), and the pool's `pick`
 * strategies side by side with the healthy member alone as the baseline, in the same run. Then a
 * weighted split over 10,000 calls, and a shadow at 10% against no shadow and its A/A twin.
 */

interface Arm {
  name: string;
  label: string;
  /** The chain's steps: the healthy member alone, or a pool of all three. */
  chain: SwitchyardConfig['chains'][string];
}

const POOL = MEMBERS.map(target);
/** Ejection as the issue describes it: five failures in a row, a success rate well below the others' (its default), or a median latency 4x theirs (above the slow member's 3x, so the latency pick, not ejection, handles that one). */
const OUTLIER = { consecutiveFailures: 5, latencyAboveMedianX: 4, ejectMs: 5_000, maxEjectedPercent: 34 };
const ARMS: readonly Arm[] = [
  { name: 'alone', label: 'the healthy member alone (baseline)', chain: [target('healthy')] },
  { name: 'headroom', label: "pool, pick 'headroom' (the default)", chain: [{ pool: POOL, pick: 'headroom' }] },
  { name: 'round_robin', label: "pool, pick 'round_robin'", chain: [{ pool: POOL, pick: 'round_robin' }] },
  { name: 'latency', label: "pool, pick 'latency'", chain: [{ pool: POOL, pick: 'latency' }] },
  { name: 'latency+outlier', label: "pool, pick 'latency' + outlier ejection", chain: [{ pool: POOL, pick: 'latency', outlier: OUTLIER }] },
];

interface ArmResult {
  arm: string;
  /** Why the arm could not run (its feature is not in this router: the config was refused). */
  skipped?: string;
  calls: number;
  failed: number;
  p50Ms: number;
  p90Ms: number;
  p99Ms: number;
  /** Calls that took 1 s or more (the brownout's slow answers take 1.5 s). */
  slowCalls: number;
  /** Requests the brownout member received in its slow phase (each answered after 1.5 s). */
  brownoutSlowRequests: number;
  /** Requests each member received at the upstream. */
  requests: Record<Member, number>;
  /** The brownout member's 500s and garbage answers, and how many it had served when first ejected. */
  brownoutFailures: number;
  failuresBeforeEjection?: number;
  /** Every `outlier` event of the arm: `eject brownout (consecutive_failures)`, `return slow`, ... */
  outlierEvents: string[];
  failures: Record<string, number>;
}

const skippedResult = (arm: string, why: string): ArmResult => ({
  arm, skipped: why, calls: 0, failed: 0, p50Ms: Number.NaN, p90Ms: Number.NaN, p99Ms: Number.NaN, slowCalls: 0, brownoutSlowRequests: 0,
  requests: { healthy: 0, slow: 0, brownout: 0 }, brownoutFailures: 0, outlierEvents: [], failures: {},
});

/** The brownout's phases, as shares of the arm's duration: ok, slow, 500s, garbage, healed (a fifth each). */
function brownout(durationMs: number): Brownout {
  const at = (share: number) => Math.round(durationMs * share);
  return { slowFromMs: at(0.2), errorsFromMs: at(0.4), garbageFromMs: at(0.6), healedFromMs: at(0.8), slowMs: 1_500 };
}

async function runArm(arm: Arm, upstream: PoolUpstream, profile: UpstreamProfile, o: { ratePerSec: number; durationMs: number }, ctx: BenchContext): Promise<ArmResult> {
  const req = request('Name one prime number.', 32);
  let router: Router;
  try {
    // The code warms on a throwaway router of the same config; the measured one starts with no
    // latency or outlier history (a history from the warm-up's zero-latency answers would skew both).
    const warm = await buildRouter(upstream, arm.chain);
    await warmUp(warm, upstream, () => routerCall(warm, req)).finally(() => warm.close());
    router = await buildRouter(upstream, arm.chain);
  } catch (err) {
    return skippedResult(arm.name, notBuilt(err));
  }
  const ejections: number[] = [];
  const outlierEvents: string[] = [];
  // The outlier event (issue 36 part 2): the brownout member's first `eject` is its ejection.
  router.on('outlier', (e) => {
    outlierEvents.push(`${e.action} ${e.provider}${e.reason ? ` (${e.reason})` : ''}`);
    if (e.action === 'eject' && e.provider === 'brownout') ejections.push(Date.now());
  });
  try {
    await upstream.reset(profile);
    ctx.log(`routing: ${arm.name}, ${o.ratePerSec} calls/s open loop for ${o.durationMs / 1000} s`);
    const records = await openLoop({ ratePerSec: o.ratePerSec, maxDurationMs: o.durationMs, drainMs: 20_000, job: () => routerCall(router, req) });
    const stats = await upstream.stats();
    const ok = records.filter((r) => r.ok);
    const lat = records.map(latencyMs);
    const failures: Record<string, number> = {};
    for (const r of records) if (!r.ok) failures[failureLabel(r.error)] = (failures[failureLabel(r.error)] ?? 0) + 1;
    const firstEjection = ejections[0];
    return {
      arm: arm.name, calls: records.length, failed: records.length - ok.length,
      p50Ms: quantile(lat, 0.5), p90Ms: quantile(lat, 0.9), p99Ms: quantile(lat, 0.99),
      slowCalls: lat.filter((x) => x >= 1_000).length, brownoutSlowRequests: stats.byPhase.brownout.slow,
      requests: stats.requests, brownoutFailures: stats.brownoutFailuresAtMs.length,
      ...(firstEjection !== undefined ? { failuresBeforeEjection: stats.brownoutFailuresAtMs.filter((t) => t <= firstEjection).length } : {}),
      outlierEvents, failures,
    };
  } finally {
    await router.close();
  }
}

export const routing: BenchScenario = {
  name: 'routing',
  title: '11. Routing that learns: pool strategies against a slow member and a brownout',
  async run(ctx: BenchContext): Promise<ScenarioReport> {
    const q = ctx.quick;
    const ratePerSec = q ? 40 : 50;
    const durationMs = q ? 2_000 : 20_000;
    const profile: UpstreamProfile = { seed: 36, baseMs: 40, jitterMs: 20, brownout: brownout(durationMs) };
    const upstream = await PoolUpstream.launch();
    let results: ArmResult[];
    let weighted: WeightedResult;
    let shadow: ShadowResult;
    try {
      // One upstream for all arms, so quick runs go one after another too (reset restarts its schedule).
      results = await eachOf(ARMS, false, (arm) => runArm(arm, upstream, profile, { ratePerSec, durationMs }, ctx));
      weighted = await weightedSplit(upstream, ctx);
      shadow = await shadowSplit(upstream, ctx);
    } finally {
      await upstream.close();
    }

    const get = (name: string) => results.find((r) => r.arm === name)!;
    const ran = (r: ArmResult) => r.skipped === undefined;
    const alone = get('alone');
    const rows = results.map((r) => {
      const label = ARMS.find((a) => a.name === r.arm)!.label;
      if (!ran(r)) return [label, 'not run', '', '', '', '', '', '', '', '', r.skipped!];
      const sent = MEMBERS.map((m) => num(r.requests[m], 0)).join(' / ');
      const ejected = r.arm.includes('outlier') ? (r.failuresBeforeEjection === undefined ? 'never' : `after ${r.failuresBeforeEjection}`) : '';
      return [label, num(r.calls, 0), ms(r.p50Ms), ms(r.p90Ms), ms(r.p99Ms), `${num(r.p99Ms / alone.p99Ms, 2)}x`, pct(r.failed / Math.max(1, r.calls), 2), num(r.slowCalls, 0), num(r.brownoutSlowRequests, 0), sent, ejected];
    });
    const targets: TargetCheck[] = [];
    const lo = get('latency+outlier');
    const head = get('headroom');
    const na = q || !ran(lo) || !ran(alone) || !ran(head);
    targets.push(
      check("latency + ejection: p99 against the healthy member alone", '≤ 1.3x', ran(lo) ? `${ms(lo.p99Ms)} vs ${ms(alone.p99Ms)} (${num(lo.p99Ms / alone.p99Ms, 2)}x)` : `not run: ${lo.skipped}`,
        na ? null : lo.p99Ms <= 1.3 * alone.p99Ms, `${num(lo.p99Ms / alone.p99Ms, 2)}x`),
      check("latency + ejection: p99 against headroom's", '≥ 2x better', ran(lo) ? `${ms(head.p99Ms)} ÷ ${ms(lo.p99Ms)} = ${num(head.p99Ms / lo.p99Ms, 2)}x` : `not run: ${lo.skipped}`,
        na ? null : head.p99Ms >= 2 * lo.p99Ms, `${num(head.p99Ms / lo.p99Ms, 2)}x`),
      check('brownout member ejected', 'within 20 of its failures', !ran(lo) ? `not run: ${lo.skipped}` : lo.failuresBeforeEjection === undefined ? `no outlier event named it (${lo.brownoutFailures} failures served)` : `after ${lo.failuresBeforeEjection} failures`,
        q || !ran(lo) ? null : lo.failuresBeforeEjection !== undefined && lo.failuresBeforeEjection <= 20, lo.failuresBeforeEjection === undefined ? 'never ejected' : `${lo.failuresBeforeEjection - 20} over`),
      ...weighted.targets, ...shadow.targets,
    );
    const notes = [
      `Members sent: requests at the upstream, healthy / slow / brownout. The brownout member served ${results.filter(ran).map((r) => `${r.arm} ${r.brownoutFailures}`).join(', ')} failures (500s and garbage 200s).`,
      `Failed calls by kind: ${results.filter(ran).map((r) => `${r.arm}: ${Object.entries(r.failures).map(([k, v]) => `${k} ${v}`).join(', ') || 'none'}`).join('; ')}.`,
      'A p99 over 1,000 calls is the 10th slowest call: an arm that sends 10 calls to the brownout member in its slow phase (1.5 s each) has a p99 of 1.5 s, however well it does after. "Sent to the brownout while slow" counts them; the latency rule of outlier ejection needs 5 of its answers, each back 1.5 s after it was sent, before it can eject, and the latency pick learns only from answers, so the first slow calls are paid before either can see the slowness.',
      'Ejected: how many failures (500s and garbage 200s) the brownout member had served when its first `outlier` eject event came.',
      ...results.filter((r) => ran(r) && r.outlierEvents.length).map((r) => `Outlier events, ${r.arm}: ${r.outlierEvents.join(', ')}.`),
      ...results.filter((r) => !ran(r)).map((r) => `Arm ${r.arm} not run: the router refused its config (its feature is not in this build): ${r.skipped}`),
      ...weighted.notes, ...shadow.notes,
    ];
    return {
      name: 'routing', title: this.title,
      method: [
        `Upstream: one node:http server in its own process (bench/lib/pool-upstream.ts) speaking OpenAI's chat wire for three members: healthy ${profile.baseMs}-${profile.baseMs + profile.jitterMs} ms (seeded jitter), slow 3x that, and a brownout member, healthy for the first fifth of each arm, then ${num(profile.brownout!.slowMs, 0)} ms an answer, then 500s, then 200s whose body is an HTML page, then healed, a fifth each. Reset before each arm: same seed, same schedule.`,
        `Load: open loop, ${ratePerSec} calls a second for ${durationMs / 1000} s per arm, one arm at a time; latency counts from when each call was due, failed calls included. Router defaults otherwise (retries, breakers, budgets).`,
        `Arms: the healthy member alone (the baseline), then a pool of all three with \`pick\` headroom, round_robin, latency, and latency with \`outlier: ${JSON.stringify(OUTLIER)}\`.`,
        ...weighted.method, ...shadow.method,
      ],
      tables: [
        { title: 'Pool strategies', columns: ['arm', 'calls', 'p50', 'p90', 'p99', 'p99 ÷ alone', 'calls failed', 'calls ≥ 1 s', 'sent to the brownout while slow', 'members sent (h / s / b)', 'brownout ejected'], rows },
        ...weighted.tables, ...shadow.tables,
      ],
      targets, notes,
      data: { ratePerSec, durationMs, profile, outlier: OUTLIER, results, weighted: weighted.data, shadow: shadow.data },
    };
  },
};
