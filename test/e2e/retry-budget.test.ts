import { describe, expect, it } from 'vitest';
import { resolveConfig } from '../../src/config/index.js';
import { RETRY_BUDGET_FLOOR } from '../../src/decide/retry-budget.js';
import type { RouterEvents } from '../../src/observe/events.js';
import { OPENAI_PATH, openaiBodies, openaiOk } from '../support/fixtures.js';
import type { Upstream } from '../support/upstream.js';
import { upstreamPerTest } from '../support/upstream-per-test.js';
import { VirtualClock } from '../support/virtual-clock.js';
import { mulberry32 } from '../../src/sim/random.js';
import { ask, rejectionOf, wireRouter } from '../support/wire-router.js';

let up: Upstream;
const close = upstreamPerTest((u) => (up = u));

/** A breaker that never opens on its own, so only the budget decides (the last test opens it on purpose). */
const QUIET_BREAKER = { volumeThreshold: 1_000_000, consecutiveFailures: 1_000_000, lastResort: false };
const fail503 = () => ({ status: 503, body: openaiBodies.overloaded503 });

const setup = (overrides: Parameters<typeof wireRouter>[1] = {}, random = () => 0) => {
  const clock = new VirtualClock();
  const w = wireRouter(up, { chains: { default: ['openai:gpt-4o-mini'] }, ...overrides }, { timeoutMs: 60_000, clock, random });
  const attempts: Array<RouterEvents['attempt']> = [];
  w.router.on('attempt', (e) => attempts.push(e));
  close.push(() => w.router.close());
  return { ...w, clock, attempts };
};

describe('retry budget (retry.budgetPercent over a rolling 10 s, spent evenly)', () => {
  it('keeps a floor of 50 retries a window by default', () => {
    expect(resolveConfig({ providers: { a: { type: 'openai', apiKey: 'k' } }, chains: { default: ['a:m'] } }).retry).toMatchObject({ budgetPercent: 20, budgetMinRetries: RETRY_BUDGET_FLOOR });
    expect(RETRY_BUDGET_FLOOR).toBe(50);
  });

  it('lets a burst retry on the floor, then spends budgetPercent of first attempts a tenth a second, and refuses beyond, saying so', async () => {
    const { router, openai, attempts, clock } = setup({ retry: { maxAttempts: 2, budgetPercent: 50, budgetMinRetries: 10, baseDelayMs: 10, maxDelayMs: 40 }, breaker: QUIET_BREAKER });
    up.otherwise(OPENAI_PATH, fail503);
    const tries = (e: { attempts: Array<{ skipped?: boolean }> }) => e.attempts.filter((x) => !x.skipped).length;
    const burst = [];
    for (let i = 0; i < 40; i++) burst.push(await rejectionOf(router.chat(ask())));
    // 40 first attempts within one second: the window would allow 40 × 50% + 10 = 30 retries, but one
    // second spends at most a tenth of that (3) or the floor (10): the floor goes to the first 10 calls.
    expect(burst.map(tries)).toEqual([...new Array(10).fill(2), ...new Array(30).fill(1)]);
    expect(openai()).toBe(40 + 10);
    // A refused retry: the attempt event says the budget was spent, the call fails as exhausted, naming it.
    expect(burst[10].kind).toBe('exhausted');
    expect(burst[10].message).toContain('retry budget of 50% spent');
    const spent = attempts.filter((e) => e.retryBudgetSpent);
    expect(spent).toHaveLength(30);
    expect(spent.every((e) => e.attempt === 1 && e.status === 503)).toBe(true);
    // A retried failure carries no such flag.
    expect(attempts[0]).toMatchObject({ attempt: 1, status: 503 });
    expect(attempts[0]!.retryBudgetSpent).toBeUndefined();
    // The next second, the floor spent: a tenth of a whole window's allowance at the rate so far. After
    // its k-th first attempt the counts hold 40 + k over 9.05 s (nine whole seconds, and the 50 ms the
    // burst's ten retries waited: 5 ms each, half the 10 ms base), so this second has room for
    // ((40 + k) × 10 / 9.05 × 50% + 10) / 10: a retry at k = 1, 2, 3, then 15 and 33, not the window's 30.
    await clock.advance(1_000);
    const next = [];
    for (let i = 0; i < 40; i++) next.push(await rejectionOf(router.chat(ask())));
    expect(next.map((e, k) => (tries(e) === 2 ? k + 1 : 0)).filter(Boolean)).toEqual([1, 2, 3, 15, 33]);
    expect(openai()).toBe(50 + 40 + 5);
  });

  it('falls through to the next target when the budget refuses a retry', async () => {
    const { router, openai, anthropic } = setup({ chains: { default: ['openai:gpt-4o-mini', 'anthropic:claude-sonnet-4-6'] }, retry: { budgetPercent: 0 }, breaker: QUIET_BREAKER });
    up.script(OPENAI_PATH, fail503());
    const res = await router.chat(ask());
    expect(res.provider).toBe('anthropic');
    expect([openai(), anthropic()]).toEqual([1, 1]);
  });

  it('rolls: after 10 s without traffic the spent budget has room again', async () => {
    const { router, openai, clock } = setup({ retry: { maxAttempts: 2, budgetPercent: 0.0001, budgetMinRetries: 10, baseDelayMs: 10, maxDelayMs: 40 }, breaker: QUIET_BREAKER });
    up.otherwise(OPENAI_PATH, fail503);
    for (let i = 0; i < 12; i++) await rejectionOf(router.chat(ask()));
    expect(openai()).toBe(12 + 10); // the floor only
    await rejectionOf(router.chat(ask()));
    expect(openai()).toBe(23); // still spent
    await clock.advance(9_000);
    await rejectionOf(router.chat(ask()));
    expect(openai()).toBe(24); // the retries of the first second are still in the window
    await clock.advance(2_000);
    await rejectionOf(router.chat(ask()));
    expect(openai()).toBe(26); // they left it: a retry again
  });

  it('budgetPercent: 0 turns off retries after a 5xx, but a 429 still waits on its hint and retries', async () => {
    const { router, openai } = setup({ retry: { budgetPercent: 0 }, breaker: QUIET_BREAKER });
    up.script(OPENAI_PATH, fail503());
    const err = await rejectionOf(router.chat(ask()));
    expect(err.kind).toBe('exhausted');
    expect(openai()).toBe(1);
    up.script(OPENAI_PATH, { status: 429, headers: { 'retry-after-ms': '100' }, body: openaiBodies.rateLimitRequests });
    await router.chat(ask());
    expect(openai()).toBe(3);
  });

  it('a chain step\'s budgetPercent overrides retry.budgetPercent', async () => {
    const { router, openai } = setup({ chains: { default: [{ provider: 'openai', model: 'gpt-4o-mini', budgetPercent: 0 }] }, retry: { budgetPercent: 100 }, breaker: QUIET_BREAKER });
    up.script(OPENAI_PATH, fail503());
    await rejectionOf(router.chat(ask()));
    expect(openai()).toBe(1);
  });

  it('a lone target behind an open breaker gets budgeted retries on its last resort, and its breaker stays to its probe', async () => {
    // random 0.9: adaptive throttling allows the last resort; jitter at 90% of the backoff.
    const { router, openai, breaker } = (() => {
      const s = setup({ retry: { maxAttempts: 3, baseDelayMs: 10, maxDelayMs: 40 }, breaker: { consecutiveFailures: 2, resetTimeoutMs: 60_000 } }, () => 0.9);
      return { ...s, breaker: () => s.router.breakerStates().openai };
    })();
    // Call 1: two 503s in a row open the breaker; the retry it was granted goes out as the last resort.
    up.script(OPENAI_PATH, fail503(), fail503());
    const first = await router.chat(ask());
    expect(first.attempts.map((a) => [a.kind ?? 'ok', a.skipped ?? false])).toEqual([['server', false], ['server', false], ['circuit_open', true], ['ok', false]]);
    expect(openai()).toBe(3);
    expect(breaker()).toBe('open');
    // Call 2, breaker open: last resort answered 503, retried within the budget, answered.
    up.script(OPENAI_PATH, fail503());
    const second = await router.chat(ask());
    expect(second.attempts.map((a) => [a.kind ?? 'ok', a.skipped ?? false])).toEqual([['circuit_open', true], ['server', false], ['ok', false]]);
    expect(openai()).toBe(5);
    expect(breaker()).toBe('open');
  });

  it('without budget the same lone target fails at one attempt a call behind its open breaker', async () => {
    const { router, openai } = setup({ retry: { maxAttempts: 3, baseDelayMs: 10, maxDelayMs: 40, budgetPercent: 0 }, breaker: { consecutiveFailures: 2, resetTimeoutMs: 60_000 } }, () => 0.9);
    up.script(OPENAI_PATH, fail503(), fail503(), fail503());
    await rejectionOf(router.chat(ask()));
    await rejectionOf(router.chat(ask()));
    expect(router.breakerStates().openai).toBe('open');
    const err = await rejectionOf(router.chat(ask()));
    expect(err.kind).toBe('exhausted');
    expect(err.attempts.map((a: { kind?: string; skipped?: boolean }) => [a.kind, a.skipped ?? false])).toEqual([['circuit_open', true], ['server', false]]);
    expect(openai()).toBe(3);
  });

  it.each([
    [{ retry: { budgetPercent: -1 } }, 'retry.budgetPercent'],
    [{ retry: { budgetPercent: 'lots' } }, 'retry.budgetPercent'],
    [{ retry: { budgetMinRetries: 1.5 } }, 'retry.budgetMinRetries'],
    [{ chains: { default: [{ provider: 'a', model: 'm', budgetPercent: 5000 }] } }, 'chains.default[0].budgetPercent'],
  ])('rejects a bad budget, naming the field (%j)', (bad, path) => {
    let err: any;
    try {
      resolveConfig({ providers: { a: { type: 'openai', apiKey: 'k' } }, chains: { default: ['a:m'] }, ...bad } as any);
    } catch (e) {
      err = e;
    }
    expect(err?.kind).toBe('config');
    expect(err.message).toContain(path);
  });
});

describe('a lone target in a brownout (seeded: half its requests answered 503)', () => {
  /** 300 calls 5 ms apart (200 a second) on the virtual clock, the default breaker; failed share and attempts per call. */
  const brownout = async (retry: Record<string, number>, breaker: Record<string, number> = {}) => {
    const clock = new VirtualClock();
    const w = wireRouter(up, { chains: { default: ['openai:gpt-4o-mini'] }, retry, breaker }, { timeoutMs: 60_000, clock, random: mulberry32(5) });
    close.push(() => w.router.close());
    const coin = mulberry32(11);
    up.otherwise(OPENAI_PATH, () => (coin() < 0.5 ? fail503() : openaiOk()));
    let failed = 0;
    const calls = 300;
    for (let i = 0; i < calls; i++) {
      await w.router.chat(ask()).catch(() => failed++);
      await clock.advance(5);
    }
    return { failed: failed / calls, attemptsPerCall: w.openai() / calls };
  };

  it('at 20% with no floor, from a cold start, fails under 45% of calls at 1.1-1.15 attempts each, not 50% at 1.0', async () => {
    // Measured 43.7% at 1.13: a cold window spends a tenth of its few first attempts' 20% a second
    // (before the pacing, 40.7% at 1.19); the floor, off here, is what serves a cold start.
    const r = await brownout({ budgetMinRetries: 0 });
    expect(r.attemptsPerCall).toBeGreaterThan(1.1);
    expect(r.attemptsPerCall).toBeLessThanOrEqual(1.15);
    expect(r.failed).toBeLessThan(0.45);
  });

  it('with budgetPercent 100 fails under 19% at under 1.75 attempts each', async () => {
    // Measured 18.7% at 1.73: the breaker opens, and adaptive throttling refuses some last resorts.
    const r = await brownout({ budgetPercent: 100 });
    expect(r.attemptsPerCall).toBeLessThanOrEqual(1.75);
    expect(r.failed).toBeLessThan(0.19);
  });

  it('with the documented brownout setting (budget 100%, a breaker that tolerates half failing) the breaker stays closed and fewer calls fail', async () => {
    // Expected 12.5% failed at 1.75 attempts (three attempts, each a coin); this seed's 300 calls give
    // 14.3% at 1.85 (sampling error ±2% / ±0.05; the run is deterministic, so the bounds sit just above
    // it): the 15% / 1.8 target is the bench's, over ~3,000 calls.
    const r = await brownout({ budgetPercent: 100 }, { errorThresholdPercentage: 75, consecutiveFailures: 20 });
    expect(r.attemptsPerCall).toBeLessThanOrEqual(1.87);
    expect(r.failed).toBeLessThan(0.15);
  });
});
