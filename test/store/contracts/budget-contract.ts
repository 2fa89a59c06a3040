import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { BudgetLimits, BudgetStore } from '../../../src/store/budget-store.js';
import { pacingContract } from './pacing-contract.js';
import { T0, type Close, type Make } from './kit.js';

/** The budgets role: rolling windows, concurrency leases, and the provider's reported headroom; then pacing. */
export function budgetContract<S extends BudgetStore>(name: string, makeStore: Make<S>, close: Close<S>) {
  const key = () => `test-${randomUUID()}`;
  const take = (store: S, k: string, limits: BudgetLimits, now: number, tokens = 10, leaseId = randomUUID()) =>
    Promise.resolve(store.acquireBudget({ key: k, limits, tokens, leaseId, leaseTtlMs: 30_000 }, now)).then((g) => ({ ...g, leaseId }));

  describe(`${name}: the budgets role`, () => {
    it('admits exactly rpm requests in a rolling window and says when the oldest leaves it', async () => {
      const store = await makeStore();
      const k = key();
      const limits = { rpm: 5, windowMs: 60_000 };
      for (let i = 0; i < 5; i++) expect((await take(store, k, limits, T0 + i * 1000)).ok).toBe(true);
      const denied = await take(store, k, limits, T0 + 10_000);
      expect(denied).toMatchObject({ ok: false, reason: 'rpm', retryInMs: 50_000 });
      expect((await take(store, k, limits, T0 + 60_001)).ok).toBe(true);
      await close(store);
    });

    it('admits tokens up to tpm and computes when enough will have left the window', async () => {
      const store = await makeStore();
      const k = key();
      const limits = { tpm: 1000, windowMs: 60_000 };
      expect((await take(store, k, limits, T0, 400)).ok).toBe(true);
      expect((await take(store, k, limits, T0 + 1000, 400)).ok).toBe(true);
      expect(await take(store, k, limits, T0 + 2000, 400)).toMatchObject({ ok: false, reason: 'tpm', retryInMs: 58_000 });
      expect((await take(store, k, limits, T0 + 2000, 200)).ok).toBe(true);
      await close(store);
    });

    it('refuses a request larger than the whole token budget as too large', async () => {
      const store = await makeStore();
      expect(await take(store, key(), { tpm: 1000 }, T0, 1001)).toMatchObject({ ok: false, reason: 'too_large' });
      await close(store);
    });

    it('holds concurrency slots until released, and frees a dead holder\'s slot after its lease', async () => {
      const store = await makeStore();
      const k = key();
      const limits = { concurrency: 2 };
      const a = await take(store, k, limits, T0);
      const b = await take(store, k, limits, T0);
      expect([a.ok, b.ok]).toEqual([true, true]);
      expect(await take(store, k, limits, T0)).toMatchObject({ ok: false, reason: 'concurrency' });
      await store.releaseBudget(k, a.leaseId, true, T0 + 10);
      expect((await take(store, k, limits, T0 + 10)).ok).toBe(true);
      expect((await take(store, k, limits, T0 + 20)).ok).toBe(false);
      expect((await take(store, k, limits, T0 + 30_001)).ok).toBe(true); // b's lease expired
      await close(store);
    });

    it('gives back the request and tokens of a lease that never reached the provider, but not of one that did', async () => {
      const store = await makeStore();
      const k = key();
      const limits = { rpm: 1, tpm: 100 };
      const a = await take(store, k, limits, T0, 100);
      await store.releaseBudget(k, a.leaseId, false, T0);
      const b = await take(store, k, limits, T0, 100);
      expect(b.ok).toBe(true);
      await store.releaseBudget(k, b.leaseId, true, T0);
      expect((await take(store, k, limits, T0, 1)).ok).toBe(false);
      await close(store);
    });

    it('charges the tokens an estimate missed, as settled, against the window from then on', async () => {
      const store = await makeStore();
      const k = key();
      const limits = { tpm: 1000 };
      const a = await take(store, k, limits, T0, 100);
      await store.settleBudget(k, a.leaseId, { charge: { tokens: 850 } }, T0 + 5);
      expect(await take(store, k, limits, T0 + 10, 100)).toMatchObject({ ok: false, reason: 'tpm' });
      expect((await take(store, k, limits, T0 + 10, 50)).ok).toBe(true);
      // The reservation leaves the window with its request, the charge 5 ms later.
      expect(await take(store, k, limits, T0 + 60_001, 101)).toMatchObject({ ok: false, reason: 'tpm', retryInMs: 4 });
      await close(store);
    });

    it('never admits more than the provider said it has left, until its reset', async () => {
      const store = await makeStore();
      const k = key();
      const a = await take(store, k, {}, T0);
      await store.settleBudget(k, a.leaseId, { snapshot: { requests: { remaining: 2, resetMs: 5000 }, tokens: { remaining: 9000, resetMs: 5000 } } }, T0);
      expect((await take(store, k, {}, T0 + 1)).ok).toBe(true);
      expect((await take(store, k, {}, T0 + 2)).ok).toBe(true);
      expect(await take(store, k, {}, T0 + 3)).toMatchObject({ ok: false, reason: 'provider', retryInMs: 4997 });
      const b = await take(store, k, {}, T0 + 5000);
      expect(b.ok).toBe(true);
      await store.settleBudget(k, b.leaseId, { snapshot: { tokens: { remaining: 50, resetMs: 1000 } } }, T0 + 6000);
      expect(await take(store, k, {}, T0 + 6001, 60)).toMatchObject({ ok: false, reason: 'provider', retryInMs: 999 });
      await close(store);
    });

    it('takes the report of a lease settled after its TTL as of the moment it arrives', async () => {
      const store = await makeStore();
      const k = key();
      const a = await take(store, k, {}, T0);
      // The lease expired (30 s) before its answer came: nothing tells when the request reached the provider.
      await store.settleBudget(k, a.leaseId, { snapshot: { requests: { remaining: 1, resetMs: 10_000 } } }, T0 + 40_000);
      expect((await take(store, k, {}, T0 + 40_000)).ok).toBe(true);
      expect(await take(store, k, {}, T0 + 40_001)).toMatchObject({ ok: false, reason: 'provider', retryInMs: 9_999 });
      await close(store);
    });

    it('assumes a provider\'s bucket refills linearly until its reset when it reports the limit', async () => {
      const store = await makeStore();
      const k = key();
      // 60 requests a minute, 0 left, full again in 60 s: one request comes back every second.
      const a = await take(store, k, {}, T0);
      await store.settleBudget(k, a.leaseId, { snapshot: { requests: { limit: 60, remaining: 0, resetMs: 60_000 } } }, T0);
      expect(await take(store, k, {}, T0 + 1)).toMatchObject({ ok: false, reason: 'provider', retryInMs: 999 });
      expect((await take(store, k, {}, T0 + 1000)).ok).toBe(true);
      expect(await take(store, k, {}, T0 + 1500)).toMatchObject({ ok: false, reason: 'provider', retryInMs: 500 });
      expect((await take(store, k, {}, T0 + 2000)).ok).toBe(true);
      // Tokens the same way: 1000 a minute, 100 left; 300 fit after 12 s.
      const b = await take(store, k, {}, T0 + 10_000, 0);
      await store.settleBudget(k, b.leaseId, { snapshot: { tokens: { limit: 1000, remaining: 100, resetMs: 54_000 } } }, T0 + 10_000);
      expect(await take(store, k, {}, T0 + 10_000, 300)).toMatchObject({ ok: false, reason: 'provider', retryInMs: 12_000 });
      expect((await take(store, k, {}, T0 + 22_000, 300)).ok).toBe(true);
      await close(store);
    });

    it('keeps budgets apart by key', async () => {
      const store = await makeStore();
      const [k1, k2] = [key(), key()];
      expect((await take(store, k1, { rpm: 1 }, T0)).ok).toBe(true);
      expect((await take(store, k2, { rpm: 1 }, T0)).ok).toBe(true);
      expect((await take(store, k1, { rpm: 1 }, T0)).ok).toBe(false);
      await close(store);
    });

    it('grants a burst of concurrent acquisitions exactly up to the limit', async () => {
      const store = await makeStore();
      const k = key();
      const grants = await Promise.all(Array.from({ length: 25 }, () => take(store, k, { rpm: 10 }, T0)));
      expect(grants.filter((g) => g.ok)).toHaveLength(10);
      await close(store);
    });
  });
  pacingContract(name, makeStore, close);
}
