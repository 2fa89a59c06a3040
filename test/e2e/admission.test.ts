import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createRouter } from '../../src/router.js';
import type { SwitchyardConfig } from '../../src/config/index.js';
import { MemoryStore } from '../../src/store/memory-store.js';
import { captureLogger } from '../support/capture-logger.js';
import { ANTHROPIC_PATH, OPENAI_PATH, openaiCompletion, openaiSuccessHeaders } from '../support/fixtures.js';
import { startUpstream, type Upstream } from '../support/upstream.js';
import { gate, until } from '../support/until.js';
import { VirtualClock } from '../support/virtual-clock.js';
import { ask, rejectionOf, wireRouter } from '../support/wire-router.js';
import { fakeRequests, queuedCalls } from '../../src/testing/index.js';

// Every router here runs on a virtual clock: queue wake-ups, windows and deadlines happen at exact
// virtual times the tests move to, and a slow machine changes nothing but how long the suite takes.

let up: Upstream;
let closers: Array<() => Promise<void>> = [];
beforeEach(async () => {
  up = await startUpstream();
});
afterEach(async () => {
  for (const c of closers) await c();
  closers = [];
  await up.close();
});

const openaiWith = (limits: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  openai: { type: 'openai' as const, apiKey: 'sk-test-a', baseURL: `${up.url}/v1`, limits, ...extra },
  anthropic: { type: 'anthropic' as const, apiKey: 'sk-test-b', baseURL: up.url },
});

function wire(overrides: Partial<SwitchyardConfig>, clock = new VirtualClock()) {
  const w = wireRouter(up, overrides, { clock, timeoutMs: 60_000 });
  closers.push(() => w.router.close());
  return { ...w, clock };
}

function fakeRouter(config: Partial<SwitchyardConfig> & Pick<SwitchyardConfig, 'providers' | 'chains'>, store = new MemoryStore(), clock = new VirtualClock()) {
  const router = createRouter(config, { logger: captureLogger().logger, store, clock });
  closers.push(() => router.close());
  return { router, store, clock, sent: (name: string) => fakeRequests(router, name).length };
}

describe('concurrency budgets', () => {
  it('never puts more than two requests in flight upstream with concurrency 2, and all ten calls succeed', async () => {
    const { router, openai, clock } = wire({ providers: openaiWith({ concurrency: 2 }) });
    const held = gate();
    up.otherwise(OPENAI_PATH, () => ({ status: 200, headers: openaiSuccessHeaders, body: openaiCompletion(), heldUntil: held.promise }));
    const calls = Promise.all(Array.from({ length: 10 }, () => router.chat(ask())));
    await until(() => up.inFlight === 2 && queuedCalls(router) === 8, 'two requests upstream and eight calls queued');
    await clock.advance(40); // the two answers take 40 ms of the router's time
    held.open();
    const results = await calls;
    expect(results.every((r) => r.provider === 'openai')).toBe(true);
    expect(openai()).toBe(10);
    expect(up.maxInFlight).toBe(2);
    // The first two went at once; the other eight waited in the queue for those 40 ms.
    expect(results.map((r) => r.attempts[0]!.waitedMs)).toEqual([undefined, undefined, 40, 40, 40, 40, 40, 40, 40, 40]);
  });

  it('holds a stream\'s slot until its last chunk', async () => {
    const { router, sent } = fakeRouter({
      providers: { p: { type: 'fake', limits: { concurrency: 1 }, script: [{ text: 'a b c', latencyMs: 50 }] } },
      chains: { default: ['p:m'] },
    });
    const order: string[] = [];
    const events = router.stream(ask())[Symbol.asyncIterator]();
    // Read the stream up to its first chunk and stop there: it holds the one slot, mid-stream.
    for (let ev = (await events.next()).value; ev?.type !== 'text'; ev = (await events.next()).value);
    const chat = router.chat(ask()).then(() => order.push('chat done'));
    await until(() => queuedCalls(router) === 1, 'the chat queued behind the stream');
    expect(sent('p')).toBe(1);
    for (let next = await events.next(); !next.done; next = await events.next()) if (next.value.type === 'done') order.push('stream done');
    await chat;
    expect(order).toEqual(['stream done', 'chat done']);
    expect(sent('p')).toBe(2);
  });
});

describe('request budgets', () => {
  it('skips the sixth call in the minute to the next target without a request (rpm 5)', async () => {
    const { router, openai, anthropic } = wire({ providers: openaiWith({ rpm: 5 }) });
    for (let i = 0; i < 5; i++) expect((await router.chat(ask())).provider).toBe('openai');
    const sixth = await router.chat(ask());
    expect(sixth.provider).toBe('anthropic');
    expect(sixth.attempts[0]).toMatchObject({ provider: 'openai', kind: 'local_limit', skipped: true, ok: false });
    expect([openai(), anthropic()]).toEqual([5, 1]);
  });

  it('waits in the queue when room returns within maxQueueMs, then sends to the same target', async () => {
    const { router, openai, anthropic, clock } = wire({ providers: openaiWith({ rpm: 2, windowMs: 300, maxQueueMs: 2000 }) });
    const calls = Promise.all([router.chat(ask()), router.chat(ask()), router.chat(ask())]);
    await until(() => openai() === 2 && queuedCalls(router) === 1, 'two requests sent and the third call queued');
    await clock.advance(299);
    expect(queuedCalls(router)).toBe(1); // the window still holds both requests
    await clock.advance(1);
    const results = await calls;
    expect(results.map((r) => r.provider)).toEqual(['openai', 'openai', 'openai']);
    expect(results[2]!.attempts).toMatchObject([{ provider: 'openai', ok: true, waitedMs: 300 }]);
    expect([openai(), anthropic()]).toEqual([3, 0]);
  });

  it('throws exhausted with retryAfterMs when every target is full', async () => {
    const { router } = fakeRouter({
      providers: { a: { type: 'fake', limits: { rpm: 1 } }, b: { type: 'fake', limits: { rpm: 1 } } },
      chains: { default: ['a:m', 'b:m'] },
    });
    await router.chat(ask());
    await router.chat(ask());
    const err = await rejectionOf(router.chat(ask()));
    expect(err.kind).toBe('exhausted');
    expect(err.attempts.map((a: any) => [a.provider, a.kind, a.skipped])).toEqual([['a', 'local_limit', true], ['b', 'local_limit', true]]);
    expect(err.retryAfterMs).toBe(60_000); // both windows hold their request for the full minute
  });

  it('applies a model\'s override instead of the provider\'s limits', async () => {
    const { router, sent } = fakeRouter({
      providers: { p: { type: 'fake', limits: { rpm: 100, models: { small: { rpm: 1 } } } }, q: { type: 'fake' } },
      chains: { default: ['p:small', 'q:m'], big: ['p:big', 'q:m'] },
    });
    await router.chat(ask());
    expect((await router.chat(ask())).provider).toBe('q');
    expect((await router.chat({ ...ask(), chain: 'big' })).provider).toBe('p');
    expect(sent('p')).toBe(2);
  });
});

describe('token budgets', () => {
  it('skips at once a request larger than the whole TPM budget', async () => {
    const { router, sent } = fakeRouter({
      providers: { p: { type: 'fake', limits: { tpm: 100 } }, q: { type: 'fake' } },
      chains: { default: ['p:m', 'q:m'] },
    });
    const res = await router.chat({ messages: [{ role: 'user', content: 'x'.repeat(2000) }], maxTokens: 10 });
    expect(res.provider).toBe('q');
    expect(res.attempts[0]).toMatchObject({ kind: 'local_limit', skipped: true, code: 'too_large' });
    expect(sent('p')).toBe(0);
  });

  it('estimates prompt plus reserved output tokens, and charges usage the estimate missed', async () => {
    // Estimate: 3 + 4 + ceil(9 / 3.5) = 10 prompt tokens + 10 reserved = 20. The provider reports
    // 10 in + 400 out = 410, so 390 more are charged after each call. (A whole window at once,
    // burstMs = windowMs: the rolling window alone, unpaced.)
    const { router, sent } = fakeRouter({
      providers: {
        p: { type: 'fake', limits: { tpm: 450, burstMs: 60_000, tokenizer: 'heuristic', reserveOutputTokens: 10 }, respond: () => ({ text: 'y'.repeat(1600) }) },
        q: { type: 'fake' },
      },
      chains: { default: ['p:claude-x', 'q:m'] },
    });
    const first = await router.chat(ask('say hello'));
    expect(first.usage).toEqual({ inputTokens: 10, outputTokens: 400 });
    expect(first.provider).toBe('p');
    // 20 reserved + 390 charged = 410 of 450: another 20-token call fits; then 820 does not.
    expect((await router.chat(ask('say hello'))).provider).toBe('p');
    expect((await router.chat(ask('say hello'))).provider).toBe('q');
    expect(sent('p')).toBe(2);
  });

  it('reconciles a stream\'s budget from the usage it reports at its end', async () => {
    const { router, sent } = fakeRouter({
      providers: {
        p: { type: 'fake', limits: { tpm: 450, burstMs: 60_000, tokenizer: 'heuristic', reserveOutputTokens: 10 }, respond: () => ({ text: 'y'.repeat(1600) }) },
        q: { type: 'fake' },
      },
      chains: { default: ['p:claude-x', 'q:m'] },
    });
    let usage;
    for await (const ev of router.stream(ask('say hello'))) if (ev.type === 'done') usage = ev.result.usage;
    expect(usage).toEqual({ inputTokens: 10, outputTokens: 400 });
    // Reserved 20, charged 390 more at the stream's end: one more 20-token call fits, the next does not.
    expect((await router.chat(ask('say hello'))).provider).toBe('p');
    expect((await router.chat(ask('say hello'))).provider).toBe('q');
    expect(sent('p')).toBe(2);
  });

  it('counts an OpenAI prompt as its limiter does: characters / 4, raised to the real tokens where tiktoken counts more', async () => {
    const store = new MemoryStore();
    const granted: number[] = [];
    const acquire = store.acquireBudget.bind(store);
    store.acquireBudget = (req, now) => (granted.push(req.tokens), acquire(req, now));
    const router = createRouter({
      providers: { openai: { type: 'openai', apiKey: 'sk-test-a', baseURL: `${up.url}/v1`, limits: { tpm: 100_000 } } },
      chains: { default: ['openai:gpt-4o-mini'] },
    }, { logger: captureLogger().logger, store, clock: new VirtualClock() });
    closers.push(() => router.close());
    up.otherwise(OPENAI_PATH, () => ({ status: 200, headers: openaiSuccessHeaders, body: openaiCompletion() }));
    // 44 characters: 11 by characters, 10 by o200k. Ten CJK characters: 3 by characters, more by o200k.
    await router.chat({ messages: [{ role: 'user', content: 'The quick brown fox jumps over the lazy dog.' }], maxTokens: 10 });
    await router.chat({ messages: [{ role: 'user', content: '東京都の天気予報を教えて' }], maxTokens: 10 });
    expect(granted[0]).toBe(3 + 4 + 11 + 10);
    expect(granted[1]).toBeGreaterThan(3 + 4 + 3 + 10);
  });
});

describe('provider headroom', () => {
  // limit 60, 0 remaining, full again in 20 s: the provider's bucket gives one request back every 333 ms.
  const drained = {
    status: 200, body: openaiCompletion(),
    headers: { ...openaiSuccessHeaders, 'x-ratelimit-limit-requests': '60', 'x-ratelimit-remaining-requests': '0', 'x-ratelimit-reset-requests': '20s' },
  };

  it('skips a target whose own headers say nothing is left, when the refill is further off than maxQueueMs', async () => {
    const { router, openai, anthropic } = wire({ providers: openaiWith({ maxQueueMs: 100 }) });
    up.script(OPENAI_PATH, drained);
    expect((await router.chat(ask())).provider).toBe('openai');
    const next = await router.chat(ask());
    expect(next.provider).toBe('anthropic');
    expect(next.attempts[0]).toMatchObject({ kind: 'local_limit', skipped: true });
    expect([openai(), anthropic()]).toEqual([1, 1]);
  });

  it('waits for the provider\'s bucket to refill one request, not for its full reset', async () => {
    const { router, openai, anthropic, clock } = wire({ providers: openaiWith({}) });
    up.script(OPENAI_PATH, drained);
    await router.chat(ask());
    const pending = router.chat(ask());
    await until(() => queuedCalls(router) === 1, 'the second call queued');
    await clock.advance(333);
    expect(queuedCalls(router)).toBe(1);
    await clock.advance(1); // 20 s / 60 requests = 333.3 ms, rounded up
    const next = await pending;
    expect(next.provider).toBe('openai');
    expect(next.attempts).toMatchObject([{ provider: 'openai', ok: true, waitedMs: 334 }]);
    expect([openai(), anthropic()]).toEqual([2, 0]);
  });
});

describe('tenants', () => {
  it('serves a second tenant its share while another floods the same target', async () => {
    const { router, clock } = fakeRouter({
      providers: { p: { type: 'fake', latencyMs: 15, limits: { concurrency: 1, maxQueueMs: 10_000 } } },
      chains: { default: ['p:m'] },
    }, new MemoryStore(), new VirtualClock({ autoAdvance: false }));
    const startedAt = clock.now();
    const finished: string[] = [];
    const finishedAt: number[] = [];
    const done = (tenant: string) => () => (finished.push(tenant), finishedAt.push(clock.now() - startedAt));
    const flood = Array.from({ length: 20 }, () => router.chat({ ...ask(), tenant: 'bulk' }).then(done('bulk')));
    await until(() => queuedCalls(router) === 19, 'the flood queued behind its first call');
    const interactive = Array.from({ length: 3 }, () => router.chat({ ...ask(), tenant: 'web' }).then(done('web')));
    await until(() => queuedCalls(router) === 22, 'web queued behind the flood');
    await clock.advance(23 * 15);
    await Promise.all([...flood, ...interactive]);
    // With equal shares the queue alternates: web's three calls are done within the first eight answers.
    expect(finished.lastIndexOf('web')).toBeLessThan(8);
    // One slot: each answer 15 ms after the one before it.
    expect(finishedAt).toEqual(Array.from({ length: 23 }, (_, i) => 15 * (i + 1)));
  });

  it('gives a tenant with share 3 three times the turns of a tenant with share 1', async () => {
    const { router, clock } = fakeRouter({
      providers: { p: { type: 'fake', latencyMs: 5, limits: { concurrency: 1, maxQueueMs: 10_000 } } },
      chains: { default: ['p:m'] },
      tenants: { gold: { share: 3 }, free: { share: 1 } },
    }, new MemoryStore(), new VirtualClock({ autoAdvance: false }));
    const finished: string[] = [];
    const hold = router.chat(ask()); // occupies the slot while both tenants queue up
    const calls = [
      ...Array.from({ length: 12 }, () => router.chat({ ...ask(), tenant: 'free' }).then(() => finished.push('free'))),
      ...Array.from({ length: 12 }, () => router.chat({ ...ask(), tenant: 'gold' }).then(() => finished.push('gold'))),
    ];
    await until(() => queuedCalls(router) === 24, 'both tenants queued behind the first call');
    await clock.advance(25 * 5);
    await Promise.all([hold, ...calls]);
    const firstEight = finished.slice(0, 8);
    expect(firstEight.filter((t) => t === 'gold')).toHaveLength(6);
  });

  it('checks a tenant\'s own budget before the target\'s, across every target', async () => {
    const { router, sent } = fakeRouter({
      providers: { a: { type: 'fake' }, b: { type: 'fake' } },
      chains: { default: ['a:m', 'b:m'] },
      tenants: { trial: { rpm: 2 } },
    });
    await router.chat({ ...ask(), tenant: 'trial' });
    await router.chat({ ...ask(), tenant: 'trial' });
    const err = await rejectionOf(router.chat({ ...ask(), tenant: 'trial' }));
    expect(err.kind).toBe('exhausted');
    expect(err.attempts.every((a: any) => a.kind === 'local_limit' && a.skipped)).toBe(true);
    expect((await router.chat({ ...ask(), tenant: 'paying' })).provider).toBe('a');
    expect(sent('a') + sent('b')).toBe(3);
  });
});

describe('leaving the queue', () => {
  it('lets a thousand aborted queued calls go at once and leaves nothing held', async () => {
    const store = new MemoryStore();
    const { router, clock, sent } = fakeRouter({
      providers: { p: { type: 'fake', limits: { concurrency: 1, maxQueueMs: 60_000 }, script: ['hang'] } },
      chains: { default: ['p:m'] },
    }, store);
    const idleTimers = clock.pendingTimers; // the breakers' window rotation
    const holder = new AbortController();
    const held = rejectionOf(router.chat({ ...ask(), signal: holder.signal }));
    await until(() => sent('p') === 1, 'the first call holding the slot');
    const timersBefore = clock.pendingTimers;

    const controllers = Array.from({ length: 1000 }, () => new AbortController());
    let settled = 0;
    const queued = controllers.map((c) => rejectionOf(router.chat({ ...ask(), signal: c.signal })).finally(() => settled++));
    await until(() => queuedCalls(router) === 1000, 'a thousand calls queued');
    expect(store.heldLeases('p:m')).toBe(1);
    expect(clock.pendingTimers).toBe(timersBefore + 1000); // each waits for at most maxQueueMs
    const startedAt = clock.now();
    for (const c of controllers) c.abort();
    await until(() => settled === 1000, 'every aborted call to settle'); // no timer fires, no time passes
    const errors = await Promise.all(queued);
    expect(clock.now()).toBe(startedAt);
    expect(errors.every((e) => e.kind === 'aborted')).toBe(true);
    expect(queuedCalls(router)).toBe(0);
    expect(clock.pendingTimers).toBe(timersBefore);

    holder.abort();
    expect((await held).kind).toBe('aborted');
    expect(store.heldLeases('p:m')).toBe(0);
    expect(clock.pendingTimers).toBe(idleTimers);
    expect(sent('p')).toBe(1);
  });

  it('ends a queued call at its deadline with a timeout, freeing its place', async () => {
    const store = new MemoryStore();
    const { router, clock, sent } = fakeRouter({
      providers: { p: { type: 'fake', limits: { concurrency: 1, maxQueueMs: 60_000 }, script: [{ text: 'slow', latencyMs: 400 }] } },
      chains: { default: ['p:m'] },
    }, store, new VirtualClock({ autoAdvance: false }));
    const slow = router.chat(ask());
    await until(() => sent('p') === 1, 'the slow call holding the slot');
    const startedAt = clock.now();
    let endedAt: number | undefined;
    const queued = rejectionOf(router.chat({ ...ask(), timeoutMs: 100 })).finally(() => (endedAt = clock.now() - startedAt));
    await until(() => queuedCalls(router) === 1, 'the second call queued');
    await clock.advance(99);
    expect(endedAt).toBeUndefined();
    await clock.advance(1);
    const err = await queued;
    expect(err.kind).toBe('timeout');
    expect(endedAt).toBe(100); // at its deadline, long before the slow call's 400 ms
    expect(queuedCalls(router)).toBe(0);
    await clock.advance(300);
    expect((await slow).text).toBe('slow');
    expect(sent('p')).toBe(1);
    expect(store.heldLeases('p:m')).toBe(0);
  });
});

describe('idempotency', () => {
  it('sends one upstream request for two concurrent calls with the same key', async () => {
    // No auto-advance: the second call may poll the store on the router's clock (it shares the first
    // call's promise only if that call has claimed the key by the time it looks), and a poll that moved
    // time by itself would run the first call's attempt timer out while its request is upstream.
    const { router, openai, clock } = wire({}, new VirtualClock({ autoAdvance: false }));
    const held = gate();
    up.otherwise(OPENAI_PATH, () => ({ status: 200, headers: openaiSuccessHeaders, body: openaiCompletion('once'), heldUntil: held.promise }));
    let firstDone = false;
    const first = router.chat({ ...ask(), idempotencyKey: 'order-42' }).finally(() => (firstDone = true));
    const second = router.chat({ ...ask(), idempotencyKey: 'order-42' });
    await until(() => openai() === 1, 'the first call upstream');
    held.open();
    await until(() => firstDone, 'the first call to finish');
    await clock.advance(25); // one poll, for a second call that found the key claimed but not yet running here
    const [a, b] = await Promise.all([first, second]);
    expect(openai()).toBe(1);
    expect(a.text).toBe('once');
    expect(b.text).toBe('once');
    expect([a.replayed, b.replayed].filter(Boolean)).toHaveLength(1);
  });

  it('replays a finished result, marked replayed, without a request', async () => {
    const { router, sent } = fakeRouter({ providers: { p: { type: 'fake' } }, chains: { default: ['p:m'] } });
    const first = await router.chat({ ...ask(), idempotencyKey: 'k1' });
    const again = await router.chat({ ...ask(), idempotencyKey: 'k1' });
    expect(first.replayed).toBeUndefined();
    expect(again).toMatchObject({ text: first.text, replayed: true });
    expect(sent('p')).toBe(1);
  });

  it('does not store failures: the next call with the key runs again', async () => {
    const { router, sent } = fakeRouter({
      providers: { p: { type: 'fake', script: [{ fail: 'bad_request' }] } },
      chains: { default: ['p:m'] },
    });
    expect((await rejectionOf(router.chat({ ...ask(), idempotencyKey: 'k2' }))).kind).toBe('bad_request');
    expect((await router.chat({ ...ask(), idempotencyKey: 'k2' })).replayed).toBeUndefined();
    expect(sent('p')).toBe(2);
  });

  it('refuses a key reused for a different request, and keeps keys apart per tenant', async () => {
    const { router, sent } = fakeRouter({ providers: { p: { type: 'fake' } }, chains: { default: ['p:m'] } });
    await router.chat({ ...ask('one'), idempotencyKey: 'k3' });
    const err = await rejectionOf(router.chat({ ...ask('two'), idempotencyKey: 'k3' }));
    expect(err.kind).toBe('invalid_request');
    expect(err.message).toMatch(/different request/);
    expect((await router.chat({ ...ask('two'), idempotencyKey: 'k3', tenant: 'other' })).replayed).toBeUndefined();
    expect(sent('p')).toBe(2);
  });

  it('refuses an idempotencyKey on a stream with a clear error', () => {
    const { router } = fakeRouter({ providers: { p: { type: 'fake' } }, chains: { default: ['p:m'] } });
    expect(() => router.stream({ ...ask(), idempotencyKey: 'k' })).toThrow(/chat only/);
  });
});
