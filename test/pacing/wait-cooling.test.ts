import { describe, expect, it } from 'vitest';
import { isRouterError } from '../../src/errors.js';
import { queuedCalls } from '../../src/testing/index.js';
import { OPENAI_PATH, openaiBodies, openaiCompletion } from '../support/fixtures.js';
import { until } from '../support/until.js';
import type { Upstream } from '../support/upstream.js';
import { upstreamPerTest } from '../support/upstream-per-test.js';
import { VirtualClock } from '../support/virtual-clock.js';
import { ask, rejectionOf, wireRouter } from '../support/wire-router.js';

// A lone target cooling for less than a call's queue limit: the call waits for it in the fair queue
// instead of failing `exhausted`, and is released when the cooling ends.

let up: Upstream;
const close = upstreamPerTest((u) => (up = u));

/** A 429 naming a 900 ms reset (the SDK's own retries are off; the router reads the hint). */
const cool900 = { status: 429, headers: { 'x-ratelimit-remaining-requests': '0', 'x-ratelimit-reset-requests': '900ms', 'x-request-id': 'req_429' }, body: openaiBodies.rateLimitRequests };

/**
 * The OpenAI target alone, one attempt per target (so its 429 cools it rather than retrying
 * inline), on a clock that moves only when the test moves it. Every request's virtual send time and
 * prompt are recorded.
 */
function setup(limits: Record<string, unknown> = {}, extra: Record<string, unknown> = {}) {
  const clock = new VirtualClock({ autoAdvance: false });
  const sent: Array<{ at: number; text: string }> = [];
  const t0 = clock.now();
  const w = wireRouter(up, {
    providers: { openai: { type: 'openai', apiKey: 'sk-proj-TESTKEYopenai0123456789abcdefXYZ', baseURL: `${up.url}/v1`, timeoutMs: 60_000, limits: { maxQueueMs: 5_000, ...limits } } },
    chains: { default: [{ provider: 'openai', model: 'gpt-4o-mini', maxAttempts: 1 }] },
    ...extra,
  }, { clock, timeoutMs: 60_000, random: () => 0 });
  up.otherwise(OPENAI_PATH, (req) => {
    sent.push({ at: clock.now() - t0, text: String(req.body.messages.at(-1).content) });
    // No rate-limit headers: the budget's pace is all the router knows of the bucket.
    return { status: 200, headers: { 'content-type': 'application/json', 'x-request-id': `req_${sent.length}` }, body: openaiCompletion() };
  });
  close.push(() => w.router.close());
  return { ...w, clock, sent };
}

describe('waiting out a cooling lone target', () => {
  it('a caller arriving while the target cools 900 ms (maxQueueMs 5 s) waits and succeeds with exactly one request after the cooling', async () => {
    const { router, clock, sent, openai } = setup();
    up.script(OPENAI_PATH, cool900);
    const first = router.chat(ask('first'));
    await until(() => queuedCalls(router) === 1, 'the 429ed call queued for its own cooling');
    expect(openai()).toBe(1);
    await clock.advance(100);
    const second = router.chat(ask('second'));
    await until(() => queuedCalls(router) === 2, 'the arriving call queued, not failed');
    expect(openai()).toBe(1); // nothing sent while cooling
    await clock.advance(799);
    expect(openai()).toBe(1); // still cooling at 899 ms
    await clock.advance(1);
    const [a, b] = await Promise.all([first, second]);
    expect(openai()).toBe(3);
    expect(sent.map((s) => [s.text, s.at])).toEqual([['first', 900], ['second', 900]]);
    expect(b.attempts.filter((t) => !t.skipped)).toHaveLength(1);
    expect(b.attempts.at(-1)).toMatchObject({ ok: true, provider: 'openai' });
    expect(a.attempts.filter((t) => !t.skipped).map((t) => t.status ?? 200)).toEqual([429, 200]);
    expect(queuedCalls(router)).toBe(0);
  });

  it('a call whose wait would exceed its queue limit fails at once with zero requests, naming the time', async () => {
    const { router, clock, openai } = setup({ maxQueueMs: 500 });
    const timersBefore = clock.pendingTimers;
    up.script(OPENAI_PATH, cool900);
    const first = await rejectionOf(router.chat(ask('first')));
    expect(first.kind).toBe('exhausted');
    expect(openai()).toBe(1);
    await clock.advance(100);
    const err = await rejectionOf(router.chat(ask('second')));
    expect(isRouterError(err)).toBe(true);
    expect(err.kind).toBe('exhausted');
    expect(err.message).toContain('back in 0.8 s');
    expect(err.message).toContain('queue limit is 0.5 s');
    expect(err.retryAfterMs).toBe(800);
    expect(openai()).toBe(1);
    expect(queuedCalls(router)).toBe(0);
    expect(clock.pendingTimers).toBe(timersBefore);
  });

  it('a deadline sooner than the cooling fails at once, with zero requests', async () => {
    const { router, clock, openai } = setup();
    up.script(OPENAI_PATH, cool900);
    await until(() => true);
    const first = router.chat(ask('first'));
    await until(() => queuedCalls(router) === 1, 'the first waits');
    const err = await rejectionOf(router.chat({ ...ask('second'), timeoutMs: 500 }));
    expect(err.kind).toBe('exhausted');
    expect(openai()).toBe(1);
    await clock.advance(900);
    await first;
    expect(openai()).toBe(2);
  });

  it('an abort while waiting ends the call as aborted and leaves no queue entry or timer', async () => {
    const { router, clock, openai } = setup();
    const timersBefore = clock.pendingTimers;
    up.script(OPENAI_PATH, cool900);
    const first = router.chat(ask('first'));
    await until(() => queuedCalls(router) === 1, 'the first waits');
    const ctl = new AbortController();
    const second = rejectionOf(router.chat({ ...ask('second'), signal: ctl.signal }));
    await until(() => queuedCalls(router) === 2, 'the second waits');
    ctl.abort();
    const err = await second;
    expect(err.kind).toBe('aborted');
    expect(queuedCalls(router)).toBe(1);
    await clock.advance(900);
    await first;
    expect(openai()).toBe(2); // the aborted call sent nothing
    expect(queuedCalls(router)).toBe(0);
    expect(clock.pendingTimers).toBe(timersBefore);
  });

  it('a deadline passing while waiting ends the call as a timeout and leaves no queue entry or timer', async () => {
    const { router, clock, sent } = setup({ rpm: 600, burstMs: 100 });
    const timersBefore = clock.pendingTimers;
    up.script(OPENAI_PATH, cool900);
    const first = router.chat(ask('first'));
    await until(() => queuedCalls(router) === 1, 'the first waits');
    // The cooling ends at 900 ms, before its 950 ms deadline: it waits; but the pace lets the
    // first out at 900 ms and the next only at 1,000 ms, so its deadline passes in the queue.
    const second = rejectionOf(router.chat({ ...ask('second'), timeoutMs: 950 }));
    await until(() => queuedCalls(router) === 2, 'the second waits');
    await clock.advance(900);
    await until(() => sent.length === 1, 'the first goes when the cooling ends');
    await clock.advance(50);
    const err = await second;
    expect(err.kind).toBe('timeout');
    await first;
    expect(sent.map((s) => s.text)).toEqual(['first']);
    expect(queuedCalls(router)).toBe(0);
    await clock.advance(1_000);
    expect(sent).toHaveLength(1);
    expect(clock.pendingTimers).toBe(timersBefore);
  });

  it('waiting callers keep fair-queue order and tenant shares, and go out at the budget\'s pace after the cooling', async () => {
    const { router, clock, sent } = setup({ rpm: 600, burstMs: 100 }, { tenants: { web: { share: 3 }, batch: { share: 1 } } });
    up.script(OPENAI_PATH, cool900);
    const first = router.chat(ask('first'));
    await until(() => queuedCalls(router) === 1, 'the first waits');
    const calls = [
      ...Array.from({ length: 8 }, (_, i) => router.chat({ ...ask(`batch ${i}`), tenant: 'batch' })),
      ...Array.from({ length: 4 }, (_, i) => router.chat({ ...ask(`web ${i}`), tenant: 'web' })),
    ];
    await until(() => queuedCalls(router) === 13, 'every call queued behind the cooling');
    await clock.advance(900);
    await until(() => sent.length === 1, 'one released when the cooling ends');
    for (let i = 1; i <= 12; i++) {
      await clock.advance(100);
      await until(() => sent.length === 1 + i, `paced request ${i}`);
    }
    await Promise.all([first, ...calls]);
    expect(sent.map((s) => s.at)).toEqual(Array.from({ length: 13 }, (_, i) => 900 + 100 * i));
    const order = sent.map((s) => s.text).filter((t) => t !== 'first');
    // Within a tenant, first come first served; share 3 against 1: web's four are out within the first six.
    expect(order.filter((t) => t.startsWith('batch'))).toEqual(Array.from({ length: 8 }, (_, i) => `batch ${i}`));
    expect(order.filter((t) => t.startsWith('web'))).toEqual(Array.from({ length: 4 }, (_, i) => `web ${i}`));
    expect(order.findLastIndex((t) => t.startsWith('web'))).toBeLessThan(6);
  });
});
