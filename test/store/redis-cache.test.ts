import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { LruCache } from '../../src/cache/lru-cache.js';
import { cacheBackend, StoreCache } from '../../src/cache/store-cache.js';
import { createRouter, type Router } from '../../src/router.js';
import { fallbackStore } from '../../src/store/fallback-store.js';
import { MemoryStore } from '../../src/store/memory-store.js';
import { redisStore } from '../../src/store/redis-store.js';
import { fakeRequests, VirtualClock } from '../../src/testing/index.js';
import { captureLogger } from '../support/capture-logger.js';
import { redisPerFile } from '../support/redis-per-file.js';

const server = redisPerFile();
let admin: Redis;
let routers: Router[] = [];

beforeAll(() => {
  admin = new Redis(server.url);
});
afterAll(async () => {
  await admin?.quit(); // before redisPerFile's afterAll stops the server: after-hooks run in reverse
});
afterEach(async () => {
  for (const r of routers) await r.close();
  routers = [];
});

/** A router of its own process, as far as the cache can tell: its own fake provider, store connection and clock. */
function router(keyPrefix: string, ttlMs = 60_000): Router {
  const r = createRouter({
    providers: { p: { type: 'fake', latencyMs: 5 } },
    chains: { default: ['p:m'] },
    cache: { ttlMs },
    store: { type: 'redis', url: server.url, keyPrefix },
  }, { logger: captureLogger().logger, clock: new VirtualClock() });
  routers.push(r);
  return r;
}

const ask = { messages: [{ role: 'user' as const, content: 'What is a switchyard?' }] };

describe('the response cache on a Redis store', () => {
  it('sends one request for the same call made in two routers on one Redis', async () => {
    const keyPrefix = `cache-${randomUUID()}:`;
    const [a, b] = [router(keyPrefix), router(keyPrefix)];
    const first = await a.chat(ask);
    const second = await b.chat(ask);
    expect(fakeRequests(a, 'p').length + fakeRequests(b, 'p').length).toBe(1);
    expect(second).toMatchObject({ cached: true, text: first.text, attempts: [] });
  });

  it('keeps answers under the store\'s key prefix with the cache\'s TTL (SET PX), so Redis expires them', async () => {
    const keyPrefix = `cache-ttl-${randomUUID()}:`;
    await router(keyPrefix, 30_000).chat(ask);
    const keys = await admin.keys(`${keyPrefix}cache:*`);
    expect(keys).toHaveLength(1);
    expect(await admin.pttl(keys[0]!)).toSatisfy((ttl: number) => ttl > 25_000 && ttl <= 30_000);
  });

  it('asks the provider again once Redis has expired the answer', async () => {
    const keyPrefix = `cache-gone-${randomUUID()}:`;
    const r = router(keyPrefix);
    await r.chat(ask);
    // What Redis does when the TTL runs out, without waiting for it.
    for (const k of await admin.keys(`${keyPrefix}cache:*`)) await admin.del(k);
    expect((await r.chat(ask)).cached).toBeUndefined();
    expect(fakeRequests(r, 'p')).toHaveLength(2);
  });

  it('is chosen for a store that keeps a cache, and an in-process LRU otherwise', async () => {
    const clock = new VirtualClock();
    const shared = fallbackStore(redisStore(server.url), { clock });
    expect(cacheBackend(shared, 10)).toBeInstanceOf(StoreCache);
    expect(cacheBackend(new MemoryStore(), 10)).toBeInstanceOf(LruCache);
    await shared.close();
  });
});
