import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FallbackStore } from '../../src/store/fallback-store.js';
import { redisStore } from '../../src/store/redis-store.js';
import type { StateStore } from '../../src/store/state-store.js';
import { startRedisServer, type RedisServer } from '../support/redis-server.js';
import { VirtualClock } from '../support/virtual-clock.js';
import { storeContracts, T0 } from './contracts/roles.js';

// FallbackStore in front of a real Redis, on a clock that never moves by itself: with Redis up no
// operation can time out (the 250 ms bound never runs out) and each one reaches Redis; with Redis
// stopped, the first operation finds it unreachable and no probe ever brings it back, so every
// operation of the contract runs on process-local state.

let up: RedisServer;
let stopped: RedisServer;
beforeAll(async () => {
  [up, stopped] = await Promise.all([startRedisServer(), startRedisServer()]);
  await stopped.stop();
});
afterAll(async () => {
  await up?.stop();
});

const fallbackOn = (url: string, onUnavailable: 'local' | 'fail' = 'local') => new FallbackStore(redisStore(url), { clock: new VirtualClock({ autoAdvance: false }), onUnavailable });

/** A fallback whose Redis is stopped, once it knows. */
async function down(onUnavailable: 'local' | 'fail' = 'local'): Promise<FallbackStore> {
  const store = fallbackOn(stopped.url, onUnavailable);
  await Promise.resolve(store.getBlock('warm-up', T0)).catch(() => {});
  expect(store.available).toBe(false);
  return store;
}

/** Closes a store after checking it stayed as the suite meant it: in use, or down. */
const closeWhile = (available: boolean) => async (store: StateStore) => {
  expect((store as FallbackStore).available).toBe(available);
  await store.close();
};

storeContracts('FallbackStore over Redis', () => fallbackOn(up.url), { plays: ['idempotency', 'cache', 'breakers', 'conversations', 'spend', 'shares'], close: closeWhile(true) });

// The cache and the breaker state do not fall back to local state (a miss, a breaker acting alone),
// nor do conversations kept in the store (out of reach, never a miss): see below, and
// test/store/fallback-store.test.ts.
storeContracts('FallbackStore over a stopped Redis', () => down(), {
  plays: ['idempotency', 'cache', 'breakers', 'conversations', 'spend', 'shares'], contracts: ['idempotency'], close: closeWhile(false),
});

describe('FallbackStore over a stopped Redis', () => {
  it('misses the cache and drops what it would store, without waiting', async () => {
    const store = await down();
    expect(store.writeCached!('cache:a', '"answer"', 60_000, T0)).toBeUndefined();
    expect(store.readCached!('cache:a', T0)).toBeUndefined();
    await store.close();
  });

  it('fails the breaker state at once as transport, naming the server, so each breaker acts alone', async () => {
    const store = await down();
    await expect(store.readBreaker!('openai', T0)).rejects.toMatchObject({ kind: 'transport', message: expect.stringContaining(`Redis store at ${stopped.url}`) });
    await expect(store.openBreaker!('openai', 'a', T0 + 5000, T0)).rejects.toMatchObject({ kind: 'transport' });
    await store.close();
  });

  it("fails decisions at once as transport with onUnavailable 'fail', and never what comes after an answer", async () => {
    const store = await down('fail');
    await expect(Promise.resolve().then(() => store.acquireBudget({ key: 'openai', limits: { rpm: 1 }, tokens: 1, leaseId: 'l', leaseTtlMs: 1000 }, T0))).rejects.toMatchObject({ kind: 'transport' });
    await expect(Promise.resolve().then(() => store.claimIdempotency!('k', 'fp', 1000, T0))).rejects.toMatchObject({ kind: 'transport' });
    await store.setBlock('openai', { reason: 'cooling', untilMs: T0 + 1000 }, T0);
    await store.settleBudget('openai', 'l', { charge: { tokens: 5 } }, T0);
    await store.close();
  });
});
