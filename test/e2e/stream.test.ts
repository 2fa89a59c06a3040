import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { StreamEvent } from '../../src/calls/stream.js';
import { ANTHROPIC_PATH, OPENAI_PATH, openaiBodies } from '../support/fixtures.js';
import { anthropicDelta, anthropicOverloadedEvent, anthropicSse, anthropicSseHead, openaiErrorFrame, openaiSse } from '../support/sse.js';
import { anthropicEvent, anthropicMessageStart, anthropicThinkingBlockSse } from '../../providers/test-support/wire.js';
import { until } from '../support/until.js';
import { startUpstream, type Upstream } from '../support/upstream.js';
import { VirtualClock } from '../support/virtual-clock.js';
import { ask, rejectionOf, wireRouter } from '../support/wire-router.js';

let up: Upstream;
let closers: Array<() => Promise<void>> = [];
beforeEach(async () => {
  up = await startUpstream();
  up.otherwise(OPENAI_PATH, () => ({ sse: openaiSse(['Hello', ' from', ' OpenAI']) }));
  up.otherwise(ANTHROPIC_PATH, () => ({ sse: anthropicSse(['Hello', ' from', ' Claude']) }));
});
afterEach(async () => {
  for (const c of closers) await c();
  closers = [];
  await up.close();
});

/** A wired router on a virtual clock: first-token, idle and attempt timers move only when a test says. */
function setup(overrides: Parameters<typeof wireRouter>[1] = {}) {
  const clock = new VirtualClock();
  const w = wireRouter(up, { chains: { default: ['openai:gpt-4o-mini', 'anthropic:claude-sonnet-4-6'], 'anthropic-first': ['anthropic:claude-sonnet-4-6', 'openai:gpt-4o-mini'] }, ...overrides }, { clock, timeoutMs: 60_000 });
  // wireRouter installs non-streaming defaults; streams are the default reply here.
  up.otherwise(OPENAI_PATH, () => ({ sse: openaiSse(['Hello', ' from', ' OpenAI']) }));
  up.otherwise(ANTHROPIC_PATH, () => ({ sse: anthropicSse(['Hello', ' from', ' Claude']) }));
  closers.push(() => w.router.close());
  return { ...w, clock };
}

async function collect(iterable: AsyncIterable<StreamEvent>): Promise<StreamEvent[]> {
  const out: StreamEvent[] = [];
  for await (const ev of iterable) out.push(ev);
  return out;
}
const texts = (events: StreamEvent[]) => events.filter((e) => e.type === 'text').map((e) => (e as { delta: string }).delta);
const last = (events: StreamEvent[]) => events[events.length - 1]!;
/** The first retry's backoff under wireRouter's config: equal jitter on a 10 ms base at random 0.5, 5 + 0.5 × 5 ms. */
const WAIT = 7.5;

/** Collects a stream's events into `into` as they come, so a test can look at them mid-stream. */
async function collectInto(iterable: AsyncIterable<StreamEvent>, into: StreamEvent[]): Promise<StreamEvent[]> {
  for await (const ev of iterable) into.push(ev);
  return into;
}

describe('router.stream', () => {
  it('streams an OpenAI answer: start, each delta, then done with usage, time to first token and the request body it sent', async () => {
    const { router } = setup();
    const events = await collect(router.stream({ ...ask(), maxTokens: 50 }));
    expect(events[0]).toMatchObject({ type: 'start', provider: 'openai', model: 'gpt-4o-mini' });
    expect(texts(events)).toEqual(['Hello', ' from', ' OpenAI']);
    const end = last(events);
    expect(end.type).toBe('done');
    if (end.type !== 'done') return;
    expect(end.result).toMatchObject({ text: 'Hello from OpenAI', provider: 'openai', finishReason: 'stop', usage: { inputTokens: 17, outputTokens: 10 } });
    // Nothing moved the virtual clock before the first token: no wait, no retry.
    expect(end.result.timeToFirstTokenMs).toBe(0);
    expect(end.result.attempts).toMatchObject([{ provider: 'openai', ok: true }]);
    expect(up.requests[0]!.body).toMatchObject({ stream: true, stream_options: { include_usage: true }, max_completion_tokens: 50 });
  });

  it('streams an Anthropic answer, skipping message_start and ping, with cumulative usage', async () => {
    const { router } = setup();
    const events = await collect(router.stream({ ...ask(), chain: 'anthropic-first' }));
    expect(texts(events)).toEqual(['Hello', ' from', ' Claude']);
    const end = last(events);
    expect(end).toMatchObject({ type: 'done', result: { text: 'Hello from Claude', provider: 'anthropic', usage: { inputTokens: 11, outputTokens: 6 } } });
  });

  it('falls through on a 429 before the first token, and the second target\'s stream completes', async () => {
    const { router, openai, anthropic } = setup();
    up.script(OPENAI_PATH, { status: 429, headers: { 'retry-after': '30' }, body: openaiBodies.rateLimitRequests });
    const events = await collect(router.stream(ask()));
    expect(events[0]).toMatchObject({ type: 'start', provider: 'anthropic', model: 'claude-sonnet-4-6' });
    expect(last(events)).toMatchObject({ type: 'done', result: { text: 'Hello from Claude', attempts: [{ provider: 'openai', kind: 'rate_limited' }, { provider: 'anthropic', ok: true }] } });
    expect([openai(), anthropic()]).toEqual([1, 1]);
  });

  it('names on its start event every attempt so far and the committed response\'s request id and rate limits', async () => {
    const { router } = setup();
    up.script(OPENAI_PATH, { status: 503, body: openaiBodies.overloaded503 }, {
      sse: openaiSse(['Hi']),
      headers: { 'x-request-id': 'req_committed', 'x-ratelimit-limit-requests': '60', 'x-ratelimit-remaining-requests': '41', 'x-ratelimit-reset-requests': '1s' },
    });
    const events = await collect(router.stream(ask()));
    const start = events[0] as Extract<StreamEvent, { type: 'start' }>;
    expect(start).toMatchObject({ type: 'start', provider: 'openai', model: 'gpt-4o-mini', requestId: 'req_committed', rateLimit: { requests: { limit: 60, remaining: 41 } } });
    expect(start.attempts.map((a) => [a.provider, a.ok, a.status])).toEqual([['openai', false, 503], ['openai', true, undefined]]);
    expect(start.attempts[1]!.requestId).toBe('req_committed');
    // The same list the result ends with: nothing is attempted after the commit point.
    expect((last(events) as Extract<StreamEvent, { type: 'done' }>).result.attempts).toEqual(start.attempts);
  });

  it('retries a 503 before the first token on the same target', async () => {
    const { router, openai, anthropic } = setup();
    up.script(OPENAI_PATH, { status: 503, body: openaiBodies.overloaded503 });
    const events = await collect(router.stream(ask()));
    expect(last(events)).toMatchObject({ type: 'done', result: { provider: 'openai' } });
    expect([openai(), anthropic()]).toEqual([2, 0]);
    // The first token came after the retry's backoff, the only time that passed on the virtual clock.
    const end = last(events) as Extract<StreamEvent, { type: 'done' }>;
    // waitedMs is reported in whole milliseconds (7.5 rounds to 8); the clock keeps the fraction.
    expect(end.result.attempts.map((a) => a.waitedMs ?? 0)).toEqual([0, Math.round(WAIT)]);
    expect(end.result.timeToFirstTokenMs).toBe(WAIT);
  });

  it('ends a stream cut after two chunks as interrupted, with exactly those chunks\' text, and asks no other target', async () => {
    const { router, openai, anthropic } = setup();
    // Role-only delta + two content chunks, then the connection drops.
    up.script(OPENAI_PATH, { sse: openaiSse(['Hello', ' there', ' friend']), cutAfter: 3 });
    const events = await collect(router.stream(ask()));
    expect(texts(events)).toEqual(['Hello', ' there']);
    const end = last(events);
    expect(end.type).toBe('interrupted');
    if (end.type !== 'interrupted') return;
    expect(end.text).toBe('Hello there');
    expect(end.error.kind).toBe('transport');
    expect([openai(), anthropic()]).toEqual([1, 0]);
    expect(events.filter((e) => e.type === 'done')).toHaveLength(0);
  });

  it('ends with interrupted when an Anthropic overloaded_error event arrives after the first token', async () => {
    const { router, openai, anthropic } = setup();
    up.script(ANTHROPIC_PATH, { sse: [...anthropicSseHead(), anthropicDelta('Partial'), anthropicOverloadedEvent] });
    const events = await collect(router.stream({ ...ask(), chain: 'anthropic-first' }));
    const end = last(events);
    expect(end).toMatchObject({ type: 'interrupted', text: 'Partial', error: { kind: 'server', code: 'overloaded_error' } });
    expect([anthropic(), openai()]).toEqual([1, 0]);
  });

  it('falls through when the same overloaded_error event arrives before any content (after message_start and ping)', async () => {
    const { router, openai, anthropic } = setup({ retry: { maxAttempts: 1 } });
    up.script(ANTHROPIC_PATH, { sse: [...anthropicSseHead(), anthropicOverloadedEvent] });
    const events = await collect(router.stream({ ...ask(), chain: 'anthropic-first' }));
    expect(events[0]).toMatchObject({ type: 'start', provider: 'openai', model: 'gpt-4o-mini' });
    expect(last(events)).toMatchObject({ type: 'done', result: { text: 'Hello from OpenAI', attempts: [{ provider: 'anthropic', kind: 'server' }, { provider: 'openai', ok: true }] } });
    expect([anthropic(), openai()]).toEqual([1, 1]);
  });

  it('falls through when a stream fails after thinking alone: thinking proves the target alive but does not commit', async () => {
    const { router, openai, anthropic } = setup({ retry: { maxAttempts: 1 } });
    // message_start, a whole thinking block, a second one cut short, then Anthropic's mid-stream overload.
    up.script(ANTHROPIC_PATH, { sse: [
      anthropicMessageStart(), ...anthropicThinkingBlockSse(0, ['The user greets me.', ' I should answer.'], 'EqQBCgIYAhIM'),
      anthropicEvent({ type: 'content_block_start', index: 1, content_block: { type: 'thinking', thinking: '', signature: '' } }),
      anthropicEvent({ type: 'content_block_delta', index: 1, delta: { type: 'thinking_delta', thinking: 'Hmm' } }),
      anthropicOverloadedEvent,
    ] });
    const events = await collect(router.stream({ ...ask(), chain: 'anthropic-first' }));
    expect(events[0]).toMatchObject({ type: 'start', provider: 'openai', model: 'gpt-4o-mini' });
    expect(events.filter((e) => e.type === 'interrupted')).toEqual([]);
    expect(texts(events)).toEqual(['Hello', ' from', ' OpenAI']);
    expect(last(events)).toMatchObject({ type: 'done', result: { text: 'Hello from OpenAI', attempts: [{ provider: 'anthropic', kind: 'server' }, { provider: 'openai', ok: true }] } });
    expect([anthropic(), openai()]).toEqual([1, 1]);
  });

  it('retries an OpenAI-compatible stream whose error frame follows reasoning text alone, as before its first token', async () => {
    const { router, openai, anthropic } = setup();
    const reasoning = (text: string) => `data: ${JSON.stringify({ id: 'c', object: 'chat.completion.chunk', created: 1, model: 'gpt-4o-mini', choices: [{ index: 0, delta: { reasoning_content: text }, finish_reason: null }] })}`;
    up.script(OPENAI_PATH, { sse: [openaiSse([])[0]!, reasoning('Thinking'), reasoning(' more'), openaiErrorFrame()] });
    const events = await collect(router.stream(ask()));
    expect(last(events)).toMatchObject({ type: 'done', result: { provider: 'openai', text: 'Hello from OpenAI', attempts: [{ provider: 'openai', kind: 'server' }, { provider: 'openai', ok: true }] } });
    expect([openai(), anthropic()]).toEqual([2, 0]);
  });

  it('ends with interrupted on an OpenAI error frame after the first token', async () => {
    const { router, anthropic } = setup();
    up.script(OPENAI_PATH, { sse: [...openaiSse(['Par', 'tial']).slice(0, 3), openaiErrorFrame()] });
    const end = last(await collect(router.stream(ask())));
    expect(end).toMatchObject({ type: 'interrupted', text: 'Partial', error: { kind: 'server' } });
    expect(anthropic()).toBe(0);
  });

  it('treats an OpenAI error frame after only a role-only delta as before the first token: retried', async () => {
    const { router, openai } = setup();
    up.script(OPENAI_PATH, { sse: [openaiSse([])[0]!, openaiErrorFrame()] });
    const end = last(await collect(router.stream(ask())));
    expect(end).toMatchObject({ type: 'done', result: { provider: 'openai', text: 'Hello from OpenAI' } });
    expect(openai()).toBe(2);
  });

  it('falls through when a target stalls longer than firstTokenTimeoutMs, counting it as a timeout', async () => {
    const { router, openai, anthropic, clock } = setup();
    up.script(OPENAI_PATH, { sse: openaiSse(['late']).slice(0, 1), end: false }); // role-only delta, then silence
    const pending = collect(router.stream({ ...ask(), firstTokenTimeoutMs: 150 }));
    await until(() => openai() === 1, 'the openai request upstream');
    await clock.advance(149);
    expect(anthropic()).toBe(0);
    await clock.advance(1);
    const events = await pending;
    expect(last(events)).toMatchObject({ type: 'done', result: { provider: 'anthropic', attempts: [{ provider: 'openai', kind: 'timeout', latencyMs: 150 }, { provider: 'anthropic', ok: true }] } });
    expect((last(events) as Extract<StreamEvent, { type: 'done' }>).result.timeToFirstTokenMs).toBe(150);
    expect([openai(), anthropic()]).toEqual([1, 1]);
  });

  it('reads firstTokenTimeoutMs from the provider config too', async () => {
    const { router, openai, anthropic, clock } = setup({
      providers: {
        openai: { type: 'openai', apiKey: 'sk-x', baseURL: `${up.url}/v1`, firstTokenTimeoutMs: 150 },
        anthropic: { type: 'anthropic', apiKey: 'sk-y', baseURL: up.url },
      },
    });
    up.script(OPENAI_PATH, { hang: true });
    const pending = collect(router.stream(ask()));
    await until(() => openai() === 1, 'the openai request upstream');
    await clock.advance(149);
    expect(anthropic()).toBe(0);
    await clock.advance(1);
    expect(last(await pending)).toMatchObject({ type: 'done', result: { provider: 'anthropic', attempts: [{ provider: 'openai', kind: 'timeout', latencyMs: 150 }, { ok: true }] } });
  });

  it('never reports a stream missing its final event as done', async () => {
    const { router } = setup();
    const withoutStop = anthropicSse(['All', ' of', ' it']).slice(0, -1); // everything but message_stop, then a clean close
    up.script(ANTHROPIC_PATH, { sse: withoutStop });
    const events = await collect(router.stream({ ...ask(), chain: 'anthropic-first' }));
    expect(last(events)).toMatchObject({ type: 'interrupted', text: 'All of it', error: { kind: 'transport', code: 'stream_truncated' } });
    expect(events.some((e) => e.type === 'done')).toBe(false);
  });

  it('never reports an OpenAI stream that closes without a finish_reason as done', async () => {
    const { router } = setup();
    up.script(OPENAI_PATH, { sse: openaiSse(['No', ' end']).slice(0, 3) });
    expect(last(await collect(router.stream(ask())))).toMatchObject({ type: 'interrupted', text: 'No end', error: { code: 'stream_truncated' } });
  });

  it('ends a stream that stalls after its first token as interrupted (idle timeout = the provider timeoutMs)', async () => {
    // A minute, on the router's clock: the SDK's own wall-clock timer (the same timeoutMs) stays out of reach.
    const { router, anthropic, clock } = setup({
      providers: {
        openai: { type: 'openai', apiKey: 'sk-x', baseURL: `${up.url}/v1`, timeoutMs: 60_000 },
        anthropic: { type: 'anthropic', apiKey: 'sk-y', baseURL: up.url },
      },
    });
    up.script(OPENAI_PATH, { sse: openaiSse(['Half']).slice(0, 2), end: false });
    const events: StreamEvent[] = [];
    const pending = collectInto(router.stream(ask()), events);
    await until(() => texts(events).length === 1, 'the first token');
    await clock.advance(59_999);
    expect(events.map((e) => e.type)).toEqual(['start', 'text']);
    await clock.advance(1);
    const end = last(await pending);
    expect(end).toMatchObject({ type: 'interrupted', text: 'Half', error: { kind: 'timeout' } });
    expect(anthropic()).toBe(0);
  });

  // The upstream streams the first chunks and then holds the connection open without ever ending it:
  // only the router closing it can make it count as abandoned.
  it('ends at once when the caller aborts mid-stream, and the upstream connection is closed', async () => {
    const { router, clock } = setup();
    up.script(OPENAI_PATH, { sse: openaiSse(['Hello', ' world', ' and', ' more']).slice(0, 3), end: false });
    const controller = new AbortController();
    const events: StreamEvent[] = [];
    const startedAt = clock.now();
    for await (const ev of router.stream({ ...ask(), signal: controller.signal })) {
      events.push(ev);
      if (ev.type === 'text') controller.abort();
    }
    expect(clock.now()).toBe(startedAt); // no timer had to fire
    expect(last(events)).toMatchObject({ type: 'interrupted', error: { kind: 'aborted' }, text: 'Hello' });
    // Nothing is shown after the abort, not even a chunk that had already arrived.
    expect(events.filter((e) => e.type === 'text').map((e) => (e as { delta: string }).delta)).toEqual(['Hello']);
    expect(router.breakerStates().openai).toBe('closed');
    await until(() => up.abandoned === 1, 'the upstream connection to close');
  });

  it('aborts the upstream request when the consumer stops reading early', async () => {
    const { router } = setup();
    up.script(OPENAI_PATH, { sse: openaiSse(['a', 'b', 'c', 'd', 'e', 'f']).slice(0, 7), end: false });
    const seen: string[] = [];
    for await (const ev of router.stream(ask())) {
      if (ev.type === 'text') {
        seen.push(ev.delta);
        break;
      }
    }
    expect(seen).toEqual(['a']);
    await until(() => up.abandoned === 1, 'the upstream connection to close'); // the stream itself never ends
  });

  it('counts a mid-stream server failure for the breaker', async () => {
    const { router } = setup({ breaker: { volumeThreshold: 2, errorThresholdPercentage: 40 } });
    const broken = { sse: [...anthropicSseHead(), anthropicDelta('x'), anthropicOverloadedEvent] };
    up.script(ANTHROPIC_PATH, broken, broken);
    await collect(router.stream({ ...ask(), chain: 'anthropic-first' }));
    await collect(router.stream({ ...ask(), chain: 'anthropic-first' }));
    expect(router.breakerStates().anthropic).toBe('open');
  });

  it('throws a failure that must not fall through (a 400) from the iteration, after one request', async () => {
    const { router } = setup();
    up.script(OPENAI_PATH, { status: 400, body: openaiBodies.contextLength });
    const err = await rejectionOf(collect(router.stream(ask())));
    expect(err.kind).toBe('context_length');
    expect(up.count()).toBe(1);
  });

  it('throws exhausted from the iteration when no target can start a stream', async () => {
    const { router } = setup({ retry: { maxAttempts: 1 } });
    up.script(OPENAI_PATH, { status: 503, body: openaiBodies.overloaded503 });
    up.script(ANTHROPIC_PATH, { status: 529, body: { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } } });
    const err = await rejectionOf(collect(router.stream(ask())));
    expect(err.kind).toBe('exhausted');
    expect(err.attempts).toHaveLength(2);
  });

  it('validates input when the stream is created, before any request', () => {
    const { router } = setup();
    expect(() => router.stream({ messages: [] })).toThrow(/at least one message/);
    expect(up.count()).toBe(0);
  });
});
