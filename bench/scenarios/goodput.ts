import { analyse, type ArmResult, type CaseLimits } from '../lib/goodput-analyse.js';
import { anthropicArm, anthropicBody, exhaust, openaiArm, type Arm, type Spent } from '../lib/goodput-arms.js';
import { API_KEY } from '../lib/arms.js';
import { ms, num, pct } from '../lib/format.js';
import { eachOf, pacedCallers } from '../lib/load.js';
import { meanCharge, request, rng, textOfTokens, type BenchRequest } from '../lib/prompts.js';
import { check, type ScenarioReport, type TargetCheck } from '../lib/report.js';
import type { BenchContext, BenchScenario } from '../lib/scenario.js';
import { SimProcess } from '../lib/sim-process.js';

/** One way the provider enforces its limits, and the arms run against it. */
interface Case {
  id: 'minute' | 'second' | 'anthropic' | 'empty';
  label: string;
  api: 'openai' | 'anthropic';
  arms: readonly string[];
  /** What the simulator enforces. */
  sim: CaseLimits & { quantumMs?: number; startEmpty?: boolean };
  /** What the router is given: the limits as the console states them (no `windowMs`: a real minute). */
  console: { rpm: number; tpm?: number; itpm?: number; otpm?: number; windowMs?: number };
  promptCache?: { readShare: number };
  /** Spend the provider's windows to nothing first (a per-second bucket holds too little to matter). */
  exhausted: boolean;
  /** Goodput over the whole run, the start included (else after the first window). */
  wholeRun?: boolean;
  /** Its own length and window (real-length windows), and its arms run side by side. */
  durationMs?: number;
}

const LABEL: Record<string, string> = {
  router: 'Switchyard (limits as the console states them)',
  'router-wide': 'Switchyard, starting with a whole window as its burst (learns the bucket)',
  'sdk-retries': 'SDK retries (maxRetries 2)',
  'plain-backoff': 'plain backoff (4 attempts, full jitter)',
};

/**
 * Case (d): the limits of the reference's recorded Anthropic headers (1,000 RPM, 80,000 ITPM, 16,000
 * OTPM) over real minutes, three of them; --quick compresses it to a 6 s window at a tenth.
 */
const EMPTY_START = {
  rpm: 1_000, itpm: 80_000, otpm: 16_000, durationMs: 180_000,
  limits(quick: boolean): { rpm: number; itpm: number; otpm: number; windowMs: number } {
    const f = quick ? 0.1 : 1;
    return { rpm: this.rpm * f, itpm: this.itpm * f, otpm: this.otpm * f, windowMs: 60_000 * f };
  },
};

/** Prompts of about `sizes` tokens (token, share), ±20%, each with `maxTokens`. */
function pool(n: number, seed: number, sizes: ReadonlyArray<[number, number]>, maxTokens: number): BenchRequest[] {
  const random = rng(seed);
  return Array.from({ length: n }, (_, i) => {
    let u = random();
    let size = sizes[sizes.length - 1]![0];
    for (const [tokens, share] of sizes) {
      if (u < share) {
        size = tokens;
        break;
      }
      u -= share;
    }
    return request(`Request ${i}: ${textOfTokens(Math.round(size * (0.8 + 0.4 * random())), random)}`, maxTokens);
  });
}

export const goodput: BenchScenario = {
  name: 'goodput',
  title: '2. Goodput at 3x the limit: per-minute from an exhausted account, per-second enforcement, Anthropic ITPM/OTPM, an empty Anthropic account over real minutes',
  async run(ctx: BenchContext): Promise<ScenarioReport> {
    const q = ctx.quick;
    // Compressed time: a window of 6 s stands for the provider's minute (1.2 s in --quick), so
    // "per second" is a 100 ms quantum. --quick also runs at a fifth of the rates.
    const windowMs = q ? 1_200 : 6_000;
    const scale = (perMinute: number) => Math.round(((perMinute * windowMs) / 6_000) * (q ? 1 / 5 : 1));
    const rpm = scale(600);
    const tpm = scale(60_000);
    const durationMs = q ? 1_500 : 5 * windowMs;
    const skipMs = q ? 300 : windowMs;
    const callers = 50;
    const maxQueueMs = q ? 300 : undefined;

    const openaiPool = pool(400, 31, [[40, 0.4], [80, 0.4], [160, 0.2]], 40);
    const claudePool = pool(200, 37, [[600, 1]], 400);
    const openaiLimits = { rpm, tpm, windowMs };
    const cases: Case[] = [
      { id: 'minute', label: '(a) per-minute, from an exhausted account', api: 'openai', arms: ['router', 'sdk-retries', 'plain-backoff'], sim: openaiLimits, console: openaiLimits, exhausted: true },
      {
        id: 'second', label: '(b) the same limits enforced per second', api: 'openai', arms: ['router', 'router-wide', 'sdk-retries', 'plain-backoff'],
        sim: { ...openaiLimits, quantumMs: Math.round(windowMs / (q ? 6 : 60)) }, console: openaiLimits, exhausted: false,
      },
      {
        id: 'anthropic', label: '(c) Anthropic RPM + ITPM + OTPM, output-heavy, 75% of each prompt cached', api: 'anthropic', arms: ['router', 'sdk-retries'],
        sim: { rpm, tpm: 150_000_000, itpm: scale(30_000), otpm: scale(12_000), windowMs },
        console: { rpm, itpm: scale(30_000), otpm: scale(12_000), windowMs },
        promptCache: { readShare: 0.75 }, exhausted: true,
      },
      {
        // Real minutes (compressed only in --quick): the console's limits as they are, no windowMs.
        id: 'empty', label: '(d) lone Anthropic target, account already spent (empty buckets), real 60 s windows', api: 'anthropic', arms: ['router', 'sdk-retries'],
        sim: { ...EMPTY_START.limits(q), tpm: 150_000_000, startEmpty: true },
        console: q ? EMPTY_START.limits(q) : { rpm: EMPTY_START.rpm, itpm: EMPTY_START.itpm, otpm: EMPTY_START.otpm },
        exhausted: false, wholeRun: true, durationMs: q ? 2_400 : EMPTY_START.durationMs,
      },
    ];
    const providers: Record<string, object> = {};
    const latency = { baseMs: q ? 25 : 150, jitterMs: q ? 25 : 100 };
    for (const c of cases) for (const arm of c.arms) providers[`${c.id}-${arm}`] = { type: c.api, limits: c.sim, latency, ...(c.promptCache ? { promptCache: c.promptCache } : {}) };
    providers['probe'] = { type: 'anthropic', promptCache: { readShare: 0.75 } };
    const sim = await SimProcess.launch({ seed: 23, providers: providers as never });

    const results: ArmResult[] = [];
    try {
      const outputPerCall = await meanOutput(sim.baseURL('probe'), claudePool.slice(0, 8));
      const demand: Record<Case['id'], number> = {
        // 3x what the binding window admits, in requests a second.
        minute: (3 * tpm) / meanCharge(openaiPool) / (windowMs / 1000),
        second: (3 * tpm) / meanCharge(openaiPool) / (windowMs / 1000),
        anthropic: (3 * scale(12_000)) / outputPerCall / (windowMs / 1000),
        empty: (3 * EMPTY_START.limits(q).otpm) / outputPerCall / (EMPTY_START.limits(q).windowMs / 1000),
      };
      const plan = cases.flatMap((c) => c.arms.map((arm) => ({ c, arm })));
      const spans: Array<{ c: Case; arm: string; startMs: number; fromMs: number; untilMs: number; records: Awaited<ReturnType<typeof pacedCallers<Spent>>> }> = [];
      const runArm = async ({ c, arm }: { c: Case; arm: string }, i: number) => {
        const name = `${c.id}-${arm}`;
        const ratePerSec = demand[c.id];
        const armMs = c.durationMs ?? durationMs;
        ctx.log(`goodput: ${c.id} / ${arm} (${num(ratePerSec)} req/s offered by ${callers} callers, ${armMs / 1000} s)`);
        if (c.exhausted) await exhaust(c.api, sim.baseURL(name));
        const a: Arm = c.api === 'openai'
          ? openaiArm(arm as never, name, sim.baseURL(name), c.console, maxQueueMs)
          : anthropicArm(arm as never, name, sim.baseURL(name), c.console, maxQueueMs);
        const requests = c.api === 'openai' ? openaiPool : claudePool;
        let n = 0;
        const startMs = Date.now();
        const records = await pacedCallers<Spent>({ callers, ratePerSec, durationMs: armMs, random: rng(1000 + i), job: () => a.job(requests[n++ % requests.length]!) });
        await a.close();
        spans.push({ c, arm, startMs, fromMs: startMs + (c.wholeRun ? 0 : skipMs), untilMs: startMs + armMs, records });
      };
      // Cases of compressed minutes one arm at a time; a case of real minutes runs its arms side by
      // side (they are rate-bound, not CPU-bound, and each has its own simulated account).
      const indexed = plan.map((p, i) => ({ ...p, i }));
      await eachOf(indexed.filter((p) => !p.c.durationMs), q, (p) => runArm(p, p.i));
      await Promise.all(indexed.filter((p) => p.c.durationMs).map((p) => runArm(p, p.i)));
      const { timeline } = await sim.stats();
      for (const s of spans) results.push(analyse(s.c.id, s.arm, s.records, timeline, `${s.c.id}-${s.arm}`, s, s.c.sim, demand[s.c.id], maxQueueMs));
      return report(ctx, cases, results, { windowMs, durationMs, skipMs, callers, latency, outputPerCall, meanCharge: meanCharge(openaiPool), demand });
    } finally {
      await sim.close();
    }
  },
};

/** What an answer of the Anthropic pool writes, on average (thinking and text): it sets the offered load. */
async function meanOutput(baseURL: string, sample: readonly BenchRequest[]): Promise<number> {
  const { default: Anthropic } = await import('@anthropic-ai/sdk');
  const client = new Anthropic({ apiKey: API_KEY, baseURL, maxRetries: 0 });
  let out = 0;
  for (const r of sample) out += ((await client.messages.create(anthropicBody(r.messages, r.maxTokens) as never)) as unknown as { usage: { output_tokens: number } }).usage.output_tokens;
  return out / sample.length;
}

function report(ctx: BenchContext, cases: Case[], results: ArmResult[], data: Record<string, unknown>): ScenarioReport {
  const of = (id: string, arm: string) => results.find((r) => r.case === id && r.arm === arm)!;
  const rows = cases.flatMap((c) => c.arms.map((arm) => {
    const r = of(c.id, arm);
    const base = of(c.id, 'router');
    return [
      c.label, LABEL[arm]!, `${pct(r.goodput)} (${r.binding.toUpperCase()})`, pct(r.goodputWholeRun),
      Object.entries(r.byLimit).map(([k, v]) => `${k.toUpperCase()} ${pct(v)}`).join(', ') + (r.itpmUsed === undefined ? '' : `, ITPM ${pct(r.itpmUsed)}`),
      num(r.attemptsPerSuccess, 2), pct(r.share429, 2), pct(r.share429WholeRun, 2), pct(r.failedShare), arm.startsWith('router') ? String(r.failedWithinQueue) : '–', ms(r.p95WaitMs),
      arm === 'router' ? '1' : `${num(base.goodput / Math.max(1e-9, r.goodput), 2)}x`,
    ];
  }));
  const targets: TargetCheck[] = [];
  const smoke = ctx.quick;
  for (const c of cases) {
    const r = of(c.id, 'router');
    const whole = c.wholeRun ? ' over the whole run' : '';
    targets.push(check(`${c.id}: router goodput${whole}`, '≥ 95% of what the provider admits', pct(r.goodput), smoke ? null : r.goodput >= 0.95, `${((0.95 - r.goodput) * 100).toFixed(1)} points under`));
    targets.push(check(`${c.id}: attempts answered 429 (whole run, start included)`, '≤ 2%', pct(r.share429WholeRun, 2), smoke ? null : r.share429WholeRun <= 0.02, `${((r.share429WholeRun - 0.02) * 100).toFixed(2)} points over`));
    if (c.wholeRun) {
      targets.push(check(`${c.id}: router calls failed while their queue limit allowed the wait`, '0', String(r.failedWithinQueue), smoke ? null : r.failedWithinQueue === 0, 'failed instead of waiting'));
    }
  }
  const claude = of('anthropic', 'router');
  const itpm = cases.find((c) => c.id === 'anthropic')!.sim.itpm!;
  const inputPerWindow = (claude.itpmUsed ?? 0) * itpm + (claude.cachedPerWindow ?? 0);
  targets.push(check(
    'anthropic: prompt-cached input does not consume ITPM', 'input per window above ITPM, goodput ≥ 95%',
    `${pct(inputPerWindow / itpm)} of ITPM in, ${pct(claude.itpmUsed ?? 0)} counted`, smoke ? null : inputPerWindow > itpm && claude.goodput >= 0.95, 'cached input held back',
  ));
  const notes = [
    `Failed calls by kind: ${results.map((r) => `${r.case}/${r.arm}: ${Object.entries(r.failures).map(([k, v]) => `${k} ${v}`).join(', ') || 'none'}`).join('; ')}.`,
    `Upstream attempts in the measured span by status: ${results.map((r) => `${r.case}/${r.arm}: ${Object.entries(r.upstream).map(([k, v]) => `${k} ${v}`).join(', ')}`).join('; ')}.`,
    `Logical calls offered vs started a second (a caller whose call is still waiting or retrying starts its next when it ends, so a router that queues calls, or an SDK that retries, pushes back on the offered load): ${results.map((r) => `${r.case}/${r.arm} ${num(r.offeredPerSec)}/${num(r.startedPerSec)}`).join('; ')}.`,
  ];
  return {
    name: 'goodput', title: goodput.title,
    method: [
      `Compressed time: the simulator's windows are ${Number(data.windowMs) / 1000} s instead of 60 s (the router's limits.windowMs matches), so "per second" is a ${Math.round(Number(data.windowMs) / 60)} ms quantum; every wait, hint and backoff is in real ms.`,
      `One simulated provider per case and arm; for (a) and (c) it is spent to nothing just before its arm starts (an exhausted account), so what it can admit over a span is exactly its limits times the span's windows ((b)'s buckets hold a sixtieth of that: too little to matter). Continuously refilled buckets; rejected requests still spend a request; latency ${(data.latency as { baseMs: number }).baseMs}–${(data.latency as { baseMs: number; jitterMs: number }).baseMs + (data.latency as { jitterMs: number }).jitterMs} ms; retry-after on every 429.`,
      `(a), (b): 600 RPM / 60k TPM a (compressed) minute; prompts of 40/80/160 tokens ±20% at 40/40/20% with maxTokens 40 (mean TPM charge ${num(Number(data.meanCharge), 0)}: TPM binds). (b) enforces them as buckets of a sixtieth (10 requests, 1,000 tokens).`,
      `(c): Anthropic 600 RPM, 30k ITPM, 12k OTPM; prompts of about 600 tokens, 75% of each read from the prompt cache (not counted toward ITPM), maxTokens 400 with adaptive thinking at medium effort (${num(Number(data.outputPerCall), 0)} output tokens an answer): OTPM binds; counted whole, the prompts would make ITPM bind at two thirds of it.`,
      `(d): a lone Anthropic target whose account another process has just spent: every bucket (${num(EMPTY_START.rpm, 0)} RPM, ${num(EMPTY_START.itpm, 0)} ITPM, ${num(EMPTY_START.otpm, 0)} OTPM, the reference's recorded headers) is empty at the arm's first request and refills continuously over real 60 s windows; the router is given \`limits: { rpm, itpm, otpm }\` as the console states them (no windowMs); (c)'s prompts without the prompt cache, 3x OTPM offered for ${EMPTY_START.durationMs / 1000} s, both arms side by side on their own accounts; goodput and 429s over the whole run from the empty start. "Failed within queue limit": router calls that failed though their error named a target back within what their queue limit (5 s) had left.`,
      `Load: ${data.callers} paced callers offering 3x what the binding window admits; ${Number(data.durationMs) / 1000} s per arm; goodput over the span after the first window (and over the whole run in its own column); the router's maxQueueMs at its default (5 s).`,
      'Goodput = what successful calls spent of the binding window (TPM: prompt + max_tokens as the limiter counts; OTPM: output tokens) per window, over the limit. Attempts and 429s are counted at the simulator.',
    ],
    tables: [{
      columns: ['case', 'arm', 'goodput (binding)', 'goodput, whole run', 'each limit', 'attempts / success', '429 share', '429 share, whole run', 'failed calls', 'failed within queue limit', 'p95 wait', 'router goodput ÷ this'],
      rows,
    }],
    targets, notes, data: { ...data, results },
  };
}
