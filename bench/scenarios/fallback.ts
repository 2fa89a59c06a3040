import type { ChatResult } from '../../src/types.js';
import { API_KEY, MODEL, ROOMY_LIMITS, UNLIMITED_SIM, benchRouter, failureLabel, routerCall } from '../lib/arms.js';
import { ms, num, seconds } from '../lib/format.js';
import { eachOf, openLoop, type CallRecord } from '../lib/load.js';
import { request } from '../lib/prompts.js';
import { check, type ScenarioReport, type TargetCheck } from '../lib/report.js';
import type { BenchContext, BenchScenario } from '../lib/scenario.js';
import { SimProcess } from '../lib/sim-process.js';
import { median, quantile } from '../lib/stats.js';

const MODES = ['refuse', '503', 'hang'] as const;
type Mode = (typeof MODES)[number];
const LABEL: Record<Mode, string> = {
  refuse: 'refuses connections (closed port)',
  '503': 'answers 503',
  hang: 'accepts, never answers',
};

interface ModeResult {
  mode: Mode;
  userErrors: number;
  userErrorsDuringOutage: number;
  callsDuringOutage: number;
  /** ms after the outage began until, from then on to its end, ≥ 99% of new calls succeed on the secondary without sending the primary anything. */
  fallbackMs: number | undefined;
  breakerOpenMs: number | undefined;
  primaryFailuresBeforeOpen: number;
  inFlightAtOutage: number;
  inFlightAddedMsMedian: number;
  inFlightAddedMsMax: number;
  outageP50Ms: number;
  outageP99Ms: number;
  steadyP50Ms: number;
  readmitMs: number | undefined;
  probes: number | undefined;
  breaker: Array<{ sinceOutageMs: number; state: string }>;
  failures: Record<string, number>;
  /** The first few user-visible errors, with when they were due (s after the outage began). */
  failureExamples: string[];
}

interface PrimaryAttempt {
  atMs: number;
  ok: boolean;
  skipped: boolean;
}

export const fallback: BenchScenario = {
  name: 'fallback',
  title: '4. Time to fall back when the primary goes down, and to re-admit it',
  async run(ctx: BenchContext): Promise<ScenarioReport> {
    const q = ctx.quick;
    const ratePerSec = q ? 50 : 100;
    const timeoutMs = 1_000;
    const breaker = q ? { windowMs: 1_000, resetTimeoutMs: 800 } : {};
    const resetTimeoutMs = breaker.resetTimeoutMs ?? 30_000;
    const preMs = q ? 800 : 10_000; // a full breaker window of successes, as in steady production
    const outageMs = q ? 1_000 : 15_000;
    const latency = { baseMs: 30, jitterMs: 10 };
    const req = request('Classify this ticket: my invoice is wrong.', 64);
    const results: ModeResult[] = [];

    // --quick runs the three modes at once (a smoke test); a measurement runs them one at a time.
    results.push(...await eachOf(MODES, q, async (mode): Promise<ModeResult> => {
      const setupMs = 1_000;
      const fromMs = setupMs + preMs;
      const untilMs = fromMs + outageMs;
      const faults = mode === '503' ? [{ fault: 'unavailable' as const, fromMs, untilMs }]
        : mode === 'hang' ? [{ fault: 'hang' as const, fromMs, untilMs }] : [];
      const primary = await SimProcess.launch({ seed: 41, providers: { primary: { type: 'openai', limits: UNLIMITED_SIM, latency, faults } } });
      const secondary = await SimProcess.launch({ seed: 42, providers: { secondary: { type: 'openai', limits: UNLIMITED_SIM, latency } } });
      const router = benchRouter({
        providers: {
          primary: { type: 'openai', apiKey: API_KEY, baseURL: primary.baseURL('primary'), timeoutMs, limits: ROOMY_LIMITS },
          secondary: { type: 'openai', apiKey: API_KEY, baseURL: secondary.baseURL('secondary'), timeoutMs, limits: ROOMY_LIMITS },
        },
        chains: { default: [`primary:${MODEL}`, `secondary:${MODEL}`] },
        breaker,
        log: { level: 'silent' },
      });
      const breakerLog: Array<{ atMs: number; state: string }> = [];
      const primaryAttempts: PrimaryAttempt[] = [];
      router.on('breaker', (e) => {
        if (e.key === 'primary') breakerLog.push({ atMs: Date.now(), state: e.state });
      });
      router.on('attempt', (e) => {
        if (e.provider === 'primary') primaryAttempts.push({ atMs: Date.now(), ok: e.ok, skipped: e.skipped === true });
      });
      try {
        let t0 = primary.ready.startedAtMs + fromMs;
        let t1 = primary.ready.startedAtMs + untilMs;
        await new Promise((r) => setTimeout(r, Math.max(0, primary.ready.startedAtMs + setupMs - Date.now())));
        ctx.log(`fallback: primary ${LABEL[mode]} for ${outageMs / 1000} s after ${preMs / 1000} s, ${ratePerSec} req/s`);
        if (mode === 'refuse') {
          // The process stays; its listener and every connection go, so the port refuses connections.
          const port = primary.ready.port;
          setTimeout(() => void primary.stop().then((at) => {
            t0 = at;
            setTimeout(() => void primary.start({ seed: 41, port, providers: { primary: { type: 'openai', limits: UNLIMITED_SIM, latency } } }).then(() => {
              t1 = Date.now();
            }), outageMs);
          }), Math.max(0, t0 - Date.now()));
        }
        // Re-admitted: the breaker's last word is "closed" and the primary has answered since then (and since it recovered).
        const readmitted = () => {
          const last = breakerLog[breakerLog.length - 1];
          if (last && last.state !== 'closed') return false;
          const since = Math.max(t1, last?.atMs ?? 0);
          return primaryAttempts.some((a) => a.ok && !a.skipped && a.atMs >= since);
        };
        const records = await openLoop<ChatResult>({
          ratePerSec,
          maxDurationMs: preMs + outageMs + resetTimeoutMs + (q ? 1_500 : 8_000),
          keepGoing: () => Date.now() < t1 + (q ? 500 : 2_000) || !readmitted(),
          drainMs: 5_000,
          job: () => routerCall(router, req),
        });
        return analyse(mode, records, t0, t1, breakerLog, primaryAttempts);
      } finally {
        await router.close();
        await primary.close();
        await secondary.close();
      }
    }));

    const rows = results.map((r) => [
      LABEL[r.mode], `${r.userErrors} (${r.userErrorsDuringOutage} in outage)`, r.fallbackMs === undefined ? 'not reached' : ms(r.fallbackMs),
      r.breakerOpenMs === undefined ? 'never opened' : `${ms(r.breakerOpenMs)} (${r.primaryFailuresBeforeOpen} failures)`,
      `${ms(r.outageP50Ms)} / ${ms(r.outageP99Ms)}`, `${r.inFlightAtOutage}: +${ms(r.inFlightAddedMsMedian)} / +${ms(r.inFlightAddedMsMax)}`,
      r.readmitMs === undefined ? 'not within the run' : `${seconds(r.readmitMs)} (${r.probes === undefined ? 'breaker never opened' : `${r.probes} probe${r.probes === 1 ? '' : 's'}`})`,
    ]);
    const targets: TargetCheck[] = [];
    for (const r of results) {
      targets.push(check(`${r.mode}: user-visible errors`, '0', String(r.userErrors), r.userErrors === 0, `${r.userErrors} errors`));
      if (r.mode !== 'hang') {
        const fast = r.breakerOpenMs !== undefined && (r.primaryFailuresBeforeOpen <= 3 || r.breakerOpenMs <= 100);
        targets.push(check(`${r.mode}: detection`, '≤ 3 failures or ≤ 100 ms', r.breakerOpenMs === undefined ? 'breaker never opened' : `${r.primaryFailuresBeforeOpen} failures, ${ms(r.breakerOpenMs)}`, fast,
          r.breakerOpenMs === undefined ? 'never detected' : `${r.primaryFailuresBeforeOpen - 3} failures and ${num(r.breakerOpenMs - 100)} ms over`));
      } else {
        const ok = r.fallbackMs !== undefined && r.fallbackMs <= timeoutMs + 50;
        targets.push(check('hang: time to fall back', `≤ attempt timeout + 50 ms (${timeoutMs + 50} ms)`, r.fallbackMs === undefined ? 'not reached' : ms(r.fallbackMs), ok,
          r.fallbackMs === undefined ? 'never within the outage' : `${num(r.fallbackMs - timeoutMs - 50)} ms over`));
      }
      const re = r.readmitMs !== undefined && r.readmitMs <= 5_000 && (r.probes === 1 || r.probes === undefined);
      targets.push(check(`${r.mode}: re-admission`, '≤ 5 s, exactly 1 probe', r.readmitMs === undefined ? 'not within the run' : `${seconds(r.readmitMs)}, ${r.probes ?? 'no'} probe(s)`, re,
        r.readmitMs === undefined ? 'not re-admitted' : `${num((r.readmitMs - 5_000) / 1000)} s over`));
    }
    const notes = [
      `Failed calls by kind: ${results.map((r) => `${r.mode}: ${Object.entries(r.failures).map(([k, v]) => `${k} ${v}`).join(', ') || 'none'}`).join('; ')}.`,
      ...results.filter((r) => r.failureExamples.length).map((r) => `First user-visible errors (${r.mode}): ${r.failureExamples.join(' | ')}`),
      `Breaker transitions (s since the outage began; it recovered at ${outageMs / 1000} s): ${results.map((r) => `${r.mode}: ${r.breaker.map((b) => `${b.state} ${num(b.sinceOutageMs / 1000, 2)}`).join(', ') || 'none'}`).join('; ')}.`,
      `Steady-state p50 latency before the outage: ${results.map((r) => `${r.mode} ${ms(r.steadyP50Ms)}`).join(', ')}.`,
    ];
    return {
      name: 'fallback', title: this.title,
      method: [
        `Two simulators, each in its own process: primary and secondary, latency ${latency.baseMs}–${latency.baseMs + latency.jitterMs} ms. Router: chain primary → secondary, per-attempt timeoutMs ${timeoutMs}, budgets on, retries and breaker at their defaults${q ? ` except (--quick) breaker windowMs ${breaker.windowMs}, resetTimeoutMs ${breaker.resetTimeoutMs}` : ' (opens above 50% failures over 10 s with ≥ 5 outcomes or after 5 failures in a row; one probe every 5 s; last resort under adaptive throttling)'}.`,
        `Load: open loop, ${ratePerSec} calls/s; ${preMs / 1000} s of normal service (a full breaker window), then the primary goes down for ${outageMs / 1000} s; the run continues until the primary is re-admitted.`,
        'Modes: "refuses connections" stops the primary\'s listener and drops its connections (the port then refuses); "answers 503" and "never answers" are simulator faults (unavailable, hang) for requests arriving in the outage.',
        'Time to fall back = from the outage\'s start until, for every call due from then to the end of the outage, ≥ 99% succeed on the secondary without a request to the primary (an open-circuit skip counts as no request). Detection = when the breaker opened, and how many failed primary attempts it took.',
        'In-flight added latency = latency of calls due before the outage and finished after it began, minus the steady p50. Re-admission = from the primary\'s recovery to the first success on it; probes = primary requests sent while half-open.',
      ],
      tables: [{
        columns: ['primary', 'user-visible errors', 'time to fall back (99% on secondary)', 'breaker opened after', 'p50 / p99 latency in outage', 'in flight at outage: added p50 / max', 're-admitted after recovery'],
        rows,
      }],
      targets, notes,
      data: { ratePerSec, timeoutMs, preMs, outageMs, latency, breaker, results },
    };
  },
};

function analyse(mode: Mode, records: CallRecord<ChatResult>[], t0: number, t1: number, breakerLog: Array<{ atMs: number; state: string }>, attempts: PrimaryAttempt[]): ModeResult {
  const done = records.filter((r) => r.endMs > 0);
  const lat = (r: CallRecord) => r.endMs - r.dueMs;
  const steady = done.filter((r) => r.endMs < t0 && r.dueMs > t0 - 5_000);
  const steadyP50Ms = median(steady.map(lat));
  const outage = done.filter((r) => r.dueMs >= t0 && r.dueMs < t1).sort((a, b) => a.dueMs - b.dueMs);
  const clean = (r: CallRecord<ChatResult>) => r.ok && r.value!.provider === 'secondary' && !r.value!.attempts.some((a) => a.provider === 'primary' && !a.skipped);
  // Earliest call from which the rest of the outage is ≥ 99% clean (and at least a tenth of the outage remains).
  let fallbackMs: number | undefined;
  let cleanAfter = 0;
  const minTail = Math.max(10, Math.floor(outage.length / 10));
  for (let i = outage.length - 1; i >= 0; i--) {
    if (clean(outage[i]!)) cleanAfter++;
    const n = outage.length - i;
    if (n >= minTail && cleanAfter / n >= 0.99) fallbackMs = outage[i]!.dueMs - t0;
  }
  const open = breakerLog.find((b) => b.state === 'open' && b.atMs >= t0);
  const inFlight = done.filter((r) => r.dueMs < t0 && r.endMs > t0);
  const added = inFlight.map((r) => lat(r) - steadyP50Ms);
  // Re-admission: the breaker's final close after the recovery (or, if it never opened, the first primary success after it).
  const last = breakerLog[breakerLog.length - 1];
  const closedAt = last?.state === 'closed' && last.atMs >= t1 ? last.atMs : undefined;
  const readmit = !last ? attempts.find((a) => a.ok && !a.skipped && a.atMs >= t1)?.atMs : closedAt;
  const halfOpen = closedAt === undefined ? undefined : [...breakerLog].reverse().find((b) => b.state === 'halfOpen' && b.atMs <= closedAt);
  const probes = closedAt !== undefined && halfOpen ? attempts.filter((a) => !a.skipped && a.atMs >= halfOpen.atMs && a.atMs <= closedAt).length : undefined;
  const failures: Record<string, number> = {};
  const examples = new Set<string>();
  for (const r of records) {
    if (r.ok) continue;
    failures[failureLabel(r.error)] = (failures[failureLabel(r.error)] ?? 0) + 1;
    if (examples.size < 3) examples.add(`${((r.dueMs - t0) / 1000).toFixed(2)} s: ${String((r.error as Error)?.message ?? r.error).slice(0, 300)}`);
  }
  return {
    mode,
    failureExamples: [...examples],
    userErrors: records.filter((r) => !r.ok).length,
    userErrorsDuringOutage: records.filter((r) => !r.ok && r.dueMs >= t0 && r.dueMs < t1).length,
    callsDuringOutage: outage.length,
    fallbackMs,
    breakerOpenMs: open ? open.atMs - t0 : undefined,
    primaryFailuresBeforeOpen: attempts.filter((a) => !a.ok && !a.skipped && a.atMs >= t0 && (!open || a.atMs <= open.atMs)).length,
    inFlightAtOutage: inFlight.length,
    inFlightAddedMsMedian: added.length ? median(added) : 0,
    inFlightAddedMsMax: added.length ? Math.max(...added) : 0,
    outageP50Ms: quantile(outage.map(lat), 0.5),
    outageP99Ms: quantile(outage.map(lat), 0.99),
    steadyP50Ms,
    readmitMs: readmit !== undefined ? readmit - t1 : undefined,
    probes,
    breaker: breakerLog.map((b) => ({ sinceOutageMs: b.atMs - t0, state: b.state })),
    failures,
  };
}
