import { afterEach, describe, expect, it } from 'vitest';
import { isRouterError } from '../../src/errors.js';
import { createRouter, type Router } from '../../src/router.js';
import { startSimulator, type Simulator } from '../../src/sim/index.js';
import { MemoryStore } from '../../src/store/memory-store.js';
import type { ChatRequest } from '../../src/types.js';
import { setMaxTokensMeaning } from '../../src/convert/max-tokens-meaning.js';
import { captureLogger } from '../support/capture-logger.js';
import { until } from '../support/until.js';
import { VirtualClock } from '../support/virtual-clock.js';

// A lone Anthropic target whose account another process has just spent (the simulator's
// `startEmpty`): every bucket is empty at the first request and refills continuously over real
// 60 s windows. An output-heavy load offers three times what OTPM admits. All on one virtual clock.

let cleanup: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const fn of cleanup.reverse()) await fn();
  cleanup = [];
});

const MODEL = 'claude-sonnet-4-6';
/** The limits of the reference's recorded headers, as the console states them. */
const CONSOLE = { rpm: 1_000, itpm: 80_000, otpm: 16_000 };
const prompt = (i: number) => `Question ${i}: ${'figure of the quarterly sales report '.repeat(65)}`;
/** Each reserves 400 output tokens and writes about 173 (thinking, then the answer). */
// maxTokens in Anthropic's meaning (thinking included), as /v1/messages sends it: the router adds no thinking budget on top.
const request = (i: number): ChatRequest => withAnthropicMaxTokens({ messages: [{ role: 'user', content: prompt(i) }], maxTokens: 400, reasoning: { effort: 'medium' } });

interface Ended { ok: boolean; output: number; startAt: number; endAt: number; error?: unknown }

async function run(limits: Record<string, number>, durationMs: number) {
  const clock = new VirtualClock({ autoAdvance: false });
  const t0 = clock.now();
  const arrivals: Array<{ at: number; status?: number }> = [];
  const simulator: Simulator = await startSimulator({
    clock, onRequest: (e) => void arrivals.push({ at: clock.now() - t0, status: e.status }),
    providers: { anthropic: { type: 'anthropic', limits: { ...CONSOLE, tpm: 150_000_000, startEmpty: true } } },
  });
  cleanup.push(() => simulator.stop());
  // Counts the leases out, so the clock moves only once every request sent has come back.
  const store = new MemoryStore();
  let out = 0;
  const acquire = store.acquireBudget.bind(store);
  const settle = store.settleBudget.bind(store);
  const release = store.releaseBudget.bind(store);
  store.acquireBudget = (req, now) => {
    const grant = acquire(req, now);
    if (grant.ok) out++;
    return grant;
  };
  store.settleBudget = (...args) => (out--, settle(...args));
  store.releaseBudget = (key, id, sent, now) => (sent || out--, release(key, id, sent, now));
  const router: Router = createRouter({
    providers: { anthropic: { type: 'anthropic', apiKey: 'sk-sim-anthropic', baseURL: simulator.baseURL('anthropic'), limits } },
    chains: { default: [`anthropic:${MODEL}`] },
  }, { logger: captureLogger().logger, clock, store });
  cleanup.push(() => router.close());

  // Three times what OTPM admits: 16,000 a minute at ~173 written a call is ~1.54 calls a second.
  const intervalMs = 1_000 / ((3 * CONSOLE.otpm) / 60 / 173);
  const ended: Ended[] = [];
  const calls: Promise<void>[] = [];
  let due = 0;
  let n = 0;
  for (let t = 0; t < durationMs; t += 100) {
    for (; due <= t; due += intervalMs) {
      const startAt = clock.now() - t0;
      calls.push(router.chat(request(n++)).then(
        (r) => void ended.push({ ok: true, output: r.usage!.outputTokens, startAt, endAt: clock.now() - t0 }),
        (error: unknown) => void ended.push({ ok: false, output: 0, startAt, endAt: clock.now() - t0, error }),
      ));
    }
    await until(() => out === 0, 'every request sent to come back');
    await clock.advance(100);
  }
  await router.close(); // ends every wait still queued (as aborted): the run is over
  await Promise.all(calls);
  return { arrivals, ended: ended.filter((e) => e.endAt < durationMs), offered: n };
}

describe('an account that starts empty is paced at the rate its bucket refills', () => {
  it.each([
    ['the limits as the console states them', CONSOLE],
    ['no limits at all (learned from the first answer\'s headers)', {}],
  ])('with %s: one 429 (the first request), then the queue goes out as the bucket refills, and OTPM is filled', async (_, limits) => {
    const durationMs = 180_000;
    const { arrivals, ended } = await run(limits, durationMs);

    // Only the very first request finds the account empty: no storm after its cooling, none later.
    expect(arrivals.filter((a) => a.status === 429).map((a) => a.at)).toEqual([0]);
    // Requests reach the provider at the refill rate (~1.54 a second), never in a burst of the
    // calls queued meanwhile (dozens): at most 3 in any virtual second, 13 to 18 in every 10 s.
    const perSecond = new Map<number, number>();
    for (const a of arrivals) perSecond.set(Math.floor(a.at / 1_000), (perSecond.get(Math.floor(a.at / 1_000)) ?? 0) + 1);
    expect(Math.max(...perSecond.values())).toBeLessThanOrEqual(3);
    for (let s = 0; s < durationMs / 1_000; s += 10) {
      let tens = 0;
      for (let i = s; i < s + 10; i++) tens += perSecond.get(i) ?? 0;
      expect(tens, `requests between ${s} and ${s + 10} s`).toBeGreaterThanOrEqual(13);
      expect(tens, `requests between ${s} and ${s + 10} s`).toBeLessThanOrEqual(18);
    }
    // Goodput over the whole run, the empty start included: at least 95% of the 48,000 output tokens
    // OTPM admits in three minutes from nothing.
    const written = ended.filter((e) => e.ok).reduce((sum, e) => sum + e.output, 0);
    expect(written / ((CONSOLE.otpm * durationMs) / 60_000)).toBeGreaterThanOrEqual(0.95);
    expect(written).toBeLessThanOrEqual((CONSOLE.otpm * durationMs) / 60_000);
    // Two thirds of the load cannot be served: those calls fail only after waiting their whole
    // queue limit (5 s by default), never while a wait still fitted.
    const failed = ended.filter((e) => !e.ok);
    expect(failed.length).toBeGreaterThan(0);
    for (const f of failed) {
      expect(isRouterError(f.error) && f.error.kind).toBe('exhausted');
      expect(f.endAt - f.startAt).toBeGreaterThanOrEqual(5_000);
    }
  }, 120_000);
});

function withAnthropicMaxTokens(request: ChatRequest): ChatRequest {
  setMaxTokensMeaning(request, 'anthropic');
  return request;
}
