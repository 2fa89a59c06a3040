import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { IdempotencyStore } from '../../../src/store/idempotency-store.js';
import { T0, type Close, type Make } from './kit.js';

/** The idempotency role: one claim per key and request, its answer replayed until its ttl. */
export function idempotencyContract<S extends IdempotencyStore>(name: string, makeStore: Make<S>, close: Close<S>) {
  const key = () => `test-${randomUUID()}`;

  describe(`${name}: the idempotency role`, () => {
    it('claims an idempotency key once, reports it pending, then replays its value until the ttl', async () => {
      const store = await makeStore();
      const k = key();
      expect(await store.claimIdempotency(k, 'fp1', 30_000, T0)).toEqual({ state: 'claimed' });
      expect(await store.claimIdempotency(k, 'fp1', 30_000, T0 + 1)).toEqual({ state: 'pending' });
      expect(await store.readIdempotency(k, 'fp1', T0 + 1)).toEqual({ state: 'pending' });
      await store.completeIdempotency(k, 'fp1', '{"text":"hi"}', 10_000, T0 + 2);
      expect(await store.claimIdempotency(k, 'fp1', 30_000, T0 + 3)).toEqual({ state: 'done', value: '{"text":"hi"}' });
      expect(await store.readIdempotency(k, 'fp1', T0 + 3)).toEqual({ state: 'done', value: '{"text":"hi"}' });
      expect(await store.claimIdempotency(k, 'fp2', 30_000, T0 + 3)).toEqual({ state: 'mismatch' });
      expect(await store.claimIdempotency(k, 'fp1', 30_000, T0 + 10_003)).toEqual({ state: 'claimed' });
      await close(store);
    });

    it('forgets an abandoned claim (failures are not stored)', async () => {
      const store = await makeStore();
      const k = key();
      await store.claimIdempotency(k, 'fp', 30_000, T0);
      await store.abandonIdempotency(k);
      expect(await store.readIdempotency(k, 'fp', T0)).toEqual({ state: 'missing' });
      expect(await store.claimIdempotency(k, 'fp', 30_000, T0)).toEqual({ state: 'claimed' });
      await close(store);
    });

    it('keeps the record of a different request when a late completion arrives for a key claimed again', async () => {
      const store = await makeStore();
      const k = key();
      await store.claimIdempotency(k, 'fp1', 1000, T0);
      expect(await store.claimIdempotency(k, 'fp2', 1000, T0 + 1001)).toEqual({ state: 'claimed' });
      await store.completeIdempotency(k, 'fp1', '"late"', 10_000, T0 + 1002);
      expect(await store.readIdempotency(k, 'fp2', T0 + 1003)).toEqual({ state: 'pending' });
      await store.completeIdempotency(k, 'fp2', '"mine"', 10_000, T0 + 1004);
      expect(await store.readIdempotency(k, 'fp2', T0 + 1005)).toEqual({ state: 'done', value: '"mine"' });
      await close(store);
    });

    it('lets a pending claim of a crashed caller expire', async () => {
      const store = await makeStore();
      const k = key();
      await store.claimIdempotency(k, 'fp', 1000, T0);
      expect(await store.claimIdempotency(k, 'fp', 1000, T0 + 1001)).toEqual({ state: 'claimed' });
      await close(store);
    });
  });
}
