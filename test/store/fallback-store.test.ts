import { describe, expect, it } from 'vitest';
import { RouterError } from '../../src/errors.js';
import { FallbackStore, type StoreStateChange } from '../../src/store/fallback-store.js';
import { MemoryStore } from '../../src/store/memory-store.js';
import type { BudgetRequest } from '../../src/store/budget-store.js';
import type { CacheStore, ConnectionListener, ConversationStore, IdempotencyStore, StateStore } from '../../src/store/state-store.js';
import { rolesOf } from '../../src/store/store-roles.js';
import { captureLogger } from '../support/capture-logger.js';
import { until } from '../support/until.js';
import { VirtualClock } from '../support/virtual-clock.js';

// The store's own breaker, on a virtual clock that moves only when a test moves it: "250 ms without
// an answer" is 250 virtual ms, whatever the machine's load.

type Mode = 'ok' | 'hang' | 'fail' | 'config';

/**
 * A shared store whose answers a test controls: a MemoryStore behind async calls that can hang or
 * fail, playing the cache role too over `cached` when given.
 */
function flakyStore(cached?: Map<string, string>) {
  const inner = new MemoryStore();
  const cache: CacheStore | undefined = cached && {
    readCached: (k) => cached.get(k),
    writeCached: (k, v) => void cached.set(k, v),
  };
  const control = { mode: 'ok' as Mode, calls: 0, listener: undefined as ConnectionListener | undefined };
  const answer = (fn: () => unknown) => {
    control.calls++;
    if (control.mode === 'hang') return new Promise(() => {});
    if (control.mode === 'fail') return Promise.reject(new RouterError('transport', 'Redis store at redis://127.0.0.1:1/0 is unreachable (connect ECONNREFUSED)', { code: 'redis' }));
    if (control.mode === 'config') return Promise.reject(new RouterError('config', 'Redis store at redis://127.0.0.1:1/0 rejected the credentials', { code: 'redis_auth' }));
    return Promise.resolve().then(fn);
  };
  const store = new Proxy(inner, {
    get(target, prop, receiver) {
      if (prop === 'shared') return true;
      if (prop === 'close') return () => {};
      if (prop === 'ping') return () => answer(() => undefined);
      if (prop === 'watchConnection') return (l: ConnectionListener) => ((control.listener = l), () => (control.listener = undefined));
      const value = cache && prop in cache ? cache[prop as keyof CacheStore].bind(cache) : Reflect.get(target, prop, receiver);
      return typeof value === 'function' ? (...args: unknown[]) => answer(() => value.apply(target, args)) : value;
    },
  }) as unknown as StateStore;
  return { inner, store, control };
}

function setup(onUnavailable: 'local' | 'fail' = 'local', cached?: Map<string, string>) {
  const clock = new VirtualClock({ autoAdvance: false });
  const flaky = flakyStore(cached);
  const log = captureLogger();
  const changes: StoreStateChange[] = [];
  const fallback = new FallbackStore(flaky.store, { clock, logger: log.logger, onUnavailable, onStateChange: (c) => changes.push(c) });
  // A MemoryStore plays idempotency (and breaker state): so does the fallback in front of it.
  expect(rolesOf(fallback)).toEqual(cached ? ['idempotency', 'cache', 'breakers', 'conversations', 'spend'] : ['idempotency', 'breakers', 'conversations', 'spend']);
  const store = fallback as FallbackStore & IdempotencyStore & Partial<CacheStore>;
  const warnings = () => log.records().filter((r) => r.level === 40).map((r) => r.msg);
  return { ...flaky, store, clock, changes, warnings };
}

let leases = 0;
const lease = (key = 'openai', limits = { rpm: 10, concurrency: 5 }): BudgetRequest => ({ key, limits, tokens: 10, leaseId: `lease-${++leases}`, leaseTtlMs: 30_000 });

describe('FallbackStore: a breaker on the shared store', () => {
  it('goes on with process-local state once the store has not answered for 250 ms, and then never waits on it', async () => {
    const { store, control, clock, changes } = setup();
    control.mode = 'hang';
    let grant: unknown;
    const pending = Promise.resolve(store.acquireBudget(lease(), clock.now())).then((g) => (grant = g));
    await clock.advance(249);
    expect(grant).toBeUndefined();
    await clock.advance(1);
    expect(await pending).toEqual({ ok: true });
    expect(changes).toEqual([{ state: 'unavailable', error: 'the state store did not answer within 250 ms' }]);

    const asked = control.calls;
    // Answered on the spot (not even a promise): nothing waits on a store known to be down.
    expect(store.acquireBudget(lease(), clock.now())).toEqual({ ok: true });
    expect(store.getBlock('target:openai:gpt-4o', clock.now())).toBeUndefined();
    expect(store.claimIdempotency('k', 'fp', 1000, clock.now())).toEqual({ state: 'claimed' });
    expect(control.calls).toBe(asked);
    await store.close();
  });

  it('probes the store on the clock, resumes once it answers, and reports each change once', async () => {
    const { store, control, clock, changes, warnings } = setup();
    control.mode = 'fail';
    await store.getBlock('x', clock.now());
    await store.getBlock('x', clock.now());
    expect(store.available).toBe(false);
    await clock.advance(1000); // a probe, still failing
    await clock.advance(1000);
    expect(store.available).toBe(false);
    control.mode = 'ok';
    await clock.advance(1000);
    expect(store.available).toBe(true);
    expect(changes.map((c) => c.state)).toEqual(['unavailable', 'available']);
    expect(warnings()).toEqual(['state store unavailable: calls continue on process-local state until it answers again']);
    const asked = control.calls;
    await store.getBlock('x', clock.now());
    expect(control.calls).toBe(asked + 1);
    await store.close();
    expect(clock.pendingTimers).toBe(0);
  });

  it('counts a dropped connection as down at once, and probes as soon as the connection is back', async () => {
    const { store, control, clock, changes } = setup();
    control.listener!('lost', new Error('read ECONNRESET'));
    expect(store.available).toBe(false);
    expect(changes).toEqual([{ state: 'unavailable', error: 'read ECONNRESET' }]);
    control.listener!('ready');
    await until(() => store.available, 'the store back in use');
    expect(clock.now()).toBe(new VirtualClock().now()); // no time passed: the probe did not wait for its tick
    await store.close();
    expect(control.listener).toBeUndefined();
  });

  it("fails decisions at once as transport with onUnavailable 'fail', and never fails what comes after an answer", async () => {
    const { store, control, clock } = setup('fail');
    control.mode = 'fail';
    const first = await Promise.resolve(store.acquireBudget(lease(), clock.now())).catch((e: RouterError) => e);
    expect(first).toMatchObject({ kind: 'transport', message: expect.stringContaining('is unreachable') });
    const asked = control.calls;
    const decisions: Array<() => unknown> = [
      () => store.getBlock('x', clock.now()), () => store.acquireBudget(lease(), clock.now()),
      () => store.claimIdempotency('k', 'fp', 1000, clock.now()), () => store.readIdempotency('k', 'fp', clock.now()),
    ];
    for (const decision of decisions) await expect(Promise.resolve().then(decision)).rejects.toMatchObject({ kind: 'transport' });
    expect(control.calls).toBe(asked);
    await store.releaseBudget('openai', 'lease-x', true, clock.now());
    await store.settleBudget('openai', 'lease-x', { charge: { tokens: 50 }, snapshot: { requests: { remaining: 1, resetMs: 1000 } } }, clock.now());
    await store.setBlock('target:openai:m', { reason: 'cooling', untilMs: clock.now() + 5000 }, clock.now());
    await store.completeIdempotency('k', 'fp', '"answer"', 60_000, clock.now());
    await store.abandonIdempotency('k2');
    // The answer recorded locally is replayed even though the store is down.
    expect(await store.claimIdempotency('k', 'fp', 1000, clock.now())).toEqual({ state: 'done', value: '"answer"' });
    await store.close();
  });

  it('writes what it learned while the store was down once it is back: blocks, claims and answers', async () => {
    const { store, inner, control, clock } = setup();
    control.mode = 'fail';
    const now = clock.now();
    await store.setBlock('provider:openai', { reason: 'parked', untilMs: now + 60_000, cause: 'insufficient_quota' }, now);
    expect(await store.claimIdempotency('answered', 'fp', 120_000, now)).toEqual({ state: 'claimed' });
    await store.completeIdempotency('answered', 'fp', '"the answer"', 600_000, now);
    expect(await store.claimIdempotency('running', 'fp', 120_000, now)).toEqual({ state: 'claimed' });
    expect(inner.readIdempotency('answered', 'fp', now)).toEqual({ state: 'missing' });

    control.mode = 'ok';
    await clock.advance(1000);
    expect(store.available).toBe(true);
    expect(inner.getBlock('provider:openai', clock.now())).toMatchObject({ reason: 'parked', untilMs: now + 60_000 });
    expect(inner.readIdempotency('answered', 'fp', clock.now())).toEqual({ state: 'done', value: '"the answer"' });
    // A call still running on local state holds its key for the fleet too: nobody else runs it meanwhile.
    expect(inner.claimIdempotency('running', 'fp', 120_000, clock.now())).toEqual({ state: 'pending' });
    await store.close();
  });

  it('keeps a claim another process holds pending while the store is down, until the claim would have expired', async () => {
    const { store, inner, control, clock } = setup();
    const now = clock.now();
    expect(inner.claimIdempotency('job', 'fp', 1000, now)).toEqual({ state: 'claimed' }); // another process
    expect(await store.claimIdempotency('job', 'fp', 1000, now)).toEqual({ state: 'pending' });
    control.mode = 'fail';
    expect(await store.readIdempotency('job', 'fp', now + 10)).toEqual({ state: 'pending' });
    expect(store.available).toBe(false);
    // Not claimed here: the other process may be running it.
    expect(store.claimIdempotency('job', 'fp', 1000, now + 20)).toEqual({ state: 'pending' });
    expect(store.readIdempotency('job', 'other', now + 20)).toEqual({ state: 'mismatch' });
    expect(store.readIdempotency('never-claimed', 'fp', now + 20)).toEqual({ state: 'missing' });
    // Its claim has run out by now, wherever it was: the key is free.
    expect(store.readIdempotency('job', 'fp', now + 1000)).toEqual({ state: 'missing' });
    expect(store.claimIdempotency('job', 'fp', 1000, now + 1000)).toEqual({ state: 'claimed' });
    await store.close();
  });

  it('keeps the store down while what it missed cannot be written yet', async () => {
    const { store, control, clock, changes } = setup();
    control.mode = 'fail';
    await store.setBlock('target:a', { reason: 'cooling', untilMs: clock.now() + 60_000 }, clock.now());
    let writes = 0;
    control.mode = 'ok';
    // The probe answers, the write of the block does not: still down, and tried again next tick.
    Object.defineProperty(store.primary, 'setBlock', { value: () => (writes++, Promise.reject(new RouterError('transport', 'closed'))), configurable: true });
    await clock.advance(1000);
    expect(store.available).toBe(false);
    expect(writes).toBe(1);
    Reflect.deleteProperty(store.primary, 'setBlock');
    await clock.advance(1000);
    expect(store.available).toBe(true);
    expect(changes.map((c) => c.state)).toEqual(['unavailable', 'available']);
    await store.close();
  });

  it('releases a lease taken on local state there, and one taken in the store in the store', async () => {
    const { store, inner, control, clock } = setup();
    const shared = lease('openai', { rpm: 10, concurrency: 1 });
    expect(await store.acquireBudget(shared, clock.now())).toEqual({ ok: true });
    control.mode = 'fail';
    const local = lease('openai', { rpm: 10, concurrency: 1 });
    expect(await store.acquireBudget(local, clock.now())).toEqual({ ok: true });
    expect(store.local.heldLeases('openai')).toBe(1);
    await store.releaseBudget('openai', local.leaseId, true, clock.now());
    expect(store.local.heldLeases('openai')).toBe(0);
    // The store's own lease could not be released while it was down: it is once the store is back.
    await store.releaseBudget('openai', shared.leaseId, true, clock.now());
    expect(inner.heldLeases('openai')).toBe(1);
    control.mode = 'ok';
    await clock.advance(1000);
    expect(store.available).toBe(true);
    expect(inner.heldLeases('openai')).toBe(0);
    await store.close();
  });

  it('settles a lease taken on local state there, and frees the slot of one taken in the store once it is back', async () => {
    const { store, inner, control, clock } = setup();
    const limits = { rpm: 10, concurrency: 1, burstMs: 60_000 };
    const shared = lease('openai', limits);
    expect(await store.acquireBudget(shared, clock.now())).toEqual({ ok: true });
    control.mode = 'fail';
    const local = lease('openai', limits);
    expect(await store.acquireBudget(local, clock.now())).toEqual({ ok: true });
    await store.settleBudget('openai', local.leaseId, { snapshot: { requests: { limit: 10, remaining: 2, resetMs: 48_000 } } }, clock.now());
    expect(store.local.heldLeases('openai')).toBe(0);
    // The local budget learned the provider's bucket from the answer: 2 left + 8 refilling in 48 s.
    expect(store.local.paces('openai', clock.now())[0]).toEqual({ burst: 10, level: 2 });
    await store.settleBudget('openai', shared.leaseId, { rateLimited: true }, clock.now());
    expect(inner.heldLeases('openai')).toBe(1);
    control.mode = 'ok';
    await clock.advance(1000);
    expect(store.available).toBe(true);
    expect(inner.heldLeases('openai')).toBe(0);
    await store.close();
  });

  it('serves the response cache from the store while it answers, and misses (never waits) while it is down', async () => {
    const cached = new Map<string, string>();
    const { store, control, clock } = setup('local', cached);
    await store.writeCached!('cache:a', '"answer"', 60_000, clock.now());
    expect(await store.readCached!('cache:a', clock.now())).toBe('"answer"');
    control.mode = 'hang';
    const read = Promise.resolve(store.readCached!('cache:a', clock.now()));
    await clock.advance(250);
    expect(await read).toBeUndefined();
    expect(store.available).toBe(false);
    const asked = control.calls;
    expect(store.readCached!('cache:a', clock.now())).toBeUndefined();
    await store.writeCached!('cache:b', '"dropped"', 60_000, clock.now());
    expect(control.calls).toBe(asked);
    await store.close();
  });

  it('keeps a conversation written while the store is down here, fails reads of others as transport, and writes it to the store once it is back, with what is left of its TTL', async () => {
    const { store, inner, control, clock } = setup();
    const conversations = store as FallbackStore & ConversationStore;
    control.mode = 'fail';
    const now = clock.now();
    await conversations.writeConversation('tenant-a:resp_1', '{"turn":1}', 60_000, now);
    expect(store.available).toBe(false);
    expect(await conversations.readConversation('tenant-a:resp_1', now + 1)).toBe('{"turn":1}');
    expect(inner.readConversation('tenant-a:resp_1', now + 1)).toBeUndefined();
    // One kept only in the store is out of reach, not gone: never answered as a miss.
    await expect(Promise.resolve().then(() => conversations.readConversation('tenant-a:resp_0', now + 1))).rejects.toMatchObject({ kind: 'transport', code: 'store_unavailable' });

    control.mode = 'ok';
    await clock.advance(1000);
    expect(store.available).toBe(true);
    expect(inner.readConversation('tenant-a:resp_1', clock.now())).toBe('{"turn":1}');
    expect(inner.readConversation('tenant-a:resp_1', now + 60_000)).toBeUndefined();
    await store.close();
  });

  it("fails a conversation read the store cannot answer as transport with onUnavailable 'fail'", async () => {
    const { store, control, clock } = setup('fail');
    const conversations = store as FallbackStore & ConversationStore;
    control.mode = 'fail';
    await expect(Promise.resolve(conversations.readConversation('tenant-a:resp_2', clock.now()))).rejects.toMatchObject({ kind: 'transport' });
    await store.close();
  });

  it('plays exactly the optional roles of the store it wraps', async () => {
    const clock = new VirtualClock({ autoAdvance: false });
    const bare: StateStore = {
      shared: true, close: () => {}, getBlock: () => undefined, setBlock: () => {},
      acquireBudget: () => ({ ok: true }), releaseBudget: () => {}, settleBudget: () => {},
    };
    const store = new FallbackStore(bare, { clock });
    expect(rolesOf(store)).toEqual([]);
    expect('claimIdempotency' in store || 'readCached' in store || 'readBreaker' in store).toBe(false);
    await store.close();
  });

  it('takes rejected credentials for the setup mistake they are: the error is thrown and the store stays in use', async () => {
    const { store, control, clock, changes } = setup();
    control.mode = 'config';
    await expect(Promise.resolve(store.acquireBudget(lease(), clock.now()))).rejects.toMatchObject({ kind: 'config' });
    expect(store.available).toBe(true);
    expect(changes).toEqual([]);
    await store.close();
  });

  it('leaves no timer behind once closed while the store is down', async () => {
    const { store, control, clock } = setup();
    control.mode = 'fail';
    await store.getBlock('x', clock.now());
    expect(clock.pendingTimers).toBe(1);
    await store.close();
    expect(clock.pendingTimers).toBe(0);
  });

  it('leaves no timer behind once closed with an operation unanswered', async () => {
    const { store, control, clock } = setup();
    control.mode = 'hang';
    void store.getBlock('x', clock.now());
    expect(clock.pendingTimers).toBe(1);
    await store.close();
    expect(clock.pendingTimers).toBe(0);
  });
});
