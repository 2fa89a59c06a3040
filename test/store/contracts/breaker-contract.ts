import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { BreakerStateStore } from '../../../src/store/breaker-state.js';
import { T0, type Close, type Make } from './kit.js';

/**
 * The breaker-state role (`breaker.shared`): one fleet-wide state, joined rather than reset by later
 * openers, and one half-open probe at a time.
 */
export function breakerContract<S extends BreakerStateStore>(name: string, makeStore: Make<S>, close: Close<S>) {
  const key = () => `breaker-${randomUUID()}`;

  describe(`${name}: the breaker-state role`, () => {
    it('reads closed for a breaker nobody opened', async () => {
      const store = await makeStore();
      expect(await store.readBreaker(key(), T0)).toEqual({ state: 'closed' });
      await close(store);
    });

    it('opens once for the fleet: a later opener joins the open breaker and keeps its time', async () => {
      const store = await makeStore();
      const k = key();
      expect(await store.openBreaker(k, 'a', T0 + 5000, T0)).toEqual({ state: 'open', untilMs: T0 + 5000 });
      expect(await store.openBreaker(k, 'b', T0 + 6000, T0 + 1000)).toEqual({ state: 'open', untilMs: T0 + 5000 });
      expect(await store.readBreaker(k, T0 + 1000)).toEqual({ state: 'open', untilMs: T0 + 5000 });
      await close(store);
    });

    it('hands the half-open probe to one process at a time, until its lease runs out', async () => {
      const store = await makeStore();
      const k = key();
      await store.openBreaker(k, 'a', T0 + 5000, T0);
      expect(await store.takeProbe(k, 'b', 1000, T0 + 4999)).toEqual({ state: 'open', untilMs: T0 + 5000 });
      expect(await store.takeProbe(k, 'b', 1000, T0 + 5000)).toEqual({ state: 'open', untilMs: T0 + 5000, prober: 'b', probeUntilMs: T0 + 6000 });
      expect((await store.takeProbe(k, 'a', 1000, T0 + 5500)).prober).toBe('b');
      expect(await store.takeProbe(k, 'b', 3000, T0 + 5600)).toMatchObject({ prober: 'b', probeUntilMs: T0 + 8600 });
      expect(await store.takeProbe(k, 'a', 1000, T0 + 8600)).toMatchObject({ prober: 'a', probeUntilMs: T0 + 9600 });
      await close(store);
    });

    it('closes only for the process whose probe succeeded', async () => {
      const store = await makeStore();
      const k = key();
      await store.openBreaker(k, 'a', T0 + 5000, T0);
      await store.takeProbe(k, 'b', 1000, T0 + 5000);
      expect((await store.closeBreaker(k, 'a', T0 + 5100)).state).toBe('open');
      expect(await store.closeBreaker(k, 'b', T0 + 5100)).toEqual({ state: 'closed' });
      expect(await store.readBreaker(k, T0 + 5200)).toEqual({ state: 'closed' });
      await close(store);
    });

    it('reopens after the prober failed, but not over another process\'s probe still out', async () => {
      const store = await makeStore();
      const k = key();
      await store.openBreaker(k, 'a', T0 + 5000, T0);
      await store.takeProbe(k, 'b', 1000, T0 + 5000);
      expect(await store.openBreaker(k, 'c', T0 + 10_100, T0 + 5100)).toMatchObject({ untilMs: T0 + 5000, prober: 'b' });
      expect(await store.openBreaker(k, 'b', T0 + 10_200, T0 + 5200)).toEqual({ state: 'open', untilMs: T0 + 10_200 });
      // Half-open with nobody probing: any process's own verdict opens it again.
      expect(await store.openBreaker(k, 'c', T0 + 16_000, T0 + 11_000)).toEqual({ state: 'open', untilMs: T0 + 16_000 });
      await close(store);
    });
  });
}
