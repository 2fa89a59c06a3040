import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { BlockStore } from '../../../src/store/block-store.js';
import { T0, type Close, type Make } from './kit.js';

/** The blocks role: cooling targets and parked providers, each until its time. */
export function blockContract<S extends BlockStore>(name: string, makeStore: Make<S>, close: Close<S>) {
  const key = () => `test-${randomUUID()}`;

  describe(`${name}: the blocks role`, () => {
    it('keeps a block until it expires, and keeps the longer of two', async () => {
      const store = await makeStore();
      const k = key();
      await store.setBlock(k, { reason: 'cooling', untilMs: T0 + 1000, cause: 'rate_limited' }, T0);
      expect(await store.getBlock(k, T0 + 500)).toEqual({ reason: 'cooling', untilMs: T0 + 1000, cause: 'rate_limited' });
      await store.setBlock(k, { reason: 'cooling', untilMs: T0 + 800 }, T0 + 500);
      expect((await store.getBlock(k, T0 + 900))?.untilMs).toBe(T0 + 1000);
      expect(await store.getBlock(k, T0 + 1000)).toBeUndefined();
      await close(store);
    });

    it('replaces a block with one that lasts longer, and keeps blocks apart by key', async () => {
      const store = await makeStore();
      const [k1, k2] = [key(), key()];
      await store.setBlock(k1, { reason: 'cooling', untilMs: T0 + 1000, cause: 'rate_limited' }, T0);
      await store.setBlock(k1, { reason: 'parked', untilMs: T0 + 60_000, cause: 'insufficient_quota' }, T0 + 10);
      expect(await store.getBlock(k1, T0 + 20)).toEqual({ reason: 'parked', untilMs: T0 + 60_000, cause: 'insufficient_quota' });
      expect(await store.getBlock(k2, T0 + 20)).toBeUndefined();
      await close(store);
    });
  });
}
