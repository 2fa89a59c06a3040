import { afterEach, describe, expect, it } from 'vitest';
import type { SwitchyardConfig } from '../../src/config/index.js';
import { createRouter, type Router } from '../../src/router.js';
import { MemoryStore } from '../../src/store/memory-store.js';
import { fakeRequests } from '../../src/testing/index.js';
import type { ChatRequest } from '../../src/types.js';
import { captureLogger } from '../support/capture-logger.js';
import { until } from '../support/until.js';
import { VirtualClock } from '../support/virtual-clock.js';
import { rejectionOf } from '../support/wire-router.js';

// Idempotency keys under deadlines, aborts and hostile names, on a clock that moves only when a test
// moves it: a provider that takes 2 s takes exactly 2,000 virtual ms, and every deadline is exact.

let closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closers) await close();
  closers = [];
});

const ask = (content = 'Charge order 42'): ChatRequest => ({ messages: [{ role: 'user', content }] });

function fakeRouter(config: Partial<SwitchyardConfig> = {}, clock = new VirtualClock({ autoAdvance: false }), store = new MemoryStore()) {
  const router = createRouter({
    providers: { p: { type: 'fake', latencyMs: 2000 } },
    chains: { default: ['p:m'] },
    retry: { maxAttempts: 1 },
    ...config,
  }, { logger: captureLogger().logger, clock, store });
  closers.push(() => router.close());
  return { router, clock, store, sent: () => fakeRequests(router, 'p').length };
}

/** A call whose end (virtual time, and how) the test reads without awaiting it. */
function track(router: Router, clock: VirtualClock, request: ChatRequest) {
  const startedAt = clock.now();
  const t = { endedAtMs: undefined as number | undefined, result: undefined as any, error: undefined as any };
  const done = router.chat(request).then((r) => (t.result = r), (e) => (t.error = e)).finally(() => (t.endedAtMs = clock.now() - startedAt));
  return Object.assign(t, { done });
}

describe('idempotency keys', () => {
  it.each([
    ['a', 'b:c', 'a:b', 'c'],
    ['a:', 'b', 'a', ':b'],
    ['t1', 'idem:1:t2:k', 't2', 'k'],
  ])('keeps tenant %j key %j apart from tenant %j key %j', async (t1, k1, t2, k2) => {
    const { router, sent } = fakeRouter({ providers: { p: { type: 'fake' } } }, new VirtualClock());
    const first = await router.chat({ ...ask(), tenant: t1, idempotencyKey: k1 });
    const second = await router.chat({ ...ask(), tenant: t2, idempotencyKey: k2 });
    expect(first.replayed).toBeUndefined();
    expect(second.replayed).toBeUndefined();
    expect(sent()).toBe(2);
    // Each tenant still gets its own answer replayed.
    expect((await router.chat({ ...ask(), tenant: t1, idempotencyKey: k1 })).replayed).toBe(true);
    expect(sent()).toBe(2);
  });

  it('refuses a key reused with the same messages but another response format', async () => {
    const { router } = fakeRouter({ providers: { p: { type: 'fake' } } }, new VirtualClock());
    await router.chat({ ...ask(), idempotencyKey: 'k' });
    const err = await rejectionOf(router.chat({ ...ask(), idempotencyKey: 'k', responseFormat: { type: 'json' } }));
    expect(err.kind).toBe('invalid_request');
  });
});

describe('an idempotency follower', () => {
  it('ends at its own timeoutMs while the leader is still running', async () => {
    const { router, clock, sent } = fakeRouter();
    const leader = track(router, clock, { ...ask(), idempotencyKey: 'order-42' });
    await until(() => sent() === 1, 'the leader upstream');
    const follower = track(router, clock, { ...ask(), idempotencyKey: 'order-42', timeoutMs: 100 });
    await clock.advance(99);
    expect(follower.endedAtMs).toBeUndefined();
    await clock.advance(1);
    await follower.done;
    expect(follower.error).toMatchObject({ kind: 'timeout' });
    expect(follower.endedAtMs).toBe(100);
    expect(leader.endedAtMs).toBeUndefined();
    await clock.advance(1900);
    await leader.done;
    expect(leader.result.replayed).toBeUndefined();
    expect(sent()).toBe(1);
  });

  it('ends at once when its own signal aborts, and the leader goes on', async () => {
    const { router, clock, sent } = fakeRouter();
    const leader = track(router, clock, { ...ask(), idempotencyKey: 'order-42' });
    await until(() => sent() === 1, 'the leader upstream');
    const controller = new AbortController();
    const follower = track(router, clock, { ...ask(), idempotencyKey: 'order-42', signal: controller.signal });
    await clock.advance(200);
    controller.abort();
    await follower.done;
    expect(follower.error).toMatchObject({ kind: 'aborted' });
    expect(follower.endedAtMs).toBe(200);
    await clock.advance(1800);
    await leader.done;
    expect(leader.result.text.length).toBeGreaterThan(0);
    expect(sent()).toBe(1);
  });

  it.each([
    ['aborts', { signal: 'abort-at-500' }, 500],
    ['times out', { timeoutMs: 300 }, 300],
  ] as const)('takes the key over and answers on its own when the leader %s', async (_, how, leaderEndsAt) => {
    const { router, clock, sent } = fakeRouter();
    const controller = new AbortController();
    const leaderRequest: ChatRequest = { ...ask(), idempotencyKey: 'order-42', ...('timeoutMs' in how ? { timeoutMs: how.timeoutMs } : { signal: controller.signal }) };
    const leader = track(router, clock, leaderRequest);
    await until(() => sent() === 1, 'the leader upstream');
    const follower = track(router, clock, { ...ask(), idempotencyKey: 'order-42', timeoutMs: 10_000 });
    await clock.advance(leaderEndsAt);
    if ('signal' in how) controller.abort();
    await leader.done;
    expect(leader.error?.kind).toBe('signal' in how ? 'aborted' : 'timeout');
    await until(() => sent() === 2, 'the follower upstream with a request of its own');
    expect(follower.endedAtMs).toBeUndefined();
    await clock.advance(2000);
    await follower.done;
    expect(follower.error).toBeUndefined();
    expect(follower.result.replayed).toBeUndefined();
    expect(follower.endedAtMs).toBe(leaderEndsAt + 2000);
  });

  it('takes the key over when the leader fails, and its answer is then replayed', async () => {
    const { router, clock, sent } = fakeRouter({ providers: { p: { type: 'fake', latencyMs: 2000, script: [{ fail: 'server', status: 503 }] } } });
    const leader = track(router, clock, { ...ask(), idempotencyKey: 'order-42' });
    await until(() => sent() === 1, 'the leader upstream');
    const follower = track(router, clock, { ...ask(), idempotencyKey: 'order-42' });
    await clock.advance(2000);
    await leader.done;
    expect(leader.error?.kind).toBe('exhausted');
    await until(() => sent() === 2, 'the follower upstream');
    await clock.advance(2000);
    await follower.done;
    expect(follower.result.replayed).toBeUndefined();
    expect((await router.chat({ ...ask(), idempotencyKey: 'order-42' })).replayed).toBe(true);
    expect(sent()).toBe(2);
  });

  it("waiting on another process's claim, ends at its own deadline and on its own signal", async () => {
    const clock = new VirtualClock({ autoAdvance: false });
    const store = new MemoryStore();
    const a = fakeRouter({}, clock, store);
    const b = fakeRouter({}, clock, store);
    const leader = track(a.router, clock, { ...ask(), idempotencyKey: 'order-42' });
    await until(() => a.sent() === 1, 'the leader upstream');
    const timed = track(b.router, clock, { ...ask(), idempotencyKey: 'order-42', timeoutMs: 110 });
    const controller = new AbortController();
    const aborted = track(b.router, clock, { ...ask(), idempotencyKey: 'order-42', signal: controller.signal });
    await clock.advance(60);
    controller.abort();
    await aborted.done;
    expect(aborted.error).toMatchObject({ kind: 'aborted' });
    expect(aborted.endedAtMs).toBe(60);
    await clock.advance(50);
    await timed.done;
    expect(timed.error).toMatchObject({ kind: 'timeout' });
    expect(timed.endedAtMs).toBe(110);
    await clock.advance(1890);
    await leader.done;
    expect(b.sent()).toBe(0);
  });
});

describe('idempotency within one process', () => {
  it('has concurrent calls with one key follow the first call\'s request, never polling the store for it', async () => {
    const { router, clock, store, sent } = fakeRouter();
    let reads = 0;
    const read = store.readIdempotency.bind(store);
    store.readIdempotency = (...args) => {
      reads++;
      return read(...args);
    };
    const calls = Array.from({ length: 5 }, () => track(router, clock, { ...ask(), idempotencyKey: 'order-42' }));
    await until(() => sent() === 1, 'the one request');
    await clock.advance(2000);
    await Promise.all(calls.map((c) => c.done));
    expect(sent()).toBe(1);
    expect(reads).toBe(0);
    expect(clock.sleeps).toEqual([2000]); // only the provider's latency: no 25 ms polls
    expect(calls.map((c) => Boolean(c.result?.replayed))).toEqual([false, true, true, true, true]);
  });
});
