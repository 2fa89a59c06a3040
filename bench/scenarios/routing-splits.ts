import { mulberry32 } from '../../providers/shared/answers/prng.js';
import type { Router } from '../../src/router.js';
import { routerCall } from '../lib/arms.js';
import { num, pct } from '../lib/format.js';
import { latencyMs, openLoop } from '../lib/load.js';
import { balancedOrder, compare, comparisonColumns, comparisonRow, type Comparison } from '../lib/noise.js';
import { MEMBERS, type Member, type PoolUpstream } from '../lib/pool-upstream.js';
import { request } from '../lib/prompts.js';
import { check, type Table, type TargetCheck } from '../lib/report.js';
import type { BenchContext } from '../lib/scenario.js';
import { quantile } from '../lib/stats.js';
import { buildRouter, notBuilt, target, warmUp } from './routing-router.js';

/** The routing scenario's splits: a weighted pool over 10,000 calls, and a shadow at 10% against no shadow. */

export interface SplitResult {
  method: string[];
  tables: Table[];
  targets: TargetCheck[];
  notes: string[];
  data: unknown;
}
export type WeightedResult = SplitResult;
export type ShadowResult = SplitResult;

const REQ = request('Name one prime number.', 32);
const WEIGHTS: Record<Member, number> = { healthy: 60, slow: 30, brownout: 10 };

/** `pick: 'weighted'` (no stickiness) over the three members, every one answering at once: which member answered each call. */
export async function weightedSplit(upstream: PoolUpstream, ctx: BenchContext): Promise<WeightedResult> {
  const calls = ctx.quick ? 400 : 10_000;
  const weights = Object.fromEntries(MEMBERS.map((m) => [target(m), WEIGHTS[m]]));
  const method = [`Weighted: \`pick: 'weighted'\`, weights ${MEMBERS.map((m) => `${m} ${WEIGHTS[m]}`).join(' / ')}, \`sticky: false\`, ${num(calls, 0)} calls from 16 callers back to back, the upstream answering at once; the member that answered each call from its \`call\` event.`];
  let router: Router;
  try {
    router = await buildRouter(upstream, [{ pool: MEMBERS.map(target), pick: 'weighted', weights, sticky: false }]);
  } catch (err) {
    const why = notBuilt(err);
    return { method, tables: [], targets: [check('weights honoured over 10,000 calls', 'every member within 2 points of its weight', `not run: ${why}`, null)], notes: [`Weighted split not run: the router refused its config: ${why}`], data: { skipped: why } };
  }
  const answered: Record<string, number> = {};
  router.on('call', (e) => {
    if (e.outcome === 'ok' && e.provider) answered[e.provider] = (answered[e.provider] ?? 0) + 1;
  });
  let started = 0;
  try {
    await warmUp(router, upstream, () => routerCall(router, REQ));
    for (const k of Object.keys(answered)) delete answered[k];
    await upstream.reset({ seed: 36, baseMs: 0, jitterMs: 0 });
    ctx.log(`routing: weighted, ${calls} calls`);
    const caller = async () => {
      while (started++ < calls) await routerCall(router, REQ).catch(() => undefined);
    };
    await Promise.all(Array.from({ length: 16 }, caller));
  } finally {
    await router.close();
  }
  const ok = MEMBERS.reduce((n, m) => n + (answered[m] ?? 0), 0);
  const share = (m: Member) => (answered[m] ?? 0) / Math.max(1, ok);
  const worst = Math.max(...MEMBERS.map((m) => Math.abs(share(m) * 100 - WEIGHTS[m])));
  return {
    method,
    tables: [{ title: `Weighted split, ${num(ok, 0)} calls answered`, columns: ['member', 'weight', 'calls answered', 'share', 'off by'], rows: MEMBERS.map((m) => [m, `${WEIGHTS[m]}%`, num(answered[m] ?? 0, 0), pct(share(m), 2), `${num(share(m) * 100 - WEIGHTS[m], 2)} points`]) }],
    targets: [check(`weights honoured over ${num(calls, 0)} calls`, 'every member within 2 points of its weight', `worst ${num(worst, 2)} points (${MEMBERS.map((m) => `${m} ${pct(share(m), 1)}`).join(', ')})`, ctx.quick ? null : worst <= 2, `${num(worst - 2, 2)} points over`)],
    notes: [],
    data: { calls, weights: WEIGHTS, answered },
  };
}

type ShadowArm = 'none' | 'none-twin' | 'shadow';
const SHADOW_ARMS: readonly ShadowArm[] = ['none', 'none-twin', 'shadow'];
const PERCENT = 10;
/** The shadow's `maxInFlight` at its default: a sampled copy beyond it is dropped (`load`), never queued. */
const MAX_IN_FLIGHT = 4;

/**
 * The healthy member alone with and without `shadow: { targets: [slow], percent: 10 }`, and a twin of
 * the one without (A/A), in ABBA rounds: the p50 of the callers per round, compared with bench/lib/noise.ts.
 */
export async function shadowSplit(upstream: PoolUpstream, ctx: BenchContext): Promise<ShadowResult> {
  const rounds = ctx.quick ? 2 : 10;
  const ratePerSec = 100;
  const roundMs = ctx.quick ? 500 : 3_000;
  const method = [`Shadow: the healthy member alone (5-10 ms an answer here) without a shadow, its A/A twin, and with \`shadow: { targets: ['slow:…'], percent: ${PERCENT} }\` (router random seeded), ${rounds} rounds in ABBA order of ${roundMs / 1000} s open loop at ${ratePerSec} calls/s per arm; p50 per round, each arm's own router kept warm across rounds. Sampled share: \`shadow\` events ÷ calls of the shadow arm; sent: requests the slow member received.`];
  const routers = new Map<ShadowArm, Router>();
  const events = { sampled: 0, ok: 0, error: 0, dropped: 0 };
  try {
    for (const arm of SHADOW_ARMS) {
      const chain = arm === 'shadow' ? { steps: [target('healthy')], shadow: { targets: [target('slow')], percent: PERCENT } } : [target('healthy')];
      routers.set(arm, await buildRouter(upstream, chain, { random: mulberry32(arm === 'shadow' ? 36 : 37) }));
    }
  } catch (err) {
    for (const r of routers.values()) await r.close();
    const why = notBuilt(err);
    return { method, tables: [], targets: [check('shadow at 10%: callers\' p50', 'within the run\'s noise', `not run: ${why}`, null)], notes: [`Shadow not run: the router refused its config: ${why}`], data: { skipped: why } };
  }
  routers.get('shadow')!.on('shadow', (e) => {
    events.sampled++;
    events[e.outcome]++;
  });
  const p50s: Record<ShadowArm, number[]> = { none: [], 'none-twin': [], shadow: [] };
  const calls: Record<ShadowArm, { ok: number; failed: number }> = { none: { ok: 0, failed: 0 }, 'none-twin': { ok: 0, failed: 0 }, shadow: { ok: 0, failed: 0 } };
  let slowBefore = 0;
  try {
    await upstream.reset({ seed: 38, baseMs: 5, jitterMs: 5 });
    for (const arm of SHADOW_ARMS) for (let i = 0; i < 50; i++) await routerCall(routers.get(arm)!, REQ);
    await new Promise((r) => setTimeout(r, 200));
    slowBefore = (await upstream.stats()).requests.slow;
    const warmSampled = events.sampled;
    events.sampled = 0;
    events.ok = 0;
    events.error = 0;
    events.dropped = 0;
    ctx.log(`routing: shadow, ${rounds} ABBA rounds (warm-up sampled ${warmSampled} of 50)`);
    for (let round = 0; round < rounds; round++) {
      for (const arm of balancedOrder(SHADOW_ARMS, round)) {
        const router = routers.get(arm)!;
        const records = await openLoop({ ratePerSec, maxDurationMs: roundMs, drainMs: 10_000, job: () => routerCall(router, REQ) });
        for (const r of records) calls[arm][r.ok ? 'ok' : 'failed']++;
        p50s[arm].push(quantile(records.map(latencyMs), 0.5));
      }
    }
    await new Promise((r) => setTimeout(r, 500));
  } finally {
    for (const r of routers.values()) await r.close();
  }
  const slowSent = (await upstream.stats()).requests.slow - slowBefore;
  const cmp: Comparison = compare('callers\' p50, shadow ÷ no shadow', 'lower', p50s.shadow, p50s.none, p50s['none-twin'], 0.03);
  const n = calls.shadow.ok;
  const share = events.sampled / Math.max(1, n);
  const half = 1.96 * Math.sqrt((PERCENT / 100) * (1 - PERCENT / 100) / Math.max(1, n));
  const sentExact = slowSent === events.ok + events.error && events.ok + events.error + events.dropped === events.sampled;
  return {
    method,
    tables: [
      { title: `Shadow at ${PERCENT}%: callers' p50 per round (${rounds} rounds)`, columns: comparisonColumns({ cmp: 'shadow ÷ none', aa: 'A/A: twin ÷ none' }), rows: [comparisonRow(cmp)] },
      {
        title: 'Shadow at 10%: what was sent',
        columns: ['arm', 'calls ok / failed', 'p50 (median of rounds)', 'sampled (shadow events)', 'share of calls', 'sent (slow member received)', 'dropped'],
        rows: SHADOW_ARMS.map((a) => [a, `${calls[a].ok} / ${calls[a].failed}`, `${num(quantile(p50s[a], 0.5), 2)} ms`,
          a === 'shadow' ? num(events.sampled, 0) : '', a === 'shadow' ? pct(share, 2) : '', a === 'shadow' ? `${num(slowSent, 0)} (events ok ${events.ok}, error ${events.error})` : '', a === 'shadow' ? num(events.dropped, 0) : '']),
      },
    ],
    targets: [
      check(`shadow at ${PERCENT}%: callers' p50`, 'no difference beyond the A/A interval', `${comparisonRow(cmp)[1]} vs A/A ${comparisonRow(cmp)[2]}: ${cmp.verdict}`, ctx.quick ? null : cmp.verdict !== 'worse beyond noise', cmp.verdict),
      check(`shadow at ${PERCENT}%: share sampled`, `${PERCENT}% of calls (within the binomial 95% interval, ±${pct(half, 2)})`, `${num(events.sampled, 0)} of ${num(n, 0)} (${pct(share, 2)})`, ctx.quick ? null : Math.abs(share - PERCENT / 100) <= half, `${pct(share - PERCENT / 100, 2)} off`),
      check('shadow: sent exactly what was sampled', 'requests at the shadow target = sampled − dropped under load', `${num(slowSent, 0)} received = ${num(events.sampled, 0)} sampled − ${num(events.dropped, 0)} dropped (maxInFlight ${MAX_IN_FLIGHT})`, ctx.quick ? null : sentExact, 'counts differ'),
    ],
    notes: [],
    data: { rounds, roundMs, ratePerSec, p50s, calls, events, slowSent, comparison: cmp },
  };
}
