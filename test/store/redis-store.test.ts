import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isRouterError, type RouterError } from '../../src/errors.js';
import { BREAKER_RECORD_TTL_MS } from '../../src/store/breaker-state.js';
import { MemoryStore } from '../../src/store/memory-store.js';
import { redisStore, type RedisStore } from '../../src/store/redis-store.js';
import type { BudgetLimits } from '../../src/store/budget-store.js';
import { redisPerFile } from '../support/redis-per-file.js';
import { findRedisServer, freePort } from '../support/redis-server.js';
import { storeContracts } from './contracts/roles.js';

const server = redisPerFile();
let admin: Redis;

beforeAll(() => {
  admin = new Redis(server.url);
});

afterAll(async () => {
  await admin?.quit(); // before redisPerFile's afterAll stops the server: after-hooks run in reverse
});

storeContracts('RedisStore', () => redisStore(server.url), { plays: ['idempotency', 'cache', 'breakers', 'conversations', 'spend', 'shares'] });

const acquire = (store: RedisStore, key: string, limits: BudgetLimits, nowMs: number, tokens = 1, leaseTtlMs = 30_000) =>
  store.acquireBudget({ key, limits, tokens, leaseId: randomUUID(), leaseTtlMs }, nowMs);

/** Two stores on two connections: what two router processes sharing one Redis look like to the server. */
async function twoProcesses<T>(fn: (a: RedisStore, b: RedisStore) => Promise<T>): Promise<T> {
  const [a, b] = [redisStore(server.url), redisStore(server.url)];
  try {
    return await fn(a, b);
  } finally {
    await Promise.all([a.close(), b.close()]);
  }
}

/** 50 acquisitions at once, alternating between the two stores. */
const burst = (a: RedisStore, b: RedisStore, key: string, limits: BudgetLimits, nowMs: number, tokens = 1) =>
  Promise.all(Array.from({ length: 50 }, (_, i) => acquire(i % 2 ? a : b, key, limits, nowMs, tokens)));

const connectedClients = async () => String(await admin.client('LIST')).trim().split('\n').length;

const failureOf = (p: Promise<unknown> | (() => unknown)): Promise<RouterError> =>
  Promise.resolve()
    .then(typeof p === 'function' ? p : () => p)
    .then(() => expect.unreachable('expected a failure'), (err: unknown) => {
      expect(isRouterError(err)).toBe(true);
      return err as RouterError;
    });

/** A small seeded PRNG (mulberry32), so a failing sequence replays. */
function random(seed: number): (n: number) => number {
  return (n) => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return Math.floor((((t ^ (t >>> 14)) >>> 0) / 4294967296) * n);
  };
}

/** One random operation, drawn up front and then applied the same way to any store. */
function randomStep(pick: (n: number) => number, now: number, leases: Array<{ key: string; id: string }>, step: number) {
  const budgets: Array<{ key: string; limits: BudgetLimits }> = [
    { key: 'a', limits: { rpm: 4, tpm: 900, windowMs: 10_000 } },
    { key: 'b', limits: { tpm: 300 } },
    { key: 'c', limits: { rpm: 8, concurrency: 2, windowMs: 5_000 } },
    // Paced: buckets of 2 s worth of each limit, with Anthropic's input and output windows.
    { key: 'd', limits: { rpm: 6, tpm: 2_000, itpm: 900, otpm: 600, windowMs: 10_000, burstMs: 2_000 } },
    { key: 'e', limits: { rpm: 5, otpm: 300, concurrency: 3, windowMs: 6_000, burstMs: 1_500 } },
  ];
  const budget = budgets[pick(budgets.length)]!;
  const lease = leases[pick(leases.length || 1)];
  const [op, tokens, ttl, flag, amount, until, idem, fp, what, input, output, shape] = [12, 320, 30, 2, 220, 24, 3, 2, 3, 400, 300, 16].map(pick) as number[];
  // Times and lengths on a 250 ms grid, so entries and leases often expire exactly at `now`.
  const block = `block-${budget.key}`;
  const request = {
    ...budget, tokens: flag ? tokens! % 60 : tokens!, inputTokens: shape! % 3 ? input! : undefined, outputTokens: shape! % 5 ? output! : undefined,
    leaseId: `lease-${step}`, leaseTtlMs: 1000 + ttl! * 250,
  };
  const window = (remaining: number, limit: boolean) => ({ remaining, resetMs: until! * 250, ...(limit ? { limit: remaining + until! * 7 } : {}) });
  const headroom = { requests: { remaining: amount! % 4, resetMs: until! * 250 }, tokens: flag ? { remaining: amount!, resetMs: until! * 250 + 500 } : undefined };
  const report = {
    requests: shape! & 1 ? window(amount! % 5, shape! & 2 ? true : false) : undefined,
    tokens: shape! & 2 ? window(amount! * 3, true) : undefined,
    inputTokens: shape! & 4 ? window(amount! * 2, shape! & 1 ? true : false) : undefined,
    outputTokens: shape! & 8 ? window(amount!, true) : undefined,
  };
  const charge = { tokens: flag ? amount! - 100 : undefined, inputTokens: shape! % 3 === 1 ? amount! - 150 : undefined, outputTokens: shape! % 4 ? -(amount! % 200) : amount! % 50 };
  const run = async (store: MemoryStore | RedisStore): Promise<unknown> => {
    if (op! <= 3) return store.acquireBudget(request, now);
    if (op === 4 && lease) return store.releaseBudget(lease.key, lease.id, flag === 0, now);
    if (op === 5 && lease) return store.settleBudget(lease.key, lease.id, { charge: { tokens: amount! - 20 } }, now);
    // A lease unknown to the store (settled after its TTL ran out): its report is as of now.
    if (op === 6) return store.settleBudget(budget.key, `gone-${step}`, { snapshot: shape! > 11 ? report : headroom }, now);
    if (op === 7) {
      await store.setBlock(block, { reason: 'cooling', untilMs: now + until! * 250 - 500 }, now);
      return store.getBlock(block, now);
    }
    if ((op === 8 || op === 9) && lease) {
      return store.settleBudget(lease.key, lease.id, { charge: shape! % 7 ? charge : undefined, snapshot: shape! ? report : undefined, rateLimited: what === 0 }, now);
    }
    if (op === 10) return store.claimIdempotency(`idem-${idem}`, `fp-${fp}`, ttl! * 125, now);
    if (what === 0) await store.completeIdempotency(`idem-${idem}`, `fp-${fp}`, `value-${step}`, ttl! * 125, now);
    if (what === 1) await store.abandonIdempotency(`idem-${idem}`);
    return store.readIdempotency(`idem-${idem}`, `fp-${fp}`, now);
  };
  return { run, granted: { key: budget.key, id: request.leaseId } };
}

describe('RedisStore', () => {
  it.each([1, 2, 3, 4, 5, 6])('answers exactly like MemoryStore over a random sequence of operations (seed %i)', async (seed) => {
    const memory = new MemoryStore();
    const redis = redisStore(server.url, { keyPrefix: `replay-${randomUUID()}:` });
    const pick = random(seed);
    const leases: Array<{ key: string; id: string }> = [];
    let now = 1_800_000_000_000;
    for (let step = 0; step < 400; step++) {
      now += 250 * (pick(4) === 0 ? pick(12) : pick(2));
      const { run, granted } = randomStep(pick, now, leases, step);
      const expected = await run(memory);
      expect(await run(redis), `step ${step}`).toEqual(expected);
      if ((expected as { ok?: boolean } | undefined)?.ok) leases.push(granted);
    }
    await redis.close();
  });

  it('frees room at the same instant as MemoryStore when a request, lease or headroom runs out', async () => {
    const T0 = 1_800_000_000_000;
    const answers = async (store: MemoryStore | RedisStore) => {
      const take = (key: string, limits: BudgetLimits, at: number, leaseTtlMs = 1000) =>
        store.acquireBudget({ key, limits, tokens: 1, leaseId: randomUUID(), leaseTtlMs }, at);
      await store.settleBudget('headroom', 'gone', { snapshot: { requests: { remaining: 0, resetMs: 500 } } }, T0);
      return [
        await take('window', { rpm: 1, windowMs: 1000 }, T0), await take('window', { rpm: 1, windowMs: 1000 }, T0 + 999),
        await take('window', { rpm: 1, windowMs: 1000 }, T0 + 1000),
        await take('lease', { concurrency: 1 }, T0), await take('lease', { concurrency: 1 }, T0 + 999),
        await take('lease', { concurrency: 1 }, T0 + 1000),
        await take('headroom', {}, T0 + 499), await take('headroom', {}, T0 + 500),
      ];
    };
    const redis = redisStore(server.url, { keyPrefix: `instant-${randomUUID()}:` });
    const expected = await answers(new MemoryStore());
    expect(expected.map((g) => g.ok)).toEqual([true, false, true, true, false, true, false, true]);
    expect(await answers(redis)).toEqual(expected);
    await redis.close();
  });

  it('never lets two processes together exceed rpm', async () => {
    await twoProcesses(async (a, b) => {
      const now = Date.now();
      const grants = await burst(a, b, `rpm-${randomUUID()}`, { rpm: 10 }, now);
      expect(grants.filter((g) => g.ok)).toHaveLength(10);
      for (const g of grants.filter((g) => !g.ok)) expect(g).toEqual({ ok: false, reason: 'rpm', retryInMs: 60_000 });
    });
  });

  it('never lets two processes together hold more concurrency slots than allowed, and reuses freed ones', async () => {
    await twoProcesses(async (a, b) => {
      const key = `concurrency-${randomUUID()}`;
      const now = Date.now();
      const leases = await Promise.all(Array.from({ length: 50 }, (_, i) => {
        const leaseId = randomUUID();
        const store = i % 2 ? a : b;
        return store.acquireBudget({ key, limits: { concurrency: 4 }, tokens: 1, leaseId, leaseTtlMs: 30_000 }, now).then((g) => ({ ...g, leaseId, store }));
      }));
      const held = leases.filter((l) => l.ok);
      expect(held).toHaveLength(4);
      await Promise.all(held.map((l) => l.store.releaseBudget(key, l.leaseId, true, now + 1)));
      expect((await burst(a, b, key, { concurrency: 4 }, now + 2)).filter((g) => g.ok)).toHaveLength(4);
    });
  });

  it('never lets two processes together exceed tpm', async () => {
    await twoProcesses(async (a, b) => {
      const grants = await burst(a, b, `tpm-${randomUUID()}`, { tpm: 1000 }, Date.now(), 90);
      expect(grants.filter((g) => g.ok)).toHaveLength(11);
      expect(grants.filter((g) => !g.ok).every((g) => !g.ok && g.reason === 'tpm')).toBe(true);
    });
  });

  it('sets an expiry on every key it writes, so idle state vanishes', async () => {
    const keyPrefix = `expiry-${randomUUID()}:`;
    const store = redisStore(server.url, { keyPrefix });
    const now = Date.now();
    const [settled, held] = [randomUUID(), randomUUID()];
    for (const leaseId of [settled, held]) await store.acquireBudget({ key: 'openai', limits: { rpm: 5, windowMs: 10_000 }, tokens: 5, leaseId, leaseTtlMs: 20_000 }, now);
    await store.settleBudget('openai', settled, { charge: { tokens: 7 }, snapshot: { requests: { remaining: 3, resetMs: 40_000 } } }, now);
    await store.setBlock('openai:gpt-4o', { reason: 'cooling', untilMs: now + 30_000 }, now);
    await store.claimIdempotency('job-1', 'fp', 50_000, now);
    await store.openBreaker('openai', 'process-a', now + 30_000, now);
    await store.close();

    const ttls = Object.fromEntries(await Promise.all(
      (await admin.keys(`${keyPrefix}*`)).map(async (k) => [k.slice(keyPrefix.length), await admin.pttl(k)] as const),
    ));
    // Life of the contents plus the store's 5 s grace; every budget key carries the `{openai}` hash tag.
    const within = (ms: number) => expect.toSatisfy((ttl: number) => ttl > ms - 1000 && ttl <= ms + 5000);
    expect(ttls).toEqual({
      'budget:{openai}:req': within(10_000),
      'budget:{openai}:tok': within(10_000),
      'budget:{openai}:amt': within(10_000),
      'budget:{openai}:lease': within(20_000),
      'budget:{openai}:inf': within(20_000),
      'budget:{openai}:meta': within(40_000),
      'block:openai:gpt-4o': within(30_000),
      'idempotency:job-1': within(50_000),
      'breaker:openai': within(30_000 + BREAKER_RECORD_TTL_MS),
    });
  });

  it("uses the default 'switchyard:' prefix when the config leaves keyPrefix out", async () => {
    const store = redisStore(server.url, { keyPrefix: undefined });
    const key = `prefix-${randomUUID()}`;
    await store.setBlock(key, { reason: 'parked', untilMs: Date.now() + 1000 }, Date.now());
    expect(await admin.exists(`switchyard:block:${key}`)).toBe(1);
    await store.close();
  });

  it('reloads its scripts when the server has forgotten them', async () => {
    const store = redisStore(server.url);
    const key = `flush-${randomUUID()}`;
    const now = Date.now();
    expect((await acquire(store, key, { rpm: 2 }, now)).ok).toBe(true);
    await admin.script('FLUSH');
    expect((await acquire(store, key, { rpm: 2 }, now)).ok).toBe(true);
    expect(await acquire(store, key, { rpm: 2 }, now)).toMatchObject({ ok: false, reason: 'rpm' });
    await store.close();
  });

  it('closes the connection it opened itself', async () => {
    const before = await connectedClients();
    const store = redisStore(server.url);
    expect(store.shared).toBe(true);
    await store.getBlock('anything', Date.now());
    expect(await connectedClients()).toBe(before + 1);
    await store.close();
    await expect.poll(connectedClients).toBe(before);
    expect((await failureOf(store.getBlock('anything', Date.now()))).kind).toBe('transport');
  });

  it('says how to install redis-server when it is missing, so Redis tests fail instead of skipping', () => {
    expect(() => findRedisServer(['/nonexistent'])).toThrow(
      'redis-server not found: install it (apt-get install redis-server); CI installs it in .ci/run',
    );
  });

  it('leaves open a client the caller passed in', async () => {
    const client = new Redis(server.url);
    const store = redisStore(client);
    await store.setBlock('caller-client', { reason: 'parked', untilMs: Date.now() + 1000 }, Date.now());
    await store.close();
    expect(await client.ping()).toBe('PONG');
    await client.quit();
  });

  it.each([
    ['a scheme it does not speak', 'http://admin:hunter2-fake@example.com:6379', 'http://admin:***@example.com:6379'],
    ['an unparsable URL', 'redis://admin:hunter2-fake@example.com:port', 'redis://***@example.com:port'],
    ['a password in the query', 'redis//example.com?password=hunter2-fake', 'redis//example.com?***'],
  ])('refuses %s as a config error without echoing the password', async (_, url, shown) => {
    const err = await failureOf(() => redisStore(url));
    expect(err.kind).toBe('config');
    expect(err.message).toContain(shown);
    expect(JSON.stringify(err)).not.toContain('hunter2');
  });

  it('fails as transport, naming the server but not the password, when Redis is unreachable', async () => {
    const port = await freePort();
    const store = redisStore(`redis://admin:s3cret-fake-pw@127.0.0.1:${port}`);
    const err = await failureOf(acquire(store, 'openai', { rpm: 1 }, Date.now()));
    await store.close();
    expect(err.kind).toBe('transport');
    expect(err.message).toMatch(new RegExp(`redis://admin:\\*\\*\\*@127\\.0\\.0\\.1:${port} is unreachable .*ECONNREFUSED`));
    for (const text of [err.message, err.stack, JSON.stringify(err), String(err.cause), (err.cause as Error | undefined)?.stack]) {
      expect(text ?? '').not.toContain('s3cret');
    }
  });

  it('tells a connection listener that it lost Redis with an error naming the server, not the password', async () => {
    const port = await freePort();
    const store = redisStore(`redis://admin:s3cret-fake-pw@127.0.0.1:${port}`);
    const heard: Array<[string, Error | undefined]> = [];
    const unwatch = store.watchConnection((event, error) => heard.push([event, error]));
    await failureOf(store.ping());
    unwatch();
    await store.close();
    const [event, error] = heard[0]!;
    expect(event).toBe('lost');
    expect(error).toMatchObject({ kind: 'transport', code: 'redis', message: `Redis store at redis://admin:***@127.0.0.1:${port} lost its connection (connect ECONNREFUSED 127.0.0.1:${port})` });
    expect(JSON.stringify(error) + String(error?.stack)).not.toContain('s3cret');
  });

  it('reports credentials Redis rejects as a config error', async () => {
    const user = `user-${randomUUID()}`;
    await admin.acl('SETUSER', user, 'on', '>right-password', '~*', '+@all');
    const store = redisStore(`redis://${user}:wrong-password@127.0.0.1:${server.port}`);
    const err = await failureOf(store.getBlock('anything', Date.now()));
    await store.close();
    await admin.acl('DELUSER', user);
    expect(err.kind).toBe('config');
    expect(err.message).toContain('rejected the credentials');
    expect(JSON.stringify(err) + String(err.cause)).not.toContain('wrong-password');
  });
});
