import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createRouter, type Router } from '../../src/router.js';
import type { RouterEvents } from '../../src/observe/events.js';
import { captureLogger } from '../support/capture-logger.js';
import { OPENAI_PATH, openaiOk } from '../support/fixtures.js';
import { gate } from '../support/until.js';
import { startUpstream, type Upstream } from '../support/upstream.js';
import { ask, OPENAI_KEY } from '../support/wire-router.js';
import { startRestartableRedis, type RestartableRedis } from './restartable-redis.js';

// A real redis-server, killed with SIGKILL mid-run and started again (empty) on the same port, under
// routers calling a loopback provider through the real SDK. Nothing here asserts how long anything
// took: each step waits for a condition (calls answered, an event seen), bounded only by the test's
// timeout, so a busy machine makes the suite slower, never red.

let redis: RestartableRedis;
let up: Upstream;
let closers: Array<() => Promise<void>> = [];
beforeEach(async () => {
  redis = await startRestartableRedis();
  up = await startUpstream();
  up.otherwise(OPENAI_PATH, () => openaiOk());
});
afterEach(async () => {
  for (const close of closers) await close();
  closers = [];
  await up.close();
  await redis.stop();
});

/**
 * Waits until `condition()` holds, checking every 10 ms (I/O on real time: a restart, a reconnection);
 * the test's timeout is the only bound. `failure()` returning something ends the wait with it at once.
 */
async function eventually(condition: () => boolean, what: string, failure: () => unknown = () => undefined): Promise<void> {
  for (;;) {
    const failed = failure();
    if (failed !== undefined) throw new Error(`a call failed while waiting for ${what}: ${String(failed)}`);
    if (condition()) return;
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** Runs one command on a short-lived connection of its own (the server may have been restarted since). */
async function onRedis<T>(fn: (r: Redis) => Promise<T>): Promise<T> {
  const client = new Redis(redis.url);
  try {
    return await fn(client);
  } finally {
    client.disconnect();
  }
}

function redisRouter(onUnavailable: 'local' | 'fail', keyPrefix = `kill-${randomUUID()}:`) {
  const log = captureLogger();
  const router: Router = createRouter({
    providers: { openai: { type: 'openai', apiKey: OPENAI_KEY, baseURL: `${up.url}/v1`, limits: { rpm: 1_000_000, concurrency: 64 } } },
    chains: { default: ['openai:gpt-4o-mini'] },
    retry: { maxAttempts: 1 },
    store: { type: 'redis', url: redis.url, keyPrefix, onUnavailable },
  }, { logger: log.logger });
  const storeEvents: Array<RouterEvents['store']> = [];
  router.on('store', (e) => storeEvents.push(e));
  closers.push(() => router.close());
  const warnings = () => log.records().filter((r) => r.level === 40).map((r) => r.msg as string);
  return { router, storeEvents, warnings, requests: `${keyPrefix}budget:{openai:gpt-4o-mini}:req` };
}

describe("Redis killed mid-run, store.onUnavailable 'local'", () => {
  it('fails no call across the outage, says so once, and shares state again once Redis is back', async () => {
    const { router, storeEvents, warnings, requests } = redisRouter('local');
    const tally = { ok: 0, failed: [] as unknown[] };
    let running = true;
    const worker = async () => {
      while (running) {
        try {
          await router.chat(ask());
          tally.ok++;
        } catch (err) {
          tally.failed.push(err);
        }
      }
    };
    const workers = Array.from({ length: 8 }, worker);
    const failure = () => tally.failed[0];
    try {
      await eventually(() => tally.ok >= 50, '50 calls answered on shared state', failure);
      expect(await onRedis((r) => r.zcard(requests))).toBeGreaterThanOrEqual(50);
      await redis.kill();
      const atKill = tally.ok;
      await eventually(() => storeEvents.length > 0 && tally.ok >= atKill + 100, '100 calls answered with Redis dead', failure);
      await redis.restart();
      await eventually(() => storeEvents.at(-1)?.state === 'available', 'the store in use again', failure);
      const atReturn = tally.ok;
      await eventually(() => tally.ok >= atReturn + 50, '50 calls answered since', failure);
    } finally {
      running = false;
      await Promise.all(workers);
    }

    expect(tally.failed).toEqual([]);
    // The restarted server started empty: what it counts now, the calls made since it came back put there.
    expect(await onRedis((r) => r.zcard(requests))).toBeGreaterThanOrEqual(50);
    expect(storeEvents[0]).toEqual({ state: 'unavailable', error: expect.stringMatching(/.+/) });
    expect(storeEvents.at(-1)).toEqual({ state: 'available' });
    // Once per outage (a loaded machine may see a second, shorter one while Redis starts): never once per call.
    const outages = storeEvents.filter((e) => e.state === 'unavailable').length;
    expect(storeEvents.map((e) => e.state)).toEqual(Array.from({ length: outages }, () => ['unavailable', 'available']).flat());
    expect(warnings().filter((w) => w.startsWith('state store unavailable'))).toHaveLength(outages);
  }, 60_000);
});

describe('Redis dying with calls in flight', () => {
  it.each(['local', 'fail'] as const)('still answers all 20 calls the provider answered (onUnavailable %s)', async (mode) => {
    const { router, storeEvents } = redisRouter(mode);
    const held = gate();
    up.otherwise(OPENAI_PATH, () => ({ ...openaiOk('answered'), heldUntil: held.promise }));
    const calls = Array.from({ length: 20 }, () => router.chat(ask()).catch((err: unknown) => err));
    await eventually(() => up.inFlight === 20, '20 requests upstream');
    await redis.kill();
    held.open();
    const results = await Promise.all(calls);
    expect(results.filter((r) => r instanceof Error)).toEqual([]);
    expect(results.map((r) => (r as { text: string }).text)).toEqual(Array(20).fill('answered'));

    // Afterwards a call runs on local state, or fails at once as the team chose.
    up.otherwise(OPENAI_PATH, () => openaiOk('after'));
    await eventually(() => storeEvents.length > 0, 'the outage noticed');
    if (mode === 'local') expect((await router.chat(ask())).text).toBe('after');
    else await expect(router.chat(ask())).rejects.toMatchObject({ kind: 'transport' });
    await redis.restart();
    await eventually(() => storeEvents.at(-1)?.state === 'available', 'the store in use again');
    expect((await router.chat(ask())).text).toBe('after');
  }, 60_000);
});

describe('Redis dying between an answer and its idempotency record', () => {
  it.each(['local', 'fail'] as const)('never bills the key twice: replayed here at once, and in another process once Redis is back (onUnavailable %s)', async (mode) => {
    const keyPrefix = `idem-${randomUUID()}:`;
    const { router, storeEvents } = redisRouter(mode, keyPrefix);
    // The provider answers the first request only once Redis is dead: the record cannot be written.
    up.otherwise(OPENAI_PATH, (_req, n) => (n === 1 ? { ...openaiOk('the answer'), heldUntil: redis.kill() } : openaiOk('billed twice')));
    const order = { ...ask('Charge order 7'), idempotencyKey: 'order-7', tenant: 'shop' };

    const first = await router.chat(order);
    expect(first.text).toBe('the answer');
    expect(first.replayed).toBeUndefined();
    const again = await router.chat(order);
    expect(again).toMatchObject({ text: 'the answer', replayed: true });

    await redis.restart();
    await eventually(() => storeEvents.at(-1)?.state === 'available', 'the store in use again');
    // Another process (a router with nothing of the first's in memory) finds the record written back.
    const other = redisRouter(mode, keyPrefix);
    expect(await other.router.chat(order)).toMatchObject({ text: 'the answer', replayed: true });
    expect(up.count(OPENAI_PATH)).toBe(1);
  }, 60_000);
});
