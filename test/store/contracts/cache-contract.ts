import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { CacheStore } from '../../../src/store/cache-store.js';
import { T0, type Close, type Make } from './kit.js';

/**
 * The cache role: answers stored for the response cache, read back by every process sharing the
 * store. Expiry is the store's own (Redis: `SET PX`, see redis-cache.test.ts), so it is not here.
 */
export function cacheContract<S extends CacheStore>(name: string, makeStore: Make<S>, close: Close<S>) {
  const key = () => `cache:test-${randomUUID()}`;

  describe(`${name}: the cache role`, () => {
    it('reads back an answer it stored, and misses a key never stored', async () => {
      const store = await makeStore();
      const [k1, k2] = [key(), key()];
      await store.writeCached(k1, '{"text":"hi"}', 60_000, T0);
      expect(await store.readCached(k1, T0 + 1)).toBe('{"text":"hi"}');
      expect(await store.readCached(k2, T0 + 1)).toBeUndefined();
      await close(store);
    });

    it('keeps the latest answer written under a key', async () => {
      const store = await makeStore();
      const k = key();
      await store.writeCached(k, '"first"', 60_000, T0);
      await store.writeCached(k, '"second"', 60_000, T0 + 1);
      expect(await store.readCached(k, T0 + 2)).toBe('"second"');
      await close(store);
    });
  });
}
