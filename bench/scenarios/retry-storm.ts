import { API_KEY, MODEL, PLAIN_BACKOFF, ROOMY_LIMITS, UNLIMITED_SIM, backoffCall, benchRouter, failureLabel, routerCall, sdkCall, sdkClient } from '../lib/arms.js';
import { ms, num, pct, seconds } from '../lib/format.js';
import { eachOf, openLoop, type CallRecord } from '../lib/load.js';
import { request, rng } from '../lib/prompts.js';
import { check, type ScenarioReport, type TargetCheck } from '../lib/report.js';
import type { BenchContext, BenchScenario } from '../lib/scenario.js';
import { countBetween, SimProcess, total, type SimTimeline } from '../lib/sim-process.js';
import { quantile } from '../lib/stats.js';

const ARMS = ['router', 'router-brownout', 'sdk-retries', 'plain-backoff'] as const;
type ArmName = (typeof ARMS)[number];
/**
 * The documented brownout setting (docs/reliability.md): a retry budget that lets each call use its
 * three attempts, as the SDK would, and a breaker that does not open while only half the requests fail.
 */
const BROWNOUT = { retry: { budgetPercent: 100 }, breaker: { errorThresholdPercentage: 75, consecutiveFailures: 20 } } as const;
const LABEL: Record<ArmName, string> = {
  router: 'Switchyard (one target, defaults: retry budget 20%)',
  'router-brownout': 'Switchyard (one target, brownout setting: budget 100%, breaker at 75% / 20 in a row)',
  'sdk-retries': 'SDK retries (maxRetries 2)',
  'plain-backoff': 'plain backoff (4 attempts, full jitter)',
};
const BUCKET_MS = 500;

interface ArmResult {
  arm: ArmName;
  amplification: number;
  /** The same, over the part of the incident before the router's breaker opened (all of it for the baselines). */
  amplificationWhileClosed: number;
  attemptsDuring: Record<string, number>;
  logicalDuring: number;
  failedDuring: number;
  failedAfter: number;
  p99DuringMs: number;
  recoveryMs: number | undefined;
  /** Breaker transitions, in ms since the incident began. */
  breakerEvents: Array<{ sinceIncidentMs: number; state: string }>;
  failures: Record<string, number>;
  buckets: Array<{ fromHealMs: number; logical: number; ok: number; attempts: number }>;
}

export const retryStorm: BenchScenario = {
  name: 'retry-storm',
  title: '3. Retry storm: 50% 503s for a window, then healed',
  async run(ctx: BenchContext): Promise<ScenarioReport> {
    const q = ctx.quick;
    const ratePerSec = q ? 60 : 200;
    const preMs = q ? 500 : 5_000;
    const incidentMs = q ? 1_000 : 15_000;
    const minPostMs = q ? 500 : 5_000;
    const steadyForMs = q ? 500 : 2_000;
    const resetTimeoutMs = 30_000; // the router default, stated for the reader
    const maxPostMs = q ? 1_000 : resetTimeoutMs + 12_000;
    const latency = { baseMs: 20, jitterMs: 20 };
    const capacity = 16;
    const req = request('Summarise the incident report in one line.', 64);
    const results: ArmResult[] = [];

    // --quick runs the three arms at once (a smoke test); a measurement runs them one at a time.
    results.push(...await eachOf(ARMS, q, async (arm): Promise<ArmResult> => {
      // Fault windows count from the simulator's start; the load starts right after it is up.
      const setupMs = 1_000;
      const fromMs = setupMs + preMs;
      const untilMs = fromMs + incidentMs;
      const sim = await SimProcess.launch({
        seed: 31,
        providers: { up: { type: 'openai', limits: UNLIMITED_SIM, latency, capacity, faults: [{ fault: 'unavailable', probability: 0.5, fromMs, untilMs }] } },
      }, 50);
      try {
        const t0 = sim.ready.startedAtMs + fromMs;
        const t1 = sim.ready.startedAtMs + untilMs;
        const breakerEvents: Array<{ atMs: number; state: string }> = [];
        let job: () => Promise<unknown>;
        let close = async () => {};
        if (arm === 'router' || arm === 'router-brownout') {
          const router = benchRouter({
            providers: { up: { type: 'openai', apiKey: API_KEY, baseURL: sim.baseURL('up'), timeoutMs: 5_000, limits: ROOMY_LIMITS } },
            chains: { default: [`up:${MODEL}`] },
            log: { level: 'silent' },
            ...(arm === 'router-brownout' ? BROWNOUT : {}),
          });
          router.on('breaker', (e) => breakerEvents.push({ atMs: Date.now(), state: e.state }));
          job = () => routerCall(router, req);
          close = () => router.close();
        } else if (arm === 'sdk-retries') {
          const client = sdkClient(sim.baseURL('up'), 2, 5_000);
          job = () => sdkCall(client, req);
        } else {
          const client = sdkClient(sim.baseURL('up'), 0, 5_000);
          const random = rng(7);
          job = () => backoffCall(client, req, PLAIN_BACKOFF, random);
        }
        const lastState = () => breakerEvents[breakerEvents.length - 1]?.state ?? 'closed';
        // After the heal: at least minPostMs, and while the breaker is not closed, and minPostMs after it closes.
        const settled = () => lastState() === 'closed' && Date.now() >= (breakerEvents[breakerEvents.length - 1]?.atMs ?? 0) + minPostMs;
        const waitMs = Math.max(0, sim.ready.startedAtMs + setupMs - Date.now());
        await new Promise((r) => setTimeout(r, waitMs));
        ctx.log(`retry-storm: ${arm}, ${ratePerSec} req/s open loop; 50% 503s for ${incidentMs / 1000} s after ${preMs / 1000} s`);
        const records = await openLoop({
          ratePerSec, maxDurationMs: preMs + incidentMs + maxPostMs, drainMs: q ? 1_500 : 20_000,
          keepGoing: () => Date.now() < t1 + minPostMs || (!settled() && Date.now() < t1 + maxPostMs),
          job: () => job(),
        });
        await close();
        const { timeline } = await sim.stats();
        return analyse(arm, records, timeline, t0, t1, steadyForMs, breakerEvents);
      } finally {
        await sim.close();
      }
    }));

    const get = (arm: ArmName) => results.find((r) => r.arm === arm)!;
    const rows = results.map((r) => [
      LABEL[r.arm], num(r.amplification, 2), pct(r.failedDuring / Math.max(1, r.logicalDuring)), pct(r.failedAfter, 2), ms(r.p99DuringMs),
      r.recoveryMs === undefined ? 'not within the run' : seconds(r.recoveryMs),
      `${num(r.attemptsDuring['503'] ?? 0, 0)} / ${num(r.attemptsDuring['200'] ?? 0, 0)}`,
      r.arm === 'router' ? '1' : `${num(get('router').amplification / r.amplification, 2)}x`,
    ]);
    const router = get('router');
    const brownout = get('router-brownout');
    const naive = get('sdk-retries');
    const failed = (r: ArmResult) => r.failedDuring / Math.max(1, r.logicalDuring);
    const budgetCheck = (what: string, r: ArmResult, maxFailed: number, maxAttempts: number) => check(
      what, `≤ ${pct(maxFailed)} failed at ≤ ${num(maxAttempts, 2)} attempts a call`, `${pct(failed(r))} at ${num(r.amplification, 2)}`,
      failed(r) <= maxFailed && r.amplification <= maxAttempts,
      [failed(r) > maxFailed ? `${pct(failed(r) - maxFailed)} more failed` : '', r.amplification > maxAttempts ? `${num(r.amplification - maxAttempts, 2)} attempts over` : ''].filter(Boolean).join(', '),
    );
    const targets: TargetCheck[] = [
      budgetCheck('router, retry budget at its default (20%)', router, 0.4, 1.25),
      budgetCheck('router, documented brownout setting', brownout, 0.15, 1.8),
      check('router time back to steady state', '≤ 2 s', router.recoveryMs === undefined ? 'not reached' : seconds(router.recoveryMs),
        router.recoveryMs !== undefined && router.recoveryMs <= 2_000, router.recoveryMs === undefined ? 'never within the run' : `${num((router.recoveryMs - 2_000) / 1000)} s over`),
      check('router failures to the caller during the incident', '≤ SDK retries\'', `${pct(router.failedDuring / Math.max(1, router.logicalDuring))} vs ${pct(naive.failedDuring / Math.max(1, naive.logicalDuring))}`,
        router.failedDuring / Math.max(1, router.logicalDuring) <= naive.failedDuring / Math.max(1, naive.logicalDuring), 'more failures than the naive policy'),
    ];
    const notes = [
      `Failed calls by kind (whole run): ${results.map((r) => `${r.arm}: ${Object.entries(r.failures).map(([k, v]) => `${k} ${v}`).join(', ') || 'none'}`).join('; ')}.`,
      `Attempts per logical request in the incident before the router's breaker opened: ${results.map((r) => `${r.arm} ${num(r.amplificationWhileClosed, 2)}`).join(', ')} (after it opened, the router's calls go to the target as a last resort under adaptive throttling, retried within the budget).`,
      ...[router, brownout].map((r) => `${r.arm} breaker transitions (s after the incident began; it healed at ${incidentMs / 1000} s): ${r.breakerEvents.map((e) => `${e.state} at ${num(e.sinceIncidentMs / 1000, 1)}`).join(', ') || 'none'}.`),
    ];
    return {
      name: 'retry-storm', title: this.title,
      method: [
        `Upstream: one simulated OpenAI provider, latency ${latency.baseMs}–${latency.baseMs + latency.jitterMs} ms, capacity ${capacity} answers at once (beyond that: 503 overloaded), 50% of requests answered 503 (no retry-after) for ${incidentMs / 1000} s. A fresh simulator per arm.`,
        `Load: open loop, ${ratePerSec} logical requests per second (latency counts from when each was due), ${preMs / 1000} s before the incident, then until ${minPostMs / 1000} s after it heals (longer while the router's breaker is not closed, up to ${maxPostMs / 1000} s).`,
        'Amplification = upstream attempts (counted at the simulator) during the incident ÷ logical requests due during it.',
        `Steady state = from that moment on, every ${BUCKET_MS} ms bucket of logical requests (by due time) has ≥ 99% successes and ≤ 1.05 upstream attempts per logical request, for at least ${steadyForMs / 1000} s; "time back" counts from the heal.`,
        'Router: one target (same upstream as the baselines), retries, breaker and budgets at their defaults (3 attempts; retry budget 20% of first attempts over 10 s plus 50 retries a window, a tenth of it a second at most; breaker opens above 50% failures over 10 s with ≥ 5 outcomes or after 5 failures in a row; one probe every 5 s; last resort under adaptive throttling, retrying within the budget). The brownout arm differs only in `retry: { budgetPercent: 100 }, breaker: { errorThresholdPercentage: 75, consecutiveFailures: 20 }`.',
      ],
      tables: [{
        columns: ['arm', 'attempts per logical request (incident)', 'failed calls (incident)', 'failed calls (after heal)', 'p99 latency (incident)', 'time back to steady state', '503 / 200 answers (incident)', 'router amplification ÷ this'],
        rows,
      }],
      targets, notes,
      data: { ratePerSec, preMs, incidentMs, latency, capacity, results },
    };
  },
};

function analyse(arm: ArmName, records: CallRecord[], timeline: SimTimeline, t0: number, t1: number, steadyForMs: number, breakerLog: Array<{ atMs: number; state: string }>): ArmResult {
  const breakerEvents = breakerLog.map((e) => ({ sinceIncidentMs: e.atMs - t0, state: e.state }));
  const during = records.filter((r) => r.dueMs >= t0 && r.dueMs < t1);
  const after = records.filter((r) => r.dueMs >= t1);
  const attemptsDuring = countBetween(timeline, 'up', t0, t1);
  const failures: Record<string, number> = {};
  for (const r of records) if (!r.ok) failures[failureLabel(r.error)] = (failures[failureLabel(r.error)] ?? 0) + 1;
  const end = Math.max(...records.map((r) => r.dueMs));
  const buckets: ArmResult['buckets'] = [];
  for (let b = t1; b + BUCKET_MS <= end; b += BUCKET_MS) {
    const inB = records.filter((r) => r.dueMs >= b && r.dueMs < b + BUCKET_MS);
    buckets.push({ fromHealMs: b - t1, logical: inB.length, ok: inB.filter((r) => r.ok).length, attempts: total(countBetween(timeline, 'up', b, b + BUCKET_MS)) });
  }
  const steady = (x: ArmResult['buckets'][number]) => x.logical > 0 && x.ok / x.logical >= 0.99 && x.attempts / x.logical <= 1.05;
  let recoveryMs: number | undefined;
  for (let i = 0; i < buckets.length; i++) {
    const rest = buckets.slice(i);
    if (rest.length * BUCKET_MS >= steadyForMs && rest.every(steady)) {
      recoveryMs = buckets[i]!.fromHealMs;
      break;
    }
  }
  const openedAt = breakerLog.find((e) => e.state === 'open' && e.atMs >= t0 && e.atMs < t1)?.atMs;
  const closedUntil = openedAt ?? t1;
  const closedPhase = records.filter((r) => r.dueMs >= t0 && r.dueMs < closedUntil).length;
  return {
    arm,
    amplification: total(attemptsDuring) / Math.max(1, during.length),
    amplificationWhileClosed: total(countBetween(timeline, 'up', t0, closedUntil)) / Math.max(1, closedPhase),
    attemptsDuring,
    logicalDuring: during.length,
    failedDuring: during.filter((r) => !r.ok).length,
    failedAfter: after.filter((r) => !r.ok).length / Math.max(1, after.length),
    p99DuringMs: quantile(during.filter((r) => r.endMs > 0).map((r) => r.endMs - r.dueMs), 0.99),
    recoveryMs, breakerEvents, failures, buckets,
  };
}
