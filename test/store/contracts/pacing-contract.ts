import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { BudgetLimits, BudgetSettlement, BudgetStore } from '../../../src/store/budget-store.js';
import { T0, type Close, type Make } from './kit.js';

/**
 * Pacing, learning the provider's bucket, and Anthropic's input and output windows: the part of the
 * budgets role that `burstMs`, `itpm`, `otpm` and `settleBudget` add. Run by budgetContract.
 */
export function pacingContract<S extends BudgetStore>(name: string, makeStore: Make<S>, close: Close<S>) {
  const key = () => `pace-${randomUUID()}`;
  const take = (store: S, k: string, limits: BudgetLimits, now: number, tokens = 1, extra: { inputTokens?: number; outputTokens?: number } = {}) => {
    const leaseId = randomUUID();
    return Promise.resolve(store.acquireBudget({ key: k, limits, tokens, ...extra, leaseId, leaseTtlMs: 120_000 }, now)).then((g) => ({ ...g, leaseId }));
  };
  /** How many of `n` acquisitions at one instant are granted. */
  const burst = async (store: S, k: string, limits: BudgetLimits, now: number, n = 30) => {
    const grants = [];
    for (let i = 0; i < n; i++) grants.push(await take(store, k, limits, now));
    return grants.filter((g) => g.ok);
  };
  const settle = (store: S, k: string, leaseId: string, s: BudgetSettlement, now: number) => Promise.resolve(store.settleBudget(k, leaseId, s, now));

  describe(`${name}: pacing and the provider's bucket`, () => {
    // 600 a minute with a second's worth at once: a burst of 10, then one every 100 ms.
    const paced: BudgetLimits = { rpm: 600, windowMs: 60_000, burstMs: 1_000 };

    it('lets out a burst of burstMs worth of the limit, then one request per 1/rpm of the window', async () => {
      const store = await makeStore();
      const k = key();
      expect(await burst(store, k, paced, T0)).toHaveLength(10);
      expect(await take(store, k, paced, T0)).toMatchObject({ ok: false, reason: 'rpm', retryInMs: 100 });
      expect((await take(store, k, paced, T0 + 100)).ok).toBe(true);
      expect(await take(store, k, paced, T0 + 150)).toMatchObject({ ok: false, reason: 'rpm', retryInMs: 50 });
      await close(store);
    });

    it('keeps the rolling window as a cap over the bucket', async () => {
      const store = await makeStore();
      const k = key();
      // The bucket (all 4 at once, refilled one per 2.5 s) would let a fifth through at 2.5 s; the window does not.
      const limits = { rpm: 4, windowMs: 10_000, burstMs: 10_000 };
      expect(await burst(store, k, limits, T0)).toHaveLength(4);
      expect(await take(store, k, limits, T0 + 2_500)).toMatchObject({ ok: false, reason: 'rpm', retryInMs: 7_500 });
      expect((await take(store, k, limits, T0 + 10_000)).ok).toBe(true);
      await close(store);
    });

    it('paces tokens too, letting a request larger than the burst go when the bucket is full and owe the rest', async () => {
      const store = await makeStore();
      const k = key();
      // 6,000 tokens a minute: 100 a second at once, 0.1 a ms.
      const limits = { tpm: 6_000, windowMs: 60_000, burstMs: 1_000 };
      expect((await take(store, k, limits, T0, 250)).ok).toBe(true);
      // 150 owed: 10 more fit once the bucket is back at 10, 1.6 s later.
      expect(await take(store, k, limits, T0, 10)).toMatchObject({ ok: false, reason: 'tpm', retryInMs: 1_600 });
      expect((await take(store, k, limits, T0 + 1_600, 10)).ok).toBe(true);
      await close(store);
    });

    it('gives a request that never reached the provider back to the bucket', async () => {
      const store = await makeStore();
      const k = key();
      const [first] = await burst(store, k, paced, T0);
      await store.releaseBudget(k, first!.leaseId, false, T0);
      expect((await take(store, k, paced, T0)).ok).toBe(true);
      expect((await take(store, k, paced, T0)).ok).toBe(false);
      await close(store);
    });

    it('holds a request larger than its burst until the bucket holds all of it, once a report shows the provider\'s bucket can', async () => {
      const store = await makeStore();
      const k = key();
      // 16,000 output tokens a minute, a second's worth (267) at once; each request reserves 400.
      const limits = { otpm: 16_000, windowMs: 60_000, burstMs: 1_000 };
      const first = await take(store, k, limits, T0, 1, { outputTokens: 400 });
      expect(first.ok).toBe(true); // larger than the burst: it goes with the bucket full, in debt
      // Its 429 reports an empty output bucket a whole minute deep (an account another process spent).
      const report = { outputTokens: { limit: 16_000, remaining: 0, resetMs: 60_000 } };
      await settle(store, k, first.leaseId, { rateLimited: true, snapshot: report }, T0 + 25);
      // The provider takes a request only with its 400 tokens all there: 400 at 16,000 a minute is 1.5 s
      // (not the 133 of a halved burst, half a second, which it would refuse).
      expect(await take(store, k, limits, T0 + 25, 1, { outputTokens: 400 })).toMatchObject({ ok: false, reason: 'otpm', retryInMs: 1_500 });
      expect(await take(store, k, limits, T0 + 1_000, 1, { outputTokens: 400 })).toMatchObject({ ok: false, reason: 'otpm', retryInMs: 525 });
      expect((await take(store, k, limits, T0 + 1_525, 1, { outputTokens: 400 })).ok).toBe(true);
      await close(store);
    });

    it('halves the burst after a 429 on a request it admitted, once for the requests already out', async () => {
      const store = await makeStore();
      const k = key();
      const out = await burst(store, k, paced, T0);
      // Every one of the ten comes back 429 (no headers): the provider's bucket is smaller than ten.
      for (const g of out) await settle(store, k, g.leaseId, { rateLimited: true }, T0 + 200);
      // Once the bucket has had time to fill again, it lets out only half as many at once.
      expect(await burst(store, k, paced, T0 + 60_000)).toHaveLength(5);
      await close(store);
    });

    it('grows a shrunk burst back slowly, by a sixteenth of its size per answer with room', async () => {
      const store = await makeStore();
      const k = key();
      const [first] = await burst(store, k, paced, T0);
      await settle(store, k, first!.leaseId, { rateLimited: true }, T0 + 10);
      const later = await burst(store, k, paced, T0 + 60_000);
      expect(later).toHaveLength(5);
      for (const g of later.slice(0, 4)) await settle(store, k, g.leaseId, {}, T0 + 60_010);
      // 5 + 4 × 10/16 = 7.5: seven at once.
      expect(await burst(store, k, paced, T0 + 120_000)).toHaveLength(7);
      await close(store);
    });

    it('shrinks the burst at once to the bucket the provider reports (remaining + reset × limit / window)', async () => {
      const store = await makeStore();
      const k = key();
      const wide = { rpm: 600, windowMs: 60_000, burstMs: 5_000 };
      const [first] = await burst(store, k, wide, T0, 1);
      // 3 left, full again in 400 ms at 10 a second: a bucket of 7 (per-second enforcement, say).
      await settle(store, k, first!.leaseId, { snapshot: { requests: { limit: 600, remaining: 3, resetMs: 400 } } }, T0);
      expect(await burst(store, k, wide, T0 + 60_000)).toHaveLength(7);
      await close(store);
    });

    it('takes the bucket the provider reports when it is larger, until a 429; after one it grows a sixteenth at a time', async () => {
      const store = await makeStore();
      const k = key();
      // A per-minute bucket: 590 left and full again in a second, at 10 a second: 600.
      const roomy = { snapshot: { requests: { limit: 600, remaining: 590, resetMs: 1_000 } } };
      const [first] = await burst(store, k, paced, T0, 1);
      await settle(store, k, first!.leaseId, roomy, T0);
      const out = await burst(store, k, paced, T0 + 60_000, 200);
      expect(out).toHaveLength(200);
      // A 429 halves the burst, 600 to 300; the provider's next report no longer sets it back at once.
      await settle(store, k, out[0]!.leaseId, { rateLimited: true }, T0 + 60_000);
      const after = await burst(store, k, paced, T0 + 120_000, 400);
      expect(after).toHaveLength(300);
      await settle(store, k, after[0]!.leaseId, roomy, T0 + 120_000);
      // 300 + 10/16, not 600.
      expect(await burst(store, k, paced, T0 + 180_000, 400)).toHaveLength(300);
      await close(store);
    });

    it('counts the requests admitted after one when its answer reports what the provider has left', async () => {
      const store = await makeStore();
      const k = key();
      const [first] = await burst(store, k, {}, T0, 1);
      await settle(store, k, first!.leaseId, { snapshot: { requests: { remaining: 10, resetMs: 60_000 } } }, T0);
      const out = await burst(store, k, {}, T0);
      expect(out).toHaveLength(10);
      // The first answer says 9 left: as of that request, before the other nine reached the provider.
      await settle(store, k, out[0]!.leaseId, { snapshot: { requests: { remaining: 9, resetMs: 60_000 } } }, T0);
      expect(await take(store, k, {}, T0)).toMatchObject({ ok: false, reason: 'provider' });
      await close(store);
    });

    it('subtracts what is still in flight when the first report comes back on a request sent before any', async () => {
      const store = await makeStore();
      const k = key();
      const out = await burst(store, k, {}, T0, 5);
      expect(out).toHaveLength(5);
      // 6 left after the first, and four more are on their way: room for two.
      await settle(store, k, out[0]!.leaseId, { snapshot: { requests: { remaining: 6, resetMs: 60_000 } } }, T0);
      expect(await burst(store, k, {}, T0, 5)).toHaveLength(2);
      await close(store);
    });

    it('never refills a configured pace past its own model when the provider reports more room than the limit allows', async () => {
      const store = await makeStore();
      const k = key();
      // The account allows far more than the 600 a minute configured (a limit kept below the console's).
      const out = await burst(store, k, paced, T0, 10);
      expect(out).toHaveLength(10);
      await settle(store, k, out[0]!.leaseId, { snapshot: { requests: { limit: 10_000, remaining: 9_999, resetMs: 6 } } }, T0 + 50);
      // The configured pace has refilled half a request in 50 ms: nothing goes yet, one goes at 100 ms.
      expect(await take(store, k, paced, T0 + 50)).toMatchObject({ ok: false, reason: 'rpm', retryInMs: 50 });
      expect((await take(store, k, paced, T0 + 100)).ok).toBe(true);
      expect(await take(store, k, paced, T0 + 100)).toMatchObject({ ok: false, reason: 'rpm' });
      await close(store);
    });

    it('takes a report as of SYNC_LAG_MS after its request left, so jitter finds slack rather than an empty bucket', async () => {
      const store = await makeStore();
      const k = key();
      const wide = { rpm: 600, windowMs: 60_000, burstMs: 5_000 };
      const out = await burst(store, k, wide, T0, 10);
      // The tenth found 0 left; its answer comes 200 ms later. Refill counts from 25 ms after it left: 1.75 requests.
      await settle(store, k, out[9]!.leaseId, { snapshot: { requests: { limit: 600, remaining: 0, resetMs: 1_000 } } }, T0 + 200);
      expect((await take(store, k, wide, T0 + 200)).ok).toBe(true);
      expect(await take(store, k, wide, T0 + 200)).toMatchObject({ ok: false, reason: 'rpm', retryInMs: 25 });
      await close(store);
    });
  });

  describe(`${name}: input and output token windows (ITPM, OTPM)`, () => {
    const limits: BudgetLimits = { itpm: 1_000, otpm: 500, windowMs: 60_000 };

    it('reserves the prompt against itpm and the output against otpm, each on its own', async () => {
      const store = await makeStore();
      const k = key();
      expect((await take(store, k, limits, T0, 1_000, { inputTokens: 600, outputTokens: 400 })).ok).toBe(true);
      expect(await take(store, k, limits, T0, 300, { inputTokens: 100, outputTokens: 200 })).toMatchObject({ ok: false, reason: 'otpm', retryInMs: 60_000 });
      expect(await take(store, k, limits, T0, 500, { inputTokens: 500, outputTokens: 0 })).toMatchObject({ ok: false, reason: 'itpm', retryInMs: 60_000 });
      expect((await take(store, k, limits, T0, 400, { inputTokens: 400, outputTokens: 100 })).ok).toBe(true);
      await close(store);
    });

    it('gives back the output a call did not write and the input the provider did not count', async () => {
      const store = await makeStore();
      const k = key();
      const a = await take(store, k, limits, T0, 1_000, { inputTokens: 900, outputTokens: 450 });
      // 100 output tokens written; 600 of the prompt read from the cache.
      await settle(store, k, a.leaseId, { charge: { outputTokens: -350, inputTokens: -600 } }, T0 + 10);
      expect((await take(store, k, limits, T0 + 20, 1_000, { inputTokens: 700, outputTokens: 400 })).ok).toBe(true);
      await close(store);
    });

    it('charges usage above the reservation from when it was reported', async () => {
      const store = await makeStore();
      const k = key();
      const a = await take(store, k, limits, T0, 100, { inputTokens: 100, outputTokens: 100 });
      await settle(store, k, a.leaseId, { charge: { outputTokens: 300 } }, T0 + 30_000);
      expect(await take(store, k, limits, T0 + 60_001, 1, { inputTokens: 1, outputTokens: 201 })).toMatchObject({ ok: false, reason: 'otpm', retryInMs: 29_999 });
      await close(store);
    });

    it('refuses a prompt larger than the whole itpm, or an output reservation larger than the whole otpm, as too large', async () => {
      const store = await makeStore();
      expect(await take(store, key(), limits, T0, 1_001, { inputTokens: 1_001, outputTokens: 0 })).toMatchObject({ ok: false, reason: 'too_large' });
      expect(await take(store, key(), limits, T0, 501, { inputTokens: 1, outputTokens: 501 })).toMatchObject({ ok: false, reason: 'too_large' });
      await close(store);
    });

    it('corrects its output window from the provider\'s output-tokens headers', async () => {
      const store = await makeStore();
      const k = key();
      const own = { otpm: 6_000, windowMs: 60_000, burstMs: 60_000 };
      const a = await take(store, k, own, T0, 10, { inputTokens: 10, outputTokens: 100 });
      // The provider reports 1,000 output tokens left (other clients spend the account too), full again in 50 s.
      await settle(store, k, a.leaseId, { snapshot: { outputTokens: { limit: 6_000, remaining: 1_000, resetMs: 50_000 } } }, T0);
      expect(await take(store, k, own, T0, 10, { inputTokens: 10, outputTokens: 1_100 })).toMatchObject({ ok: false, reason: 'otpm', retryInMs: 1_000 });
      expect((await take(store, k, own, T0, 10, { inputTokens: 10, outputTokens: 1_000 })).ok).toBe(true);
      await close(store);
    });
  });
}
