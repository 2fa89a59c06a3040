import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { ShareStore, ShareSync } from '../../../src/store/share-store.js';
import { T0, type Close, type Make } from './kit.js';

/**
 * The shares role (fleet-wide fair shares): what each process admitted per tenant to one target
 * budget, summed over a rolling window of buckets, and which tenants wait in some process, until
 * that process stops saying so.
 */
export function shareContract<S extends ShareStore>(name: string, makeStore: Make<S>, close: Close<S>) {
  const sync = (budget: string, process: string, served: Record<string, number>, waiting: string[]): ShareSync =>
    ({ budget, process, served, waiting, windowMs: 10_000, bucketMs: 1_000, waitingTtlMs: 300 });

  describe(`${name}: the shares role`, () => {
    it('sums what every process admitted in the window, and forgets buckets that left it', async () => {
      const store = await makeStore();
      const budget = `target:${randomUUID()}`;
      await store.syncShares(sync(budget, 'p1', { gold: 3 }, []), T0);
      await store.syncShares(sync(budget, 'p2', { gold: 1, silver: 2 }, []), T0 + 500);
      expect((await store.syncShares(sync(budget, 'p1', {}, []), T0 + 1_500)).served).toEqual({ gold: 4, silver: 2 });
      await store.syncShares(sync(budget, 'p2', { silver: 5 }, []), T0 + 9_000);
      // 10.5 s later the first second's bucket is out of the window; the counts at 9 s are in.
      expect((await store.syncShares(sync(budget, 'p1', {}, []), T0 + 10_500)).served).toEqual({ silver: 5 });
      await close(store);
    });

    it("lists the tenants some process waits for, until that process's entry expires", async () => {
      const store = await makeStore();
      const budget = `target:${randomUUID()}`;
      await store.syncShares(sync(budget, 'p1', {}, ['gold']), T0);
      expect((await store.syncShares(sync(budget, 'p2', {}, ['silver']), T0 + 100)).waiting.sort()).toEqual(['gold', 'silver']);
      // p1 stopped syncing: 300 ms after its last sync it no longer says gold waits.
      expect((await store.syncShares(sync(budget, 'p2', {}, ['silver']), T0 + 301)).waiting).toEqual(['silver']);
      await close(store);
    });
  });
}
