import { describe, expect, it } from 'vitest';
import type { CallEvent, RouterEvents } from '../../src/observe/events.js';
import type { Router } from '../../src/router.js';
import { OPENAI_PATH, openaiBodies, openaiCompletion, openaiSuccessHeaders } from '../support/fixtures.js';
import type { Upstream } from '../support/upstream.js';
import { upstreamPerTest } from '../support/upstream-per-test.js';
import { VirtualClock } from '../support/virtual-clock.js';
import { ask, rejectionOf, wireRouter } from '../support/wire-router.js';

// What a listener sees of each call: the events that metrics and traces are built from, counted
// against requests the real SDKs sent to a loopback upstream.

let up: Upstream;
const routers = upstreamPerTest<Router>((u) => (up = u));

function listened(overrides: Parameters<typeof wireRouter>[1] = {}) {
  const w = wireRouter(up, { retry: { maxAttempts: 1 }, ...overrides }, { clock: new VirtualClock(), timeoutMs: 60_000 });
  routers.push(w.router);
  const calls: CallEvent[] = [];
  const attempts: Array<RouterEvents['attempt']> = [];
  w.router.on('call', (e) => calls.push(e));
  w.router.on('attempt', (e) => attempts.push(e));
  return { ...w, calls, attempts };
}

async function drain(stream: AsyncIterable<unknown>): Promise<void> {
  for await (const _ of stream);
}

/** An OpenAI stream of one text chunk, answered by `model`, with usage in its last chunk. */
const openaiStream = (model = 'gpt-4o-mini') => {
  const chunk = (choices: unknown[], extra = {}) => `data: ${JSON.stringify({ id: 'c1', object: 'chat.completion.chunk', created: 1, model, choices, ...extra })}`;
  return {
    headers: openaiSuccessHeaders,
    sse: [
      chunk([{ index: 0, delta: { role: 'assistant', content: 'Hi there' }, finish_reason: null }]),
      chunk([{ index: 0, delta: {}, finish_reason: 'stop' }]),
      chunk([], { usage: { prompt_tokens: 7, completion_tokens: 2, total_tokens: 9 } }),
      'data: [DONE]',
    ],
  };
};

describe('the call event', () => {
  it('says ok, who answered, with what usage, after which attempts', async () => {
    const { router, calls } = listened();
    up.script(OPENAI_PATH, { status: 503, body: openaiBodies.overloaded503 });
    const res = await router.chat({ ...ask(), tenant: 'acme' });
    expect(calls).toHaveLength(1);
    expect(calls[0]).toMatchObject({
      outcome: 'ok', tenant: 'acme', chain: 'default', operation: 'chat', provider: 'anthropic', model: 'claude-sonnet-4-6',
      usage: { inputTokens: 505, outputTokens: 41 },
      attempts: [{ provider: 'openai', ok: false, kind: 'server', status: 503 }, { provider: 'anthropic', ok: true }],
    });
    expect(calls[0]!.kind).toBeUndefined();
    expect(calls[0]!.attempts).toEqual(res.attempts);
  });

  it('says error with the error kind when the call throws', async () => {
    const { router, calls } = listened();
    up.script(OPENAI_PATH, { status: 401, body: openaiBodies.invalidApiKey });
    const err = await rejectionOf(router.chat({ ...ask(), chain: 'openai-only' }));
    expect(err.kind).toBe('auth');
    expect(calls).toHaveLength(1);
    expect(calls[0]).toMatchObject({ outcome: 'error', kind: 'auth', chain: 'openai-only', attempts: [{ provider: 'openai', ok: false, status: 401 }] });
    expect(up.count(OPENAI_PATH)).toBe(1);
  });

  it('marks a stream served from the response cache cached: true, with nothing sent', async () => {
    const { router, calls, openai } = listened({ cache: { ttlMs: 60_000 } });
    up.script(OPENAI_PATH, openaiStream());
    await drain(router.stream({ ...ask(), chain: 'openai-only' }));
    await drain(router.stream({ ...ask(), chain: 'openai-only' }));
    expect(openai()).toBe(1);
    expect(calls.map((c) => [c.outcome, c.operation, c.cached])).toEqual([['ok', 'stream', undefined], ['ok', 'stream', true]]);
    expect(calls[1]).toMatchObject({ attempts: [], usage: { inputTokens: 7, outputTokens: 2 } });
  });

  it('marks a chat served from the response cache cached: true', async () => {
    const { router, calls, openai } = listened({ cache: { ttlMs: 60_000 } });
    await router.chat(ask());
    await router.chat(ask());
    expect(openai()).toBe(1);
    expect(calls.map((c) => c.cached)).toEqual([undefined, true]);
  });

  it('marks an idempotent chat replayed under its key replayed: true, with nothing sent again', async () => {
    const { router, calls, openai } = listened();
    const first = await router.chat({ ...ask(), idempotencyKey: 'order-42' });
    const again = await router.chat({ ...ask(), idempotencyKey: 'order-42' });
    expect(openai()).toBe(1);
    expect(again).toMatchObject({ replayed: true, text: first.text });
    expect(calls.map((c) => [c.outcome, c.replayed])).toEqual([['ok', undefined], ['ok', true]]);
  });
});

describe('the attempt event', () => {
  it('carries the call id, the tenant and, on success, the usage of a chat', async () => {
    const { router, calls, attempts } = listened();
    up.script(OPENAI_PATH, { status: 503, body: openaiBodies.overloaded503 });
    await router.chat({ ...ask(), tenant: 'acme' });
    expect(attempts).toHaveLength(2);
    for (const a of attempts) expect(a).toMatchObject({ callId: calls[0]!.callId, tenant: 'acme', chain: 'default', operation: 'chat' });
    expect(attempts[0]).toMatchObject({ provider: 'openai', ok: false, kind: 'server', status: 503 });
    expect(attempts[0]!.usage).toBeUndefined();
    expect(attempts[1]).toMatchObject({ provider: 'anthropic', ok: true, usage: { inputTokens: 505, outputTokens: 41 } });
  });

  it('carries the call id and tenant of a stream; the stream\'s usage comes on its call event', async () => {
    const { router, calls, attempts } = listened();
    up.script(OPENAI_PATH, openaiStream());
    await drain(router.stream({ ...ask(), chain: 'openai-only', tenant: 'acme' }));
    expect(attempts).toHaveLength(1);
    expect(attempts[0]).toMatchObject({ callId: calls[0]!.callId, tenant: 'acme', operation: 'stream', ok: true });
    expect(attempts[0]!.usage).toBeUndefined(); // reported at the first token, before the usage is known
    expect(calls[0]).toMatchObject({ outcome: 'ok', usage: { inputTokens: 7, outputTokens: 2 } });
  });
});

describe('the model the provider says answered', () => {
  it('is on the result, the attempt and the call event of a chat', async () => {
    const { router, calls, attempts } = listened();
    up.script(OPENAI_PATH, { status: 200, headers: openaiSuccessHeaders, body: openaiCompletion('Hi', 'gpt-4o-mini-2024-07-18') });
    const res = await router.chat({ ...ask(), chain: 'openai-only' });
    expect(res).toMatchObject({ model: 'gpt-4o-mini', responseModel: 'gpt-4o-mini-2024-07-18' });
    expect(attempts[0]).toMatchObject({ model: 'gpt-4o-mini', responseModel: 'gpt-4o-mini-2024-07-18' });
    expect(calls[0]).toMatchObject({ model: 'gpt-4o-mini', responseModel: 'gpt-4o-mini-2024-07-18' });
  });

  it('is on the done result and the call event of a stream', async () => {
    const { router, calls } = listened();
    up.script(OPENAI_PATH, openaiStream('gpt-4o-mini-2024-07-18'));
    let model: string | undefined;
    for await (const ev of router.stream({ ...ask(), chain: 'openai-only' })) if (ev.type === 'done') model = ev.result.responseModel;
    expect(model).toBe('gpt-4o-mini-2024-07-18');
    expect(calls[0]).toMatchObject({ model: 'gpt-4o-mini', responseModel: 'gpt-4o-mini-2024-07-18' });
  });
});

describe('the breaker event', () => {
  it('names the call whose failure opened the breaker', async () => {
    const { router, calls } = listened({ breaker: { volumeThreshold: 2, consecutiveFailures: 100 } });
    const breaker: Array<RouterEvents['breaker']> = [];
    router.on('breaker', (e) => breaker.push(e));
    up.script(OPENAI_PATH, { status: 503, body: openaiBodies.overloaded503 }, { status: 503, body: openaiBodies.overloaded503 });
    await router.chat({ ...ask(), tenant: 'acme' });
    await router.chat({ ...ask(), tenant: 'acme' });
    expect(breaker).toEqual([{ key: 'openai', state: 'open', callId: calls[1]!.callId, tenant: 'acme', chain: 'default', operation: 'chat', openedBy: { acme: 2 } }]);
  });
});
