import { afterEach, describe, expect, it } from 'vitest';
import type { SwitchyardConfig } from '../../src/config/index.js';
import { createRouter, type Router } from '../../src/router.js';
import { MemoryStore } from '../../src/store/memory-store.js';
import type { StateStore } from '../../src/store/state-store.js';
import { checkStore, roleOf, rolesOf } from '../../src/store/store-roles.js';
import { fakeRequests } from '../../src/testing/index.js';
import { captureLogger } from '../support/capture-logger.js';
import { VirtualClock } from '../support/virtual-clock.js';

// A store of one's own plays only the roles every store must (lifecycle, blocks, budgets); each
// feature that needs another role does without it, or says so.

let routers: Router[] = [];
afterEach(async () => {
  for (const r of routers) await r.close();
  routers = [];
});

/** The least a custom store must be: its blocks and budgets, kept here by a MemoryStore. */
function bareStore(shared = false): StateStore {
  const m = new MemoryStore();
  return {
    shared,
    close: () => m.close(),
    getBlock: (k, now) => m.getBlock(k, now),
    setBlock: (k, b, now) => m.setBlock(k, b, now),
    acquireBudget: (req, now) => m.acquireBudget(req, now),
    releaseBudget: (k, id, sent, now) => m.releaseBudget(k, id, sent, now),
    settleBudget: (k, id, s, now) => m.settleBudget(k, id, s, now),
  };
}

function router(store: StateStore, config: Partial<SwitchyardConfig> = {}) {
  const r = createRouter({ providers: { p: { type: 'fake' } }, chains: { default: ['p:m'] }, ...config }, { logger: captureLogger().logger, clock: new VirtualClock(), store });
  routers.push(r);
  return r;
}

const ask = { messages: [{ role: 'user' as const, content: 'What is a switchyard?' }] };

describe('the roles of a state store', () => {
  it('finds a role only when the store has every member of it', () => {
    const memory = new MemoryStore();
    expect(roleOf(memory, 'idempotency')).toBe(memory);
    expect(roleOf(memory, 'cache')).toBeUndefined();
    expect(rolesOf(memory)).toEqual(['idempotency', 'breakers', 'conversations', 'spend']);
    expect(rolesOf({ ...bareStore(), readCached: () => undefined })).toEqual([]);
  });

  it('refuses, naming what is missing, a store that lacks a member every store needs', () => {
    const { settleBudget: _, ...lacking } = bareStore();
    expect(() => createRouter({ providers: { p: { type: 'fake' } }, chains: { default: ['p:m'] } }, { store: lacking as StateStore })).toThrow(
      expect.objectContaining({
        kind: 'config',
        message: 'options.store is not a usable state store: it lacks settleBudget (the budgets role every store plays: acquireBudget, releaseBudget, settleBudget)',
      }),
    );
  });

  it('refuses a store that plays half a role, and one that is no object', () => {
    expect(() => checkStore({ ...bareStore(), readCached: () => undefined })).toThrow(
      'options.store is not a usable state store: it has readCached but not writeCached (the cache role is played whole or not at all)',
    );
    expect(() => checkStore({ ...bareStore(), shared: 'yes' })).toThrow('its `shared` is not a boolean');
    expect(() => checkStore('redis://localhost')).toThrow(expect.objectContaining({ kind: 'config', message: expect.stringContaining('options.store must be a state store object') }));
  });
});

describe('a router on a store of its own that plays no optional role', () => {
  it('answers calls, with budgets and cooling kept in it', async () => {
    const r = router(bareStore(), {
      providers: {
        a: { type: 'fake', limits: { rpm: 1 } },
        b: { type: 'fake', script: [{ fail: 'rate_limited', retryAfterMs: 600_000 }] },
        c: { type: 'fake' },
      },
      chains: { default: ['a:m', 'b:m', 'c:m'] },
    });
    expect((await r.chat(ask)).provider).toBe('a');
    // a's budget is spent; b answers 429 for ten minutes and cools; c answers.
    expect((await r.chat(ask)).provider).toBe('c');
    const third = await r.chat(ask);
    expect(third.attempts.map((a) => [a.provider, a.kind, a.skipped])).toEqual([['a', 'local_limit', true], ['b', 'rate_limited', true], ['c', undefined, undefined]]);
    expect([fakeRequests(r, 'a').length, fakeRequests(r, 'b').length, fakeRequests(r, 'c').length]).toEqual([1, 1, 2]);
  });

  it('fails a call with an idempotencyKey as config, sending nothing, and still answers calls without one', async () => {
    const r = router(bareStore());
    await expect(r.chat({ ...ask, idempotencyKey: 'order-42' })).rejects.toMatchObject({
      kind: 'config', message: expect.stringContaining('idempotencyKey needs a state store that keeps idempotency records'),
    });
    expect(fakeRequests(r, 'p')).toHaveLength(0);
    await r.chat(ask);
    expect(fakeRequests(r, 'p')).toHaveLength(1);
  });

  it('keeps the response cache in an LRU of this process', async () => {
    const r = router(bareStore(true), { cache: { ttlMs: 60_000 } });
    await r.chat(ask);
    expect(await r.chat(ask)).toMatchObject({ cached: true });
    expect(fakeRequests(r, 'p')).toHaveLength(1);
  });

  it('leaves each breaker to this process with breaker.shared on a shared store', async () => {
    const r = router(bareStore(true), {
      providers: { p: { type: 'fake', respond: () => ({ fail: 'server', status: 503 }) }, q: { type: 'fake' } },
      chains: { default: ['p:m', 'q:m'] },
      retry: { maxAttempts: 1 },
      breaker: { volumeThreshold: 2, shared: true, lastResort: false },
    });
    for (let i = 0; i < 2; i++) expect((await r.chat(ask)).provider).toBe('q');
    expect(r.breakerStates().p).toBe('open');
    expect((await r.chat(ask)).attempts[0]).toMatchObject({ provider: 'p', kind: 'circuit_open', skipped: true });
    expect(fakeRequests(r, 'p')).toHaveLength(2);
  });
});
