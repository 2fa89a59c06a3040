import { srcImport } from '../lib/source.js';
import { API_KEY, MODEL, PLAIN_BACKOFF, backoffCall, benchRouter, failureLabel, routerCall, sdkCall, sdkClient } from '../lib/arms.js';
import { ms, num, pct } from '../lib/format.js';
import { eachOf, pacedCallers, type CallRecord } from '../lib/load.js';
import { meanCharge, mixedRequests, rng, type BenchRequest } from '../lib/prompts.js';
import { check, type ScenarioReport, type TargetCheck } from '../lib/report.js';
import type { BenchContext, BenchScenario } from '../lib/scenario.js';
import { countBetween, SimProcess, total } from '../lib/sim-process.js';
import { quantile } from '../lib/stats.js';

// From the harness's source root (lib/source.ts): the working tree, or --ref-now's commit.
const { promptTokenEstimate } = await srcImport<typeof import('../../src/decide/token-estimate.js')>('src/decide/token-estimate.ts');
const { tokenCounter } = await srcImport<typeof import('../../src/policy/tokenizers.js')>('src/policy/tokenizers.ts');

const ARMS = ['router', 'router-heuristic', 'sdk-retries', 'plain-backoff'] as const;
type ArmName = (typeof ARMS)[number];
const LABEL: Record<ArmName, string> = {
  router: 'Switchyard (budgets = the limits; tokenizer auto: characters / 4, raised to tiktoken)',
  'router-heuristic': 'Switchyard (same, tokenizer: heuristic = characters / 4)',
  'sdk-retries': 'SDK retries (maxRetries 2)',
  'plain-backoff': 'plain backoff (4 attempts, full jitter)',
};
const LOADS = [1.5, 3] as const;

interface ArmRun {
  arm: ArmName;
  load: number;
  goodputTpm: number;
  goodputRpm: number;
  /** Successful charge per window over the limit, before correcting for what the bucket held at the span's ends. */
  rawGoodputTpm: number;
  bucketDrift: { tokens: number; requests: number };
  attemptsPerSuccess: number;
  share429: number;
  p95WaitMs: number;
  p95WaitOkMs: number;
  failedShare: number;
  failures: Record<string, number>;
  offeredPerSec: number;
  startedPerSec: number;
  upstream: Record<string, number>;
}

export const goodput: BenchScenario = {
  name: 'goodput',
  title: '2. Goodput under a rate-limited upstream (RPM and TPM), 1.5x and 3x offered load',
  async run(ctx: BenchContext): Promise<ScenarioReport> {
    const q = ctx.quick;
    // Compressed time: a window of 5 s stands for the provider's minute (1 s in --quick).
    const windowMs = q ? 1_000 : 5_000;
    const tpm = Math.round(40_000 * (windowMs / 6_000));
    const rpm = Math.round(100 * (windowMs / 6_000));
    const durationMs = q ? 1_500 : 5 * windowMs;
    // Steady state only: both the provider's buckets and the router's budget start full, and at 1.5x
    // the bucket takes two windows to drain, so the first two windows are not measured (and what the
    // bucket still holds is corrected for, below).
    const skipMs = q ? windowMs : 2 * windowMs;
    // The router's default maxQueueMs (retry.maxInlineWaitMs, 5 s); --quick shortens it to keep the smoke run short.
    const maxQueueMs = q ? 500 : undefined;
    const callers = 50;
    const maxTokens = 200;
    const pool = mixedRequests(500, 11, maxTokens);
    const avgCharge = meanCharge(pool);
    const estimates = await estimateRatios(pool);
    const latency = { baseMs: q ? 25 : 150, jitterMs: q ? 25 : 100 };

    const providers: Record<string, object> = {};
    for (const load of LOADS) for (const arm of ARMS) providers[key(arm, load)] = { type: 'openai', limits: { rpm, tpm, windowMs }, latency };
    const sim = await SimProcess.launch({ seed: 21, providers: providers as never });
    const runs: ArmRun[] = [];
    const windows: Record<string, { fromMs: number; untilMs: number }> = {};
    try {
      const plan = LOADS.flatMap((load, li) => (li % 2 === 0 ? ARMS : [...ARMS].reverse()).map((arm) => ({ arm, load, li })));
      // --quick runs the six arm-loads at once (a smoke test); a measurement runs them one at a time.
      runs.push(...await eachOf(plan, q, async ({ arm, load, li }) => {
        const ratePerSec = (load * tpm) / avgCharge / (windowMs / 1000);
        ctx.log(`goodput: ${arm} at ${load}x (${num(ratePerSec)} req/s offered by ${callers} callers, ${durationMs / 1000} s)`);
        const name = key(arm, load);
        const levels: Level[] = [];
        const { job, close } = makeArm(arm, name, sim.baseURL(name), { rpm, tpm, windowMs }, maxQueueMs, levels);
        const random = rng(1000 + li);
        let n = 0;
        const startMs = Date.now();
        const records = await pacedCallers<unknown>({
          callers, ratePerSec, durationMs, random,
          job: () => job(pool[n++ % pool.length]!),
        });
        await close();
        const fromMs = startMs + skipMs;
        const untilMs = startMs + durationMs;
        windows[name] = { fromMs, untilMs };
        return analyse(arm, load, records, levels, { fromMs, untilMs, windowMs, tpm, rpm, ratePerSec, charge: (r) => (r as { charge: number }).charge });
      }));
      const { timeline } = await sim.stats();
      for (const r of runs) {
        const w = windows[key(r.arm, r.load)]!;
        const up = countBetween(timeline, key(r.arm, r.load), w.fromMs, w.untilMs);
        const attempts = total(up);
        r.upstream = up;
        r.attemptsPerSuccess = attempts / Math.max(1, up['200'] ?? 0);
        r.share429 = (up['429'] ?? 0) / Math.max(1, attempts);
      }
    } finally {
      await sim.close();
    }

    const byArmLoad = (arm: ArmName, load: number) => runs.find((r) => r.arm === arm && r.load === load)!;
    const rows = runs
      .sort((a, b) => a.load - b.load || ARMS.indexOf(a.arm) - ARMS.indexOf(b.arm))
      .map((r) => {
        const base = byArmLoad('router', r.load);
        return [
          `${r.load}x`, LABEL[r.arm], pct(r.goodputTpm), pct(r.goodputRpm), num(r.attemptsPerSuccess, 2), pct(r.share429), ms(r.p95WaitMs), ms(r.p95WaitOkMs), pct(r.failedShare),
          r.arm === 'router' ? '1' : `${num(base.goodputTpm / Math.max(1e-9, r.goodputTpm), 2)}x`,
        ];
      });
    const targets: TargetCheck[] = [];
    for (const arm of ['router', 'router-heuristic'] as const) {
      for (const load of LOADS) {
        const r = byArmLoad(arm, load);
        const who = arm === 'router' ? 'router' : 'router (heuristic)';
        targets.push(check(`${who} goodput at ${load}x`, '≥ 95% of the TPM limit', pct(r.goodputTpm), r.goodputTpm >= 0.95, `${((0.95 - r.goodputTpm) * 100).toFixed(1)} points under`));
        targets.push(check(`${who} 429 share at ${load}x`, '≤ 1% of attempts', pct(r.share429, 2), r.share429 <= 0.01, `${((r.share429 - 0.01) * 100).toFixed(2)} points over`));
      }
    }
    const r3 = byArmLoad('router', 3);
    const sdk3 = byArmLoad('sdk-retries', 3);
    const bo3 = byArmLoad('plain-backoff', 3);
    targets.push(check('router goodput ÷ SDK retries at 3x', '≥ 1.5x', `${num(r3.goodputTpm / sdk3.goodputTpm, 2)}x`, r3.goodputTpm / sdk3.goodputTpm >= 1.5, 'below the ratio'));
    targets.push(check('router goodput ÷ plain backoff at 3x', '≥ 1.25x', `${num(r3.goodputTpm / bo3.goodputTpm, 2)}x`, r3.goodputTpm / bo3.goodputTpm >= 1.25, 'below the ratio'));

    const notes = [
      `Failed calls by kind: ${runs.map((r) => `${r.arm} ${r.load}x: ${Object.entries(r.failures).map(([k, v]) => `${k} ${v}`).join(', ') || 'none'}`).join('; ')}.`,
      `Offered vs started logical requests per second: ${runs.map((r) => `${r.arm} ${r.load}x ${num(r.offeredPerSec)}/${num(r.startedPerSec)}`).join('; ')}.`,
    ];
    notes.push(`Token estimates against what the simulator charges for this prompt mix (prompt part only): the router's default estimate (characters / 4, raised to tiktoken) counts ${pct(estimates.tiktoken)} of it, the heuristic alone ${pct(estimates.heuristic)}; the simulator, like OpenAI's limiter, counts about 4 characters a token.`);
    return {
      name: 'goodput', title: this.title,
      method: [
        `Compressed time: the simulator's RPM/TPM window is ${windowMs / 1000} s instead of 60 s (the router's limits.windowMs matches); all waits, hints and backoff are real milliseconds.`,
        `Upstream: one simulated OpenAI provider per arm and load, ${rpm} requests and ${tpm.toLocaleString('en-US')} tokens per window (continuously refilled buckets; rejected requests still spend a request), latency ${latency.baseMs}–${latency.baseMs + latency.jitterMs} ms, retry-after on every 429.`,
        `Load: ${callers} concurrent paced callers, mixed prompts (100/400/1000/2000 tokens ±20% at 40/30/20/10%, maxTokens ${maxTokens}; mean charge ${num(avgCharge, 0)} tokens), offered at 1.5x and 3x the TPM limit; ${durationMs / 1000} s per arm, the first ${skipMs / windowMs} window(s) not measured.`,
        'Router: one target whose limits (rpm, tpm, windowMs) equal the simulator\'s, retries, breaker and maxQueueMs at their defaults (so a call may queue up to 5 s for room: most of a compressed minute).',
        'Goodput = TPM charge (prompt + max_tokens, as the simulator counts) of successful calls completed in the measured span, per window, over the TPM limit; RPM equivalent = successes per window over the RPM limit. Both are corrected by the change in the simulator\'s bucket level over the span (read from its x-ratelimit-remaining-* headers), so capacity saved up before the span is not counted; the uncorrected figure is in the JSON. Attempts and 429s are counted at the simulator.',
        'p95 wait = 95th percentile of a logical call\'s time from when its caller meant to start it to its end (successes and failures; "ok" = successes only).',
      ],
      tables: [{
        columns: ['load', 'arm', 'goodput (TPM)', 'goodput (RPM eq.)', 'attempts / success', '429 share', 'p95 wait', 'p95 wait (ok)', 'failed calls', 'router goodput ÷ this'],
        rows,
      }],
      targets, notes,
      data: { windowMs, tpm, rpm, durationMs, callers, maxTokens, avgCharge, latency, runs },
    };
  },
};

/** How the router's two token estimates compare with the simulator's charge, for the prompt part. */
async function estimateRatios(pool: readonly BenchRequest[]): Promise<{ tiktoken: number; heuristic: number }> {
  const auto = await tokenCounter(MODEL, 'auto', true);
  const heuristic = await tokenCounter(MODEL, 'heuristic', true);
  let sim = 0, tik = 0, heu = 0;
  for (const r of pool) {
    sim += r.charge - r.maxTokens;
    tik += promptTokenEstimate(r.messages, auto);
    heu += promptTokenEstimate(r.messages, heuristic);
  }
  return { tiktoken: tik / sim, heuristic: heu / sim };
}

function key(arm: ArmName, load: number): string {
  return `${arm}-${String(load).replace('.', '_')}x`;
}

/** The simulator's bucket levels as its rate-limit headers reported them, in arrival order. */
type Level = { atMs: number; tokens: number; requests: number };

function makeArm(arm: ArmName, provider: string, baseURL: string, limits: { rpm: number; tpm: number; windowMs: number }, maxQueueMs: number | undefined, levels: Level[]): { job: (r: BenchRequest) => Promise<unknown>; close: () => Promise<void> } {
  const onHeaders = (h: Headers) => {
    const tokens = Number(h.get('x-ratelimit-remaining-tokens'));
    const requests = Number(h.get('x-ratelimit-remaining-requests'));
    if (Number.isFinite(tokens) && Number.isFinite(requests) && h.has('x-ratelimit-remaining-tokens')) levels.push({ atMs: Date.now(), tokens, requests });
  };
  if (arm === 'router' || arm === 'router-heuristic') {
    const tuned = { ...limits, ...(maxQueueMs === undefined ? {} : { maxQueueMs }), ...(arm === 'router-heuristic' ? { tokenizer: 'heuristic' as const } : {}) };
    const router = benchRouter({
      providers: { [provider]: { type: 'openai', apiKey: API_KEY, baseURL, timeoutMs: 30_000, limits: tuned } },
      chains: { default: [`${provider}:${MODEL}`] },
      log: { level: 'silent' },
    });
    router.on('ratelimit', (e) => {
      if (e.tokens?.remaining !== undefined && e.requests?.remaining !== undefined) levels.push({ atMs: Date.now(), tokens: e.tokens.remaining, requests: e.requests.remaining });
    });
    return { job: async (r) => (await routerCall(router, r), r), close: () => router.close() };
  }
  if (arm === 'sdk-retries') {
    const client = sdkClient(baseURL, 2, 30_000, onHeaders);
    return { job: async (r) => (await sdkCall(client, r), r), close: async () => {} };
  }
  const client = sdkClient(baseURL, 0, 30_000, onHeaders);
  const random = rng(99);
  return { job: async (r) => (await backoffCall(client, r, PLAIN_BACKOFF, random), r), close: async () => {} };
}

function analyse(
  arm: ArmName, load: number, records: CallRecord<unknown>[], levels: Level[],
  o: { fromMs: number; untilMs: number; windowMs: number; tpm: number; rpm: number; ratePerSec: number; charge: (value: unknown) => number },
): ArmRun {
  const windowsMeasured = (o.untilMs - o.fromMs) / o.windowMs;
  const done = records.filter((r) => r.ok && r.endMs >= o.fromMs && r.endMs < o.untilMs);
  const tokens = done.reduce((s, r) => s + o.charge(r.value), 0);
  // The simulator's buckets start full and refill continuously, so a span can spend capacity saved up
  // before it. Counting what the bucket held at each end of the span (its own headers) removes that:
  // goodput = (successful charge + level at the end − level at the start) ÷ what refilled in the span.
  const levelAt = (t: number) => [...levels].reverse().find((l) => l.atMs <= t) ?? levels[0];
  const a = levelAt(o.fromMs);
  const b = levelAt(o.untilMs);
  const drift = a && b ? { tokens: b.tokens - a.tokens, requests: b.requests - a.requests } : { tokens: 0, requests: 0 };
  const measured = records.filter((r) => r.dueMs >= o.fromMs && r.dueMs < o.untilMs && r.endMs > 0);
  const waits = measured.map((r) => r.endMs - r.dueMs);
  const okWaits = measured.filter((r) => r.ok).map((r) => r.endMs - r.dueMs);
  const failures: Record<string, number> = {};
  for (const r of measured) if (!r.ok) failures[failureLabel(r.error)] = (failures[failureLabel(r.error)] ?? 0) + 1;
  return {
    arm, load,
    goodputTpm: (tokens + drift.tokens) / windowsMeasured / o.tpm,
    goodputRpm: (done.length + drift.requests) / windowsMeasured / o.rpm,
    rawGoodputTpm: tokens / windowsMeasured / o.tpm,
    bucketDrift: drift,
    attemptsPerSuccess: Number.NaN, share429: Number.NaN, upstream: {},
    p95WaitMs: quantile(waits, 0.95),
    p95WaitOkMs: quantile(okWaits, 0.95),
    failedShare: measured.filter((r) => !r.ok).length / Math.max(1, measured.length),
    failures,
    offeredPerSec: o.ratePerSec,
    startedPerSec: measured.length / ((o.untilMs - o.fromMs) / 1000),
  };
}
