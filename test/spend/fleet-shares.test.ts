import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SwitchyardConfig } from '../../src/config/index.js';
import { heldBack } from '../../src/decide/fleet-share.js';
import { createRouter, type Router } from '../../src/router.js';
import { redisStore } from '../../src/store/redis-store.js';
import type { StateStore } from '../../src/store/state-store.js';
import { captureLogger } from '../support/capture-logger.js';
import { OPENAI_PATH } from '../support/fixtures.js';
import { redisPerFile } from '../support/redis-per-file.js';
import { startUpstream, type Upstream } from '../support/upstream.js';
import { VirtualClock } from '../support/virtual-clock.js';
import { OPENAI_KEY } from '../support/wire-router.js';
import { startRestartableRedis } from '../reliability/restartable-redis.js';

// Two routers on one real Redis, one virtual clock, one target at a paced 240 rpm. Router A serves
// only tenant gold (share 3), router B only silver (share 1), each keeping more calls waiting than
// the target lets through. Each process's fair queue alone sees one tenant: only the fleet's shares
// make the split 3:1.

describe('heldBack (fleet-wide service by share)', () => {
  const shareOf = (t: string) => (t === 'gold' ? 3 : 1);
  it('holds back a tenant ahead of another that waits in the fleet, by more than the slack', () => {
    expect(heldBack('silver', { gold: 3, silver: 3 }, ['gold', 'silver'], shareOf)).toBe(true); // 3 vs 1
    expect(heldBack('gold', { gold: 3, silver: 3 }, ['gold', 'silver'], shareOf)).toBe(false);
    expect(heldBack('gold', { gold: 12, silver: 2 }, ['silver'], shareOf)).toBe(true); // 4 vs 2, gold waits nowhere else
    expect(heldBack('gold', { gold: 7, silver: 2 }, ['silver'], shareOf)).toBe(false); // 2.33 vs 2: within the slack
  });
  it('never holds back a tenant when nobody else waits', () => {
    expect(heldBack('silver', { gold: 0, silver: 100 }, ['silver'], shareOf)).toBe(false);
    expect(heldBack('silver', { gold: 0, silver: 100 }, [], shareOf)).toBe(false);
  });
});

const redis = redisPerFile();
let up: Upstream;
let routers: Router[] = [];
beforeEach(async () => {
  up = await startUpstream();
  up.otherwise(OPENAI_PATH, () => ({
    status: 200,
    body: {
      id: 'chatcmpl-1', object: 'chat.completion', created: 1741569952, model: 'gpt-4o-mini',
      choices: [{ index: 0, message: { role: 'assistant', content: 'Hello!', refusal: null }, logprobs: null, finish_reason: 'stop' }],
      usage: { prompt_tokens: 19, completion_tokens: 10, total_tokens: 29 },
    },
  }));
});
// Hang guards below are long: each test steps the virtual clock against real loopback I/O (Redis,
// the upstream), whose real time grows several-fold on a busy 2-core machine.
afterEach(async () => {
  // Taken off the list first: a test that failed mid-way leaves its routers to this test alone.
  const open = routers;
  routers = [];
  for (const r of open) await r.close();
  await up.close();
}, 120_000);

function config(prefix: string): SwitchyardConfig {
  return {
    // The store's own timeout is on the virtual clock, which this test moves faster than real time:
    // a Redis reply slowed by a busy machine must not look like an outage.
    store: { type: 'redis', url: redis.url, keyPrefix: prefix, failoverMs: 600_000 },
    providers: { openai: { type: 'openai', apiKey: OPENAI_KEY, baseURL: `${up.url}/v1`, timeoutMs: 60_000, limits: { rpm: 240, maxQueueMs: 600_000 } } },
    chains: { default: ['openai:gpt-4o-mini'] },
    retry: { maxAttempts: 1 },
    tenants: { gold: { share: 3 }, silver: { share: 1 } },
  };
}

/** A store as a process without fleet shares sees it: the same Redis, without the `shares` role. */
const withoutShares = (store: StateStore): StateStore => Object.assign(store, { syncShares: undefined });

/**
 * Runs both routers for `virtualMs` with `perRouter` calls each always in flight, moving the clock
 * 25 ms at a time and letting loopback I/O finish between steps; returns what each served after
 * the first `warmupMs` (the initial burst and the first syncs).
 */
async function contend(a: Router, b: Router, clock: VirtualClock, virtualMs: number, warmupMs: number, perRouter = 6, bTenant: 'gold' | 'silver' = 'silver') {
  const served = { gold: 0, silver: 0, failed: 0 };
  let running = true;
  let inflight = 0;
  const loop = async (r: Router, tenant: 'gold' | 'silver') => {
    while (running) {
      inflight++;
      try {
        await r.chat({ messages: [{ role: 'user', content: 'Say hello' }], tenant, maxTokens: 10 });
        if (clock.now() >= start + warmupMs) served[tenant]++;
      } catch {
        if (running) served.failed++; // after the test's end, closing ends the calls still waiting
      } finally {
        inflight--;
      }
    }
  };
  const start = clock.now();
  const loops = [...Array.from({ length: perRouter }, () => loop(a, 'gold')), ...Array.from({ length: perRouter }, () => loop(b, bTenant))];
  for (let t = 0; t < virtualMs; t += 25) {
    await clock.advance(25);
    await new Promise((r) => setTimeout(r, 2)); // loopback I/O (Redis, the upstream) is real time
  }
  running = false;
  // Closing lets the calls in flight finish, and some of them wait on the virtual clock (a paced
  // grant, a store timer): time goes on while the routers close, as it would for a real process.
  // On a busy machine more calls are still out when the loop stops, and a stopped clock hung here.
  let closed = false;
  const closing = Promise.all(a === b ? [a.close()] : [a.close(), b.close()]).then(() => Promise.all(loops)).finally(() => (closed = true));
  while (!closed) {
    await clock.advance(100);
    await new Promise((r) => setTimeout(r, 2));
  }
  await closing;
  expect(inflight).toBe(0);
  return served;
}

describe('fair shares across a fleet (two routers, one Redis)', () => {
  it('serves tenants 3:1 across the fleet when each router sees only one of them', async () => {
    const clock = new VirtualClock({ autoAdvance: false });
    const prefix = `shares-${randomUUID()}:`;
    const outages: string[] = [];
    const make = () => {
      const r = createRouter(config(prefix), { logger: captureLogger().logger, clock });
      r.on('store', (e) => outages.push(e.state));
      routers.push(r);
      return r;
    };
    const served = await contend(make(), make(), clock, 30_000, 5_000);
    expect(outages).toEqual([]);
    expect(served.failed).toBe(0);
    const ratio = served.gold / served.silver;
    // 240 rpm over the 25 measured seconds: about 100 served in all.
    expect(served.gold + served.silver).toBeGreaterThan(80);
    expect(ratio).toBeGreaterThan(3 * 0.85);
    expect(ratio).toBeLessThan(3 * 1.15);
    // The budget is shared exactly whatever the shares: 30 s at 4 a second, plus its burst of 10.
    expect(up.count(OPENAI_PATH)).toBeLessThanOrEqual(30 * 4 + 10);
  }, 400_000);

  it('without the fleet\'s shares (each process alone), the same load splits about evenly', async () => {
    const clock = new VirtualClock({ autoAdvance: false });
    const prefix = `shares-${randomUUID()}:`;
    const outages: string[] = [];
    const make = () => {
      const r = createRouter(config(prefix), { logger: captureLogger().logger, clock, store: withoutShares(redisStore(redis.url, { keyPrefix: prefix })) });
      r.on('store', (e) => outages.push(e.state));
      routers.push(r);
      return r;
    };
    // Half the first test's run: an even split shows in 12 measured seconds (about 48 served).
    const served = await contend(make(), make(), clock, 15_000, 3_000);
    expect(outages).toEqual([]);
    expect(served.gold + served.silver).toBeGreaterThan(35);
    expect(served.gold / served.silver).toBeLessThan(2);
  }, 400_000);
});

describe('fleet shares cost nothing off contention', () => {
  it('syncs with Redis only while a call waited for the budget lately, and stops a window after', async () => {
    const clock = new VirtualClock({ autoAdvance: false });
    const prefix = `shares-${randomUUID()}:`;
    const store = redisStore(redis.url, { keyPrefix: prefix });
    const sync = store.syncShares.bind(store);
    let syncs = 0;
    store.syncShares = (req, now) => {
      syncs++;
      return sync(req, now);
    };
    const r = createRouter(config(prefix), { logger: captureLogger().logger, clock, store });
    routers.push(r);
    const ask = { messages: [{ role: 'user' as const, content: 'Say hello' }], tenant: 'gold', maxTokens: 10 };
    // Under the limit (a burst of 10): nobody waits, so nothing is counted or sent to the fleet.
    for (let i = 0; i < 5; i++) await r.chat(ask);
    await clock.advance(1_000);
    expect(syncs).toBe(0);
    // Past it: calls wait, and the process syncs its shares while they do.
    const calls = Array.from({ length: 12 }, () => r.chat(ask));
    for (let t = 0; t < 4_000; t += 25) {
      await clock.advance(25);
      await new Promise((res) => setTimeout(res, 2));
    }
    await Promise.all(calls);
    expect(syncs).toBeGreaterThan(0);
    // A window (10 s) after the last wait it forgets the budget: no more syncs.
    for (let t = 0; t < 11_000; t += 100) {
      await clock.advance(100);
      await new Promise((res) => setTimeout(res, 1));
    }
    const after = syncs;
    await clock.advance(5_000);
    await new Promise((res) => setTimeout(res, 20));
    expect(syncs).toBe(after);
  }, 240_000);

  it('is not on at all without tenants configured', async () => {
    const clock = new VirtualClock({ autoAdvance: false });
    const prefix = `shares-${randomUUID()}:`;
    const store = redisStore(redis.url, { keyPrefix: prefix });
    let syncs = 0;
    const sync = store.syncShares.bind(store);
    store.syncShares = (req, now) => {
      syncs++;
      return sync(req, now);
    };
    const { tenants: _none, ...cfg } = config(prefix);
    const r = createRouter(cfg, { logger: captureLogger().logger, clock, store });
    routers.push(r);
    const calls = Array.from({ length: 14 }, () => r.chat({ messages: [{ role: 'user', content: 'Say hello' }], maxTokens: 10 }));
    for (let t = 0; t < 2_000; t += 25) {
      await clock.advance(25);
      await new Promise((res) => setTimeout(res, 2));
    }
    await Promise.all(calls);
    expect(up.count(OPENAI_PATH)).toBe(14);
    expect(syncs).toBe(0);
  }, 240_000);
});

describe("fair shares with Redis killed (onUnavailable 'local')", () => {
  it('fall back to per-process shares: one router serves its own tenants 3:1, says so once, and fails no call', async () => {
    const killable = await startRestartableRedis();
    try {
      const clock = new VirtualClock({ autoAdvance: false });
      const log = captureLogger();
      const cfg = config(`shares-${randomUUID()}:`);
      const r = createRouter({ ...cfg, store: { type: 'redis', url: killable.url, keyPrefix: `shares-${randomUUID()}:`, onUnavailable: 'local', failoverMs: 600_000 } }, { logger: log.logger, clock });
      routers.push(r);
      const states: string[] = [];
      r.on('store', (e) => states.push(e.state));
      await r.chat({ messages: [{ role: 'user', content: 'Say hello' }], tenant: 'gold', maxTokens: 10 }); // on shared state
      await killable.kill();
      for (let i = 0; i < 10_000 && !states.includes('unavailable'); i++) await new Promise((res) => setTimeout(res, 5));
      expect(states).toEqual(['unavailable']);
      // Both tenants in this one process, contending for the target's local share: its fair queue alone keeps 3:1.
      const served = await contend(r, r, clock, 30_000, 5_000, 6, 'silver');
      expect(served.failed).toBe(0);
      expect(served.gold + served.silver).toBeGreaterThan(80);
      expect(served.gold / served.silver).toBeGreaterThan(3 * 0.85);
      expect(served.gold / served.silver).toBeLessThan(3 * 1.15);
      const warned = log.records().filter((x) => x.level === 40 && String(x.msg).startsWith('shared store unavailable: tenant shares hold per process'));
      expect(warned).toHaveLength(1);
    } finally {
      await killable.stop();
    }
  }, 400_000);
});
