import { afterEach, describe, expect, it } from 'vitest';
import type { SwitchyardConfig } from '../../src/config/index.js';
import { createRouter, type Router } from '../../src/router.js';
import { fakeRequests } from '../../src/testing/index.js';
import { captureLogger } from '../support/capture-logger.js';
import { openaiCompletion } from '../support/fixtures.js';
import { openaiSse } from '../support/sse.js';
import type { Upstream } from '../support/upstream.js';
import { upstreamPerTest } from '../support/upstream-per-test.js';
import { until } from '../support/until.js';
import { VirtualClock } from '../support/virtual-clock.js';

// `pick: 'latency'` through router.chat on the fake provider, whose answers take their time on the
// virtual clock: power of two choices on peak-EWMA latency x (in flight + 1).

let routers: Router[] = [];
afterEach(async () => {
  for (const r of routers) await r.close();
  routers = [];
});

const ask = () => ({ messages: [{ role: 'user' as const, content: 'Say hello' }] });

/** A latency pool of east and west, each answering after `latencyOf(n)` ms of virtual time for its n-th request. */
function latencyPool(east: (n: number) => number, west: (n: number) => number, clock: VirtualClock, extra: Partial<SwitchyardConfig> = {}) {
  const router = createRouter({
    providers: {
      east: { type: 'fake', respond: (_r: unknown, n: number) => ({ latencyMs: east(n) }) },
      west: { type: 'fake', respond: (_r: unknown, n: number) => ({ latencyMs: west(n) }) },
    },
    chains: { default: [{ pool: ['east:m', 'west:m'], pick: 'latency' }] },
    retry: { maxAttempts: 1 },
    ...extra,
  } as SwitchyardConfig, { logger: captureLogger().logger, clock, random: () => 0.5 });
  routers.push(router);
  return router;
}

async function sequence(router: Router, n: number): Promise<string[]> {
  const out: string[] = [];
  for (let i = 0; i < n; i++) out.push((await router.chat(ask())).provider);
  return out;
}

describe("a pool with pick: 'latency'", () => {
  it('tries each member once, then sends every call to the faster one', async () => {
    const clock = new VirtualClock();
    const router = latencyPool(() => 300, () => 100, clock);
    const answered = await sequence(router, 20);
    // East first (nothing measured: configured order), west next (never measured: it scores the
    // pool's median and ties go to the member measured longer ago), then west, 3x faster, every time.
    expect(answered).toEqual(['east', 'west', ...Array(18).fill('west')]);
    expect([fakeRequests(router, 'east').length, fakeRequests(router, 'west').length]).toEqual([1, 19]);
  });

  it('believes a slowdown at once: one slow answer moves the next call to the other member', async () => {
    const clock = new VirtualClock();
    // West answers in 100 ms, except its 3rd request, which takes 900 ms; east always 300 ms.
    const router = latencyPool(() => 300, (n) => (n === 3 ? 900 : 100), clock);
    const answered = await sequence(router, 6);
    // A sample above the average replaces it: west scores 900 after its slow answer, east 300.
    expect(answered).toEqual(['east', 'west', 'west', 'west', 'east', 'east']);
  });

  it('returns to a slow member that recovered once it has been idle long enough, and not before', async () => {
    const clock = new VirtualClock();
    // East's first answer takes 300 ms, every later one 100 ms (it recovered); west always 100 ms.
    const router = latencyPool((n) => (n === 1 ? 300 : 100), () => 100, clock);
    expect(await sequence(router, 4)).toEqual(['east', 'west', 'west', 'west']);
    // 30 s idle: east's 300 ms has decayed to 100 + 200 x e^-3 (110 ms), still above west's 100.
    await clock.advance(30_000);
    expect(await sequence(router, 2)).toEqual(['west', 'west']);
    // 50 s without a sample (past 4.6 time constants) east scores the pool's median, west's 100 ms:
    // a tie, which goes to the member measured longer ago. Its 100 ms answer, 50 s after its last,
    // is blended in almost whole: 300 x e^-5 + 100 x (1 - e^-5) = 101.3 ms, a hair above west.
    await clock.advance(20_000);
    expect(await sequence(router, 5)).toEqual(['east', 'west', 'west', 'west', 'west']);
    expect([fakeRequests(router, 'east').length, fakeRequests(router, 'west').length]).toEqual([2, 9]);
  });

  it('with three members draws two with the router\'s random and sends to the better of those two', async () => {
    const clock = new VirtualClock();
    let draw = 0.99;
    const router = createRouter({
      providers: {
        a: { type: 'fake', latencyMs: 100 },
        b: { type: 'fake', latencyMs: 200 },
        c: { type: 'fake', latencyMs: 300 },
      },
      chains: { default: [{ pool: ['a:m', 'b:m', 'c:m'], pick: 'latency' }] },
      retry: { maxAttempts: 1 },
    }, { logger: captureLogger().logger, clock, random: () => draw });
    routers.push(router);
    // Draws of 0.99 pick c and b: b (nothing measured, configured order), c (never measured: the
    // median, and a tie goes to the member measured longer ago), then b (200 ms beats 300 ms); a,
    // the fastest, was not drawn, so it gets nothing.
    expect(await sequence(router, 4)).toEqual(['b', 'c', 'b', 'b']);
    // Draws of 0 pick a and b: a (never measured: the median, 200 ms, tie, older), then a on its 100 ms.
    draw = 0;
    expect(await sequence(router, 3)).toEqual(['a', 'a', 'a']);
    expect(['a', 'b', 'c'].map((p) => fakeRequests(router, p).length)).toEqual([3, 3, 1]);
  });

  it('only orders: a rate-limited member falls through to the next best in the same call, and is skipped while it cools', async () => {
    const clock = new VirtualClock();
    // West is the faster, but its 2nd request is a 429 asking for 30 s.
    const router = latencyPool(() => 300, () => 100, clock, {
      providers: {
        east: { type: 'fake', latencyMs: 300 },
        west: { type: 'fake', respond: (_r: unknown, n: number) => (n === 2 ? { fail: 'rate_limited', retryAfterMs: 30_000 } : { latencyMs: 100 }) },
      },
    } as Partial<SwitchyardConfig>);
    expect(await sequence(router, 2)).toEqual(['east', 'west']);
    const limited = await router.chat(ask());
    expect(limited.attempts.map((a) => [a.provider, a.ok, a.kind, a.skipped ?? false])).toEqual([['west', false, 'rate_limited', false], ['east', true, undefined, false]]);
    // West still scores best (a 429 is no latency sample), so it comes first and is skipped without a request.
    const cooled = await router.chat(ask());
    expect(cooled.attempts.map((a) => [a.provider, a.ok, a.skipped ?? false])).toEqual([['west', false, true], ['east', true, false]]);
    await clock.advance(30_000);
    expect(await sequence(router, 1)).toEqual(['west']);
    // East: calls 1, 3 (the fall-through) and 4; west: calls 2, 3 (the 429) and 5.
    expect([fakeRequests(router, 'east').length, fakeRequests(router, 'west').length]).toEqual([3, 3]);
  });

  it('weighs the calls in flight: the faster member takes calls until its queue makes it the slower', async () => {
    const clock = new VirtualClock({ autoAdvance: false });
    // Measured first: east 250 ms, west 100 ms.
    const router = latencyPool(() => 250, () => 100, clock);
    const warm = router.chat(ask());
    await until(() => fakeRequests(router, 'east').length === 1, 'the first request');
    await clock.advance(250);
    await warm;
    const second = router.chat(ask());
    await until(() => fakeRequests(router, 'west').length === 1, 'the second request');
    await clock.advance(100);
    await second;
    // Now five calls at one instant, each sent before the next starts: west scores 100 x (in flight + 1).
    const sent = () => fakeRequests(router, 'east').length + fakeRequests(router, 'west').length;
    const calls: Array<Promise<unknown>> = [];
    const order: string[] = [];
    for (let i = 0; i < 5; i++) {
      const before = { east: fakeRequests(router, 'east').length, west: fakeRequests(router, 'west').length };
      calls.push(router.chat(ask()));
      await until(() => sent() === 3 + i, `call ${i + 1} sent`);
      order.push(fakeRequests(router, 'east').length > before.east ? 'east' : 'west');
    }
    // West 100, 200 (< east's 250), then 300 > 250: east; then west 300 < east 500; then west 400 < 500.
    expect(order).toEqual(['west', 'west', 'east', 'west', 'west']);
    await clock.advance(1_000);
    await Promise.all(calls);
  });
  it('counts a request still out at its age: a member that turned slow loses picks before its slow answer is back', async () => {
    const clock = new VirtualClock({ autoAdvance: false });
    // East answers in 300 ms; west in 100 ms, except its 2nd request, which takes 5 s.
    const router = latencyPool(() => 300, (n) => (n === 2 ? 5_000 : 100), clock);
    const call = async (expected: 'east' | 'west', ms: number) => {
      const before = fakeRequests(router, expected).length;
      const pending = router.chat(ask());
      await until(() => fakeRequests(router, expected).length === before + 1, `a request to ${expected}`);
      await clock.advance(ms);
      return pending;
    };
    await call('east', 300);
    await call('west', 100);
    // West's slow request goes out; 50 ms later it has waited less than west's 100 ms average, so the
    // next call still goes to west: 100 x (1 + 1) = 200 against east's 300. That one answers in 100 ms.
    const slow = router.chat(ask());
    await until(() => fakeRequests(router, 'west').length === 2, 'the slow request');
    await clock.advance(50);
    await call('west', 100);
    // At 400 ms the slow request's wait is the score: 400 x (1 + 1) = 800 against east's 300, so east
    // answers, although no slow answer has come back from west yet.
    await clock.advance(250);
    expect((await call('east', 300)).provider).toBe('east');
    expect([fakeRequests(router, 'east').length, fakeRequests(router, 'west').length]).toEqual([2, 3]);
    await clock.advance(5_000);
    expect((await slow).provider).toBe('west');
  });
});

describe("a latency pool's streams", () => {
  let up: Upstream;
  const closers = upstreamPerTest<Router>((u) => (up = u));

  it('are scored by time to first token, on an average of their own beside the chats\'', async () => {
    const clock = new VirtualClock();
    // Quick (a loopback OpenAI upstream) sends its first token at once, but each of its streams is
    // read for 5 s; steady (the fake) takes 400 ms to its first token, and 400 ms to answer a chat.
    up.otherwise('/v1/chat/completions', (req) => (req.body.stream
      ? { status: 200, sse: openaiSse(['Hello', ' there']) }
      : { status: 200, body: openaiCompletion() }));
    const router = createRouter({
      providers: {
        quick: { type: 'openai', apiKey: 'sk-quick-key', baseURL: `${up.url}/v1` },
        steady: { type: 'fake', latencyMs: 400 },
      },
      chains: { default: [{ pool: ['quick:gpt-4o-mini', 'steady:m'], pick: 'latency' }] },
      retry: { maxAttempts: 1 },
    }, { logger: captureLogger().logger, clock, random: () => 0.5 });
    closers.push(router);
    const streamed: Array<{ provider: string; firstTokenMs: number; wholeMs: number }> = [];
    for (let i = 0; i < 4; i++) {
      const startedAt = clock.now();
      let provider = '';
      let firstAt = 0;
      for await (const ev of router.stream(ask())) {
        if (ev.type === 'start') {
          provider = ev.provider;
          firstAt = clock.now();
          // The caller reads this stream slowly: 5 s of virtual time before it takes the rest.
          if (provider === 'quick') await clock.advance(5_000);
        }
      }
      streamed.push({ provider, firstTokenMs: firstAt - startedAt, wholeMs: clock.now() - startedAt });
    }
    // Nothing measured: configured order; then steady, never measured; then quick, whose first token
    // comes at once although its streams run 5 s (steady's whole streams are 400 ms).
    expect(streamed).toEqual([
      { provider: 'quick', firstTokenMs: 0, wholeMs: 5_000 },
      { provider: 'steady', firstTokenMs: 400, wholeMs: 400 },
      { provider: 'quick', firstTokenMs: 0, wholeMs: 5_000 },
      { provider: 'quick', firstTokenMs: 0, wholeMs: 5_000 },
    ]);
    // Chats have their own average, which quick's streams did not touch: nothing measured, so
    // configured order, then steady (never measured for chat) and so on.
    expect(await sequence(router, 2)).toEqual(['quick', 'steady']);
    expect([up.count('/v1/chat/completions'), fakeRequests(router, 'steady').length]).toEqual([4, 2]);
  });
});
