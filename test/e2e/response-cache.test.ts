import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { StreamEvent } from '../../src/calls/stream.js';
import type { SwitchyardConfig } from '../../src/config/index.js';
import { createRouter, type Router } from '../../src/router.js';
import { fakeRequests, VirtualClock } from '../../src/testing/index.js';
import type { ChatRequest } from '../../src/types.js';
import { captureLogger } from '../support/capture-logger.js';
import { OPENAI_PATH, openaiBodies, openaiCompletion, openaiSuccessHeaders } from '../support/fixtures.js';
import { gate, until } from '../support/until.js';
import { startUpstream, type Upstream } from '../support/upstream.js';
import { ask as wireAsk, rejectionOf, wireRouter } from '../support/wire-router.js';

let routers: Router[] = [];
afterEach(async () => {
  for (const r of routers) await r.close();
  routers = [];
});

function cached(extra: Partial<SwitchyardConfig> = {}, clock = new VirtualClock()) {
  const router = createRouter({
    providers: { p: { type: 'fake', latencyMs: 10 } },
    chains: { default: ['p:m'] },
    cache: { ttlMs: 60_000 },
    ...extra,
  }, { logger: captureLogger().logger, clock });
  routers.push(router);
  return { router, clock, sent: () => fakeRequests(router, 'p').length };
}

const ask = (content = 'What is a switchyard?') => ({ messages: [{ role: 'user' as const, content }] });

async function collect(events: AsyncIterable<StreamEvent>): Promise<StreamEvent[]> {
  const out: StreamEvent[] = [];
  for await (const ev of events) out.push(ev);
  return out;
}

describe('the response cache', () => {
  it('answers an identical request from the cache: nothing sent, no attempt, cached: true', async () => {
    const { router, sent } = cached();
    const first = await router.chat(ask());
    const second = await router.chat(ask());
    expect(sent()).toBe(1);
    expect(first.cached).toBeUndefined();
    expect(second).toMatchObject({ cached: true, text: first.text, provider: 'p', model: 'm', attempts: [] });
  });

  it('misses for another tenant, another message or other parameters', async () => {
    const { router, sent } = cached();
    await router.chat(ask());
    await router.chat({ ...ask(), tenant: 'other' });
    await router.chat(ask('Something else'));
    await router.chat({ ...ask(), temperature: 0.2 });
    expect(sent()).toBe(4);
    expect((await router.chat({ ...ask(), tenant: 'other' })).cached).toBe(true);
    expect(sent()).toBe(4);
  });

  it('sends one request for five concurrent identical calls', async () => {
    const { router, sent } = cached({}, new VirtualClock({ autoAdvance: true }));
    const results = await Promise.all(Array.from({ length: 5 }, () => router.chat(ask())));
    expect(sent()).toBe(1);
    expect(results.filter((r) => r.cached)).toHaveLength(4);
    expect(new Set(results.map((r) => r.text)).size).toBe(1);
  });

  it('does not store an answer cut at its token limit', async () => {
    const { router, sent } = cached();
    const cut = await router.chat({ ...ask(), maxTokens: 2 });
    expect(cut.finishReason).toBe('length');
    await router.chat({ ...ask(), maxTokens: 2 });
    expect(sent()).toBe(2);
  });

  it('refetches an entry past its TTL', async () => {
    const clock = new VirtualClock({ autoAdvance: false });
    const { router, sent } = cached({ providers: { p: { type: 'fake' } } }, clock);
    await router.chat(ask());
    await clock.advance(59_999);
    expect((await router.chat(ask())).cached).toBe(true);
    await clock.advance(1);
    expect((await router.chat(ask())).cached).toBeUndefined();
    expect(sent()).toBe(2);
  });

  it('bypasses the cache for a call with cache: false', async () => {
    const { router, sent } = cached();
    await router.chat(ask());
    expect((await router.chat({ ...ask(), cache: false })).cached).toBeUndefined();
    expect(sent()).toBe(2);
  });

  it('replays a cached answer as a stream, and stores a streamed answer for later calls', async () => {
    const { router, sent } = cached();
    const live = await collect(router.stream(ask()));
    expect((live.at(-1) as Extract<StreamEvent, { type: 'done' }>).result.cached).toBeUndefined();
    const replayed = await collect(router.stream(ask()));
    expect(sent()).toBe(1);
    expect(replayed.map((e) => e.type)).toEqual(['start', 'text', 'done']);
    const done = replayed.at(-1) as Extract<StreamEvent, { type: 'done' }>;
    expect(done.result).toMatchObject({ cached: true, attempts: [] });
    expect((replayed[1] as Extract<StreamEvent, { type: 'text' }>).delta).toBe(done.result.text);
    expect((await router.chat(ask())).cached).toBe(true);
    expect(sent()).toBe(1);
  });

  it('keeps at most maxEntries answers, dropping the least recently used', async () => {
    const { router, sent } = cached({ cache: { ttlMs: 60_000, maxEntries: 2 } });
    await router.chat(ask('a'));
    await router.chat(ask('b'));
    await router.chat(ask('a')); // a is now the most recently used
    await router.chat(ask('c')); // evicts b
    expect(sent()).toBe(3);
    expect((await router.chat(ask('a'))).cached).toBe(true);
    expect((await router.chat(ask('b'))).cached).toBeUndefined();
    expect(sent()).toBe(4);
  });

  it('is off unless configured', async () => {
    const { router, sent } = cached({ cache: undefined });
    await router.chat(ask());
    await router.chat(ask());
    expect(sent()).toBe(2);
  });
});

describe('identical misses in flight', () => {
  let up: Upstream;
  beforeEach(async () => {
    up = await startUpstream();
  });
  afterEach(async () => {
    await up.close();
  });

  /** A cached router on the real OpenAI SDK whose first request is held until the test opens `held`. */
  function wired(held: ReturnType<typeof gate>) {
    const clock = new VirtualClock();
    const { router, openai } = wireRouter(up, { cache: { ttlMs: 60_000 }, retry: { maxAttempts: 1 } }, { clock, timeoutMs: 60_000 });
    routers.push(router);
    up.script(OPENAI_PATH, { status: 200, headers: openaiSuccessHeaders, body: openaiCompletion('the held answer'), heldUntil: held.promise });
    return { router, clock, sent: openai };
  }
  const same = (extra: Partial<ChatRequest> = {}): ChatRequest => ({ ...wireAsk(), chain: 'openai-only', ...extra });

  it('sends the request again for a waiting call when the call it shared aborted', async () => {
    const held = gate();
    const { router, sent } = wired(held);
    const caller = new AbortController();
    const leader = rejectionOf(router.chat(same({ signal: caller.signal })));
    const follower = router.chat(same());
    await until(() => sent() === 1, 'the leader\'s request');
    caller.abort();
    expect((await leader).kind).toBe('aborted');
    const res = await follower;
    expect(res.text).toBe('Hello! How can I assist you today?'); // its own request's answer
    expect(res.cached).toBeUndefined();
    expect(sent()).toBe(2);
    held.open();
  });

  it('sends the request again for a waiting call when the call it shared passed its deadline', async () => {
    const held = gate();
    const { router, clock, sent } = wired(held);
    const leader = rejectionOf(router.chat(same({ timeoutMs: 1_000 })));
    const follower = router.chat(same());
    await until(() => sent() === 1, 'the leader\'s request');
    await clock.advance(1_000);
    expect((await leader).kind).toBe('timeout');
    expect((await follower).cached).toBeUndefined();
    expect(sent()).toBe(2);
    held.open();
  });

  it('ends a waiting call at once when its own caller aborts, leaving the shared request running', async () => {
    const held = gate();
    const { router, sent } = wired(held);
    const leader = router.chat(same());
    const caller = new AbortController();
    const follower = rejectionOf(router.chat(same({ signal: caller.signal })));
    await until(() => sent() === 1, 'the leader\'s request');
    caller.abort();
    expect((await follower).kind).toBe('aborted');
    held.open();
    expect((await leader).text).toBe('the held answer');
    expect(sent()).toBe(1);
  });

  it('ends a waiting call at its own deadline', async () => {
    const held = gate();
    const { router, clock, sent } = wired(held);
    const leader = router.chat(same());
    const follower = rejectionOf(router.chat(same({ timeoutMs: 500 })));
    await until(() => sent() === 1, 'the leader\'s request');
    await clock.advance(500);
    const err = await follower;
    expect(err.kind).toBe('timeout');
    held.open();
    expect((await leader).text).toBe('the held answer');
    expect(sent()).toBe(1);
  });

  it('shares a failure of the request itself: one request, the same error for both', async () => {
    const { router, openai } = wireRouter(up, { cache: { ttlMs: 60_000 } }, { clock: new VirtualClock(), timeoutMs: 60_000 });
    routers.push(router);
    up.script(OPENAI_PATH, { status: 401, body: openaiBodies.invalidApiKey, delayMs: 20 });
    const [a, b] = await Promise.all([rejectionOf(router.chat(same())), rejectionOf(router.chat(same()))]);
    expect([a.kind, b.kind]).toEqual(['auth', 'auth']);
    expect(openai()).toBe(1);
  });
});
