import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import type { SwitchyardConfig } from '../../src/config/index.js';
import type { RouterEvents } from '../../src/observe/events.js';
import { createRouter, type Router } from '../../src/router.js';
import { MemoryStore } from '../../src/store/memory-store.js';
import { redisStore } from '../../src/store/redis-store.js';
import type { StateStore } from '../../src/store/state-store.js';
import { fakeRequests } from '../../src/testing/index.js';
import { captureLogger } from '../support/capture-logger.js';
import { redisPerFile } from '../support/redis-per-file.js';
import { until } from '../support/until.js';
import { VirtualClock } from '../support/virtual-clock.js';

// Two routers on one shared store are two processes of one fleet. With `breaker.shared` they hold one
// breaker state and send one half-open probe between them; without it each sends its own.

const ask = { messages: [{ role: 'user' as const, content: 'hi' }] };
let closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closers) await close();
  closers = [];
});

/** A memory store flagged shared: what two processes on one Redis see, on a clock a test moves by hand. */
function sharedMemory(): MemoryStore {
  return Object.defineProperty(new MemoryStore(), 'shared', { value: true });
}

function fleetRouter(clock: VirtualClock, store: StateStore, outcome: () => unknown, breaker: Partial<SwitchyardConfig['breaker']> = {}) {
  const router = createRouter({
    providers: { primary: { type: 'fake', respond: outcome }, backup: { type: 'fake' } },
    chains: { default: ['primary:m', 'backup:m'] },
    retry: { maxAttempts: 1 },
    breaker: { volumeThreshold: 4, errorThresholdPercentage: 50, resetTimeoutMs: 30_000, windowMs: 10_000, shared: true, ...breaker },
  }, { logger: captureLogger().logger, clock, store });
  const transitions: Array<RouterEvents['breaker']> = [];
  router.on('breaker', (e) => transitions.push(e));
  closers.push(() => router.close());
  return { router, transitions, sent: () => fakeRequests(router, 'primary').length, state: () => router.breakerStates().primary };
}

/** Lets the store's replies (promises, no time) reach both routers. */
const settle = async () => {
  for (let i = 0; i < 20; i++) await new Promise<void>((r) => setImmediate(r));
};

describe('breaker.shared on one store (two routers, one virtual clock)', () => {
  function fleet(shared: boolean) {
    const clock = new VirtualClock({ autoAdvance: false });
    const store = sharedMemory();
    const opens: string[] = [];
    const openBreaker = store.openBreaker.bind(store);
    store.openBreaker = (key, by, untilMs, nowMs) => (opens.push(by), openBreaker(key, by, untilMs, nowMs));
    const provider = { healthy: false };
    const outcome = () => (provider.healthy ? 'ok' : { fail: 'server', status: 503 });
    const a = fleetRouter(clock, store, outcome, { shared });
    const b = fleetRouter(clock, store, outcome, { shared });
    return { clock, provider, a, b, opens };
  }

  it('opens for the fleet when one process trips: the other sends nothing to the provider meanwhile', async () => {
    const { clock, a, b, opens } = fleet(true);
    for (let i = 0; i < 4; i++) await a.router.chat(ask);
    expect(a.state()).toBe('open');
    await settle();
    await clock.advance(1000); // one bucket rotation: b reads the fleet's state
    expect(b.state()).toBe('open');
    for (let i = 0; i < 5; i++) expect((await b.router.chat(ask)).provider).toBe('backup');
    expect(b.sent()).toBe(0);
    expect(b.transitions).toEqual([{ key: 'primary', state: 'open' }]);
    // b followed; it published nothing of its own, and goes half-open when a's reset runs out.
    expect(opens).toHaveLength(1);
    await clock.advance(28_999);
    expect(b.state()).toBe('open');
    await clock.advance(1);
    expect(b.state()).toBe('halfOpen');
  });

  it.each([
    ['one probe for the fleet', true, 1],
    ['one probe per process without breaker.shared', false, 2],
  ])('half-open on a provider still down, sends %s', async (_, shared, probes) => {
    const { clock, a, b } = fleet(shared);
    for (let i = 0; i < 4; i++) {
      await a.router.chat(ask);
      await b.router.chat(ask);
    }
    expect([a.state(), b.state()]).toEqual(['open', 'open']);
    const before = a.sent() + b.sent();
    await settle();
    await clock.advance(30_000);
    await settle();
    expect([a.state(), b.state()]).toEqual(['halfOpen', 'halfOpen']);
    for (let round = 0; round < 5; round++) {
      await Promise.all([a.router.chat(ask), b.router.chat(ask)]);
      await settle();
    }
    expect(a.sent() + b.sent() - before).toBe(probes);
    expect([a.state(), b.state()]).toEqual(['open', 'open']);
  });

  it('closes for the fleet after one successful probe; the other process follows without a probe of its own', async () => {
    const { clock, provider, a, b } = fleet(true);
    for (let i = 0; i < 4; i++) await a.router.chat(ask);
    await settle();
    await clock.advance(30_000);
    await settle();
    provider.healthy = true;
    for (let round = 0; round < 5 && !(a.state() === 'closed' && b.state() === 'closed'); round++) {
      await Promise.all([a.router.chat(ask), b.router.chat(ask)]);
      await settle();
    }
    expect([a.state(), b.state()]).toEqual(['closed', 'closed']);
    const closes = [...a.transitions, ...b.transitions].filter((t) => t.state === 'closed');
    // One close came from a probe (it names its call); the other process's close came from the fleet.
    expect(closes).toHaveLength(2);
    expect(closes.filter((t) => t.callId !== undefined)).toHaveLength(1);
    for (const r of [a, b]) expect((await r.router.chat(ask)).provider).toBe('primary');
  });

  it('acts alone while the store is unreachable, and tells the fleet what it decided once the store is back', async () => {
    const clock = new VirtualClock({ autoAdvance: false });
    const memory = sharedMemory();
    let reachable = true;
    // A store that refuses every call while unreachable (a dead Redis, as the FallbackStore sees it).
    const store = new Proxy(memory, {
      get(target, prop, receiver) {
        const value = Reflect.get(target, prop, receiver);
        if (typeof value !== 'function' || prop === 'close') return value;
        return (...args: unknown[]) => (reachable ? value.apply(target, args) : Promise.reject(new Error('connect ECONNREFUSED')));
      },
    });
    const a = fleetRouter(clock, store, () => ({ fail: 'server', status: 503 }));
    reachable = false;
    for (let i = 0; i < 4; i++) expect((await a.router.chat(ask)).provider).toBe('backup');
    expect(a.state()).toBe('open'); // its own window, as an unshared breaker would
    reachable = true;
    await clock.advance(1000); // the store is probed back, and the open state it missed is published
    await settle();
    await clock.advance(1000);
    await settle();
    expect(memory.readBreaker('primary', clock.now()).state).toBe('open');
  });
});

/**
 * A Redis store that counts its operations in flight: a test on a virtual clock moves time only once
 * Redis has answered, so no round trip, however slow the machine, ever spans a tick of the clock.
 */
function trackedRedis(url: string, keyPrefix: string): { store: StateStore; idle: () => boolean } {
  const store = redisStore(url, { keyPrefix });
  let inFlight = 0;
  const done = () => void inFlight--;
  const tracked = new Proxy(store, {
    get(target, prop, receiver) {
      const value = Reflect.get(target, prop, receiver);
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        const out = value.apply(target, args);
        if (out instanceof Promise) {
          inFlight++;
          out.then(done, done);
        }
        return out;
      };
    },
  });
  return { store: tracked, idle: () => inFlight === 0 };
}

describe('breaker.shared on Redis (two routers, one virtual clock)', () => {
  const redis = redisPerFile();

  it('sends one half-open probe for both routers to a provider that is down', async () => {
    const keyPrefix = `shared-breaker-${randomUUID()}:`;
    // Every window, reset and lease runs on this clock (the store compares the caller's nowMs, never
    // Redis's): the 4 calls share one instant of the window, and no second probe can fall due while
    // the first one's round trips are under way, however busy the machine is.
    const clock = new VirtualClock({ autoAdvance: false });
    const make = () => {
      const redisOps = trackedRedis(redis.url, keyPrefix);
      const router: Router = createRouter({
        providers: { primary: { type: 'fake', respond: () => ({ fail: 'server', status: 503 }) }, backup: { type: 'fake' } },
        chains: { default: ['primary:m', 'backup:m'] },
        retry: { maxAttempts: 1 },
        breaker: { volumeThreshold: 4, resetTimeoutMs: 3_000, windowMs: 1_000, shared: true, lastResort: false },
      }, { logger: captureLogger().logger, clock, store: redisOps.store });
      const storeEvents: unknown[] = [];
      router.on('store', (e) => storeEvents.push(e));
      closers.push(() => router.close());
      return { router, storeEvents, idle: redisOps.idle, sent: () => fakeRequests(router, 'primary').length, state: () => router.breakerStates().primary };
    };
    const a = make();
    const b = make();
    /** Redis has answered every operation of both routers (real time: loopback round trips). */
    const idle = () => until(() => a.idle() && b.idle(), 'Redis to answer both routers');
    /** Moves the clock one bucket rotation (100 ms) at a time, letting Redis answer each rotation's reads. */
    const pass = async (ms: number) => {
      for (let t = 0; t < ms; t += 100) {
        await clock.advance(100);
        await idle();
      }
    };

    for (let i = 0; i < 4; i++) await a.router.chat(ask);
    expect(a.state()).toBe('open');
    await idle();
    await pass(100); // b adopts the fleet's breaker on a rotation
    expect(b.state()).toBe('open');
    await pass(2_900); // a's reset runs out, for the fleet
    expect([a.state(), b.state()]).toEqual(['halfOpen', 'halfOpen']);
    const before = a.sent() + b.sent();
    for (let round = 0; round < 10 && (a.state() !== 'open' || b.state() !== 'open'); round++) {
      await Promise.all([a.router.chat(ask), b.router.chat(ask)]);
      await idle();
    }
    expect([a.state(), b.state()]).toEqual(['open', 'open']);
    expect(a.sent() + b.sent() - before).toBe(1);
    // Redis answered throughout: the store never counted as down (which would split the fleet).
    expect([...a.storeEvents, ...b.storeEvents]).toEqual([]);
  });
});
