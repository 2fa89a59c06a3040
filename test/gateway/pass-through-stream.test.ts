import OpenAI, { APIError } from 'openai';
import { describe, expect, it } from 'vitest';
import type { RelayEvent } from '../../src/calls/stream.js';
import type { CallEvent } from '../../src/observe/events.js';
import { PassThrough, startsRaw, withPassThrough } from '../../src/pass-through/seam.js';
import { ANTHROPIC_PATH, OPENAI_PATH, openai429Headers, openaiBodies } from '../support/fixtures.js';
import { anthropicSse, openaiSse } from '../support/sse.js';
import type { Upstream } from '../support/upstream.js';
import { upstreamPerTest } from '../support/upstream-per-test.js';
import { until } from '../support/until.js';
import { VirtualClock } from '../support/virtual-clock.js';
import { ANTHROPIC_KEY, OPENAI_KEY } from '../support/wire-router.js';
import { startHarness, xHeaders, type Harness } from './gateway-harness.js';

let up: Upstream;
let h: Harness;
upstreamPerTest((u) => (up = u), () => h?.close());

const hello = [{ role: 'user' as const, content: 'Say hello' }];
/** The SSE body the loopback upstream writes for these events. */
const wire = (events: string[]) => events.map((e) => `${e}\n\n`).join('');
/** The openai SDK's request bytes: JSON.stringify of the params. */
const clientBytes = (params: Record<string, unknown>) => JSON.stringify(params);
const calls = (harness: Harness) => {
  const seen: CallEvent[] = [];
  harness.router.on('call', (e) => seen.push(e));
  return seen;
};

describe('gateway pass-through streams: the upstream\'s bytes back, every decision as on the translated path', () => {
  it('sends the client\'s bytes and relays the upstream\'s SSE byte for byte (usage asked by the client)', async () => {
    h = await startHarness(up);
    const events = openaiSse(['Hel', 'lo']);
    up.script(OPENAI_PATH, { sse: events, headers: { 'x-request-id': 'req_stream_1' } });
    const seen = calls(h);
    const params = { model: 'openai-only', messages: hello, stream: true, stream_options: { include_usage: true }, max_tokens: 20 };
    const response = await h.client().chat.completions.create(params as never).asResponse();
    const body = await response.text();
    expect(up.count(OPENAI_PATH)).toBe(1);
    expect(up.requests[0]!.text).toBe(clientBytes({ ...params, model: 'gpt-4o-mini' }));
    expect(body).toBe(wire(events));
    expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    expect(xHeaders(response.headers)).toMatchObject({ 'x-switchyard-provider': 'openai', 'x-switchyard-model': 'gpt-4o-mini', 'x-switchyard-attempts': '1', 'x-switchyard-upstream-request-id': 'req_stream_1' });
    // The router read the stream as it went by: its usage, for spend.
    expect(seen.map((e) => [e.outcome, e.usage])).toEqual([['ok', { inputTokens: 17, outputTokens: 10 }]]);
  });

  it('asks for usage the client did not, reads it, and keeps the usage chunk from the client', async () => {
    h = await startHarness(up);
    const events = openaiSse(['Hi']);
    up.script(OPENAI_PATH, { sse: events });
    const seen = calls(h);
    const params = { model: 'openai-only', messages: hello, stream: true };
    let text = '';
    let usage: unknown;
    for await (const chunk of await h.client().chat.completions.create(params as OpenAI.ChatCompletionCreateParamsStreaming)) {
      text += chunk.choices[0]?.delta.content ?? '';
      usage ??= chunk.usage ?? undefined;
    }
    expect(text).toBe('Hi');
    expect(usage).toBeUndefined();
    expect(up.requests[0]!.text).toBe(`{"stream_options":{"include_usage":true},${clientBytes({ ...params, model: 'gpt-4o-mini' }).slice(1)}`);
    const raw = await (await (up.script(OPENAI_PATH, { sse: events }), h.client().chat.completions.create(params as never).asResponse())).text();
    expect(raw).toBe(wire(events.filter((_, i) => i !== events.length - 2)));
    expect(seen.map((e) => e.usage)).toEqual([{ inputTokens: 17, outputTokens: 10 }, { inputTokens: 17, outputTokens: 10 }]);
  });

  it('falls through on a 503 before any byte: the next target (Anthropic) answers, translated', async () => {
    h = await startHarness(up, { retry: { baseDelayMs: 1, maxDelayMs: 2, maxAttempts: 2 } } as never);
    up.script(OPENAI_PATH, ...Array.from({ length: 2 }, () => ({ status: 503, body: openaiBodies.overloaded503 })));
    up.script(ANTHROPIC_PATH, { sse: anthropicSse(['Hi from', ' Claude']) });
    const params = { model: 'default', messages: hello, stream: true, max_tokens: 40 };
    const response = await h.client().chat.completions.create(params as never).asResponse();
    const body = await response.text();
    expect(up.count(OPENAI_PATH)).toBe(2);
    for (const seen of up.requests.filter((r) => r.path === OPENAI_PATH)) {
      expect(seen.text).toBe(`{"stream_options":{"include_usage":true},${clientBytes({ ...params, model: 'gpt-4o-mini' }).slice(1)}`);
    }
    expect(up.count(ANTHROPIC_PATH)).toBe(1);
    expect(xHeaders(response.headers)).toMatchObject({ 'x-switchyard-provider': 'anthropic', 'x-switchyard-attempts': '3' });
    // The gateway's own chunks for a translated stream, ending with its [DONE].
    const chunks = body.split('\n\n').filter(Boolean).map((b) => b.replace(/^data: /, ''));
    expect(chunks.at(-1)).toBe('[DONE]');
    expect(chunks.slice(0, -1).map((c) => (JSON.parse(c) as OpenAI.ChatCompletionChunk).choices[0]?.delta.content ?? '').join('')).toBe('Hi from Claude');
  });

  it('cools a target on a 429: the next stream skips it, nothing more is sent to it', async () => {
    h = await startHarness(up, {}, {}, new VirtualClock());
    up.script(OPENAI_PATH, { status: 429, headers: openai429Headers, body: openaiBodies.rateLimitRequests });
    up.script(ANTHROPIC_PATH, { sse: anthropicSse(['one']) }, { sse: anthropicSse(['two']) });
    const params = { model: 'default', messages: hello, stream: true };
    const first = await h.client().chat.completions.create(params as never).asResponse();
    expect(first.headers.get('x-switchyard-provider')).toBe('anthropic');
    await first.text();
    expect(up.count(OPENAI_PATH)).toBe(1);
    const second = await h.client().chat.completions.create(params as never).asResponse();
    expect(second.headers.get('x-switchyard-provider')).toBe('anthropic');
    expect(xHeaders(second.headers)['x-switchyard-attempts']).toBe('2');
    await second.text();
    expect(up.count(OPENAI_PATH)).toBe(1);
    expect(up.count(ANTHROPIC_PATH)).toBe(2);
  });

  it('holds the bytes until the first token: a stream cut before it is retried and the client sees only the answer', async () => {
    h = await startHarness(up);
    const events = openaiSse(['Hello']);
    up.script(OPENAI_PATH, { sse: events, cutAfter: 1 }, { sse: events });
    const body = await (await h.client().chat.completions.create({ model: 'openai-only', messages: hello, stream: true, stream_options: { include_usage: true } }).asResponse()).text();
    expect(up.count(OPENAI_PATH)).toBe(2);
    expect(body).toBe(wire(events));
  });

  it('falls through when the target shows no token within firstTokenTimeoutMs, on the virtual clock, and the client sees none of its bytes', async () => {
    const clock = new VirtualClock();
    h = await startHarness(up, {
      providers: {
        openai: { type: 'openai', apiKey: OPENAI_KEY, baseURL: `${up.url}/v1`, firstTokenTimeoutMs: 150 },
        anthropic: { type: 'anthropic', apiKey: ANTHROPIC_KEY, baseURL: up.url },
      },
    }, {}, clock);
    const stalled = openaiSse(['late']).slice(0, 1); // the role-only chunk, then silence
    up.script(OPENAI_PATH, { sse: stalled, end: false });
    up.script(ANTHROPIC_PATH, { sse: anthropicSse(['Hi']) });
    const pending = h.client().chat.completions.create({ model: 'default', messages: hello, stream: true }).asResponse();
    await until(() => up.count(OPENAI_PATH) === 1, 'the openai request upstream');
    await clock.advance(149);
    expect(up.count(ANTHROPIC_PATH)).toBe(0);
    await clock.advance(1);
    const response = await pending;
    const body = await response.text();
    expect(response.headers.get('x-switchyard-provider')).toBe('anthropic');
    expect(body).not.toContain('chatcmpl-9tZXFsqeQOozn5YU8I6SbjkmDnN76');
    expect([up.count(OPENAI_PATH), up.count(ANTHROPIC_PATH)]).toEqual([1, 1]);
  });

  it('commits at its first token: a cut after it ends with the error frame, after exactly one upstream request', async () => {
    h = await startHarness(up);
    const seen = calls(h);
    const events = openaiSse(['Hel', 'lo', ' there']);
    up.script(OPENAI_PATH, { sse: events, cutAfter: 3 });
    const client = h.client();
    let text = '';
    const cut = await (async () => {
      for await (const chunk of await client.chat.completions.create({ model: 'default', messages: hello, stream: true })) text += chunk.choices[0]?.delta.content ?? '';
    })().then(() => undefined, (e: unknown) => e);
    expect(cut).toBeInstanceOf(APIError);
    expect((cut as APIError).status).toBeUndefined();
    expect((cut as APIError).code).toBe('transport');
    expect(text).toBe('Hello');
    // Committed: not retried, and the chain's next target (Anthropic) never asked.
    expect(up.count(OPENAI_PATH)).toBe(1);
    expect(up.count(ANTHROPIC_PATH)).toBe(0);
    expect(seen.map((e) => [e.outcome, e.kind])).toEqual([['interrupted', 'transport']]);
  });

  it('ends with the error frame, not the upstream\'s, when the upstream sends a mid-stream error after the first token', async () => {
    h = await startHarness(up);
    const events = openaiSse(['Hel']);
    const upstreamError = 'data: {"error":{"message":"The server had an error","type":"server_error","param":null,"code":"server_error"}}';
    up.script(OPENAI_PATH, { sse: [...events.slice(0, 2), upstreamError] });
    const body = await (await h.client().chat.completions.create({ model: 'openai-only', messages: hello, stream: true }).asResponse()).text();
    expect(body.startsWith(wire(events.slice(0, 2)))).toBe(true);
    expect(body).not.toContain(upstreamError);
    const frame = JSON.parse(body.slice(wire(events.slice(0, 2)).length).replace(/^data: /, '')) as { error: { code: string } };
    expect(frame.error.code).toBe('server');
    expect(up.count(OPENAI_PATH)).toBe(1);
  });

  it('translates every stream with passThrough: false', async () => {
    h = await startHarness(up, {}, { passThrough: false });
    up.script(OPENAI_PATH, { sse: openaiSse(['Hi']) });
    const params = { model: 'openai-only', messages: hello, stream: true, max_tokens: 20 };
    const body = await (await h.client().chat.completions.create(params as never).asResponse()).text();
    // The translated path sends the router's own body (max_completion_tokens for openai) and answers with its own chunks.
    expect(up.requests[0]!.body).toMatchObject({ model: 'gpt-4o-mini', max_completion_tokens: 20, stream: true });
    expect(body).not.toBe(wire(openaiSse(['Hi'])));
    expect(body.endsWith('data: [DONE]\n\n')).toBe(true);
  });
});

describe('router.stream and router.chat called with a pass-through body directly (the seam the gateway uses)', () => {
  it('streams: start says passThrough, raw events carry the upstream\'s bytes, text and done as ever', async () => {
    h = await startHarness(up);
    const events = openaiSse(['Hel', 'lo']);
    up.script(OPENAI_PATH, { sse: events });
    const body = { model: 'openai-only', messages: hello, stream: true, stream_options: { include_usage: true } };
    const seen: string[] = [];
    let bytes = '';
    let text = '';
    const stream = h.router.stream(withPassThrough({ chain: 'openai-only', messages: hello }, new PassThrough(JSON.stringify(body), body, 'chat'))) as AsyncIterable<RelayEvent>;
    for await (const ev of stream) {
      seen.push(ev.type === 'start' ? `start:${String(startsRaw(ev))}` : ev.type);
      if (ev.type === 'raw') bytes += ev.bytes;
      if (ev.type === 'text') text += ev.delta;
      if (ev.type === 'done') expect(ev.result).toMatchObject({ text: 'Hello', finishReason: 'stop', usage: { inputTokens: 17, outputTokens: 10 } });
    }
    expect(bytes).toBe(wire(events));
    expect(text).toBe('Hello');
    expect(seen[0]).toBe('start:true');
    expect(seen.at(-1)).toBe('done');
    expect(up.count(OPENAI_PATH)).toBe(1);
  });

  it('refuses before sending a streamed body on router.chat, and a plain one on router.stream', async () => {
    h = await startHarness(up);
    const streamed = { model: 'openai-only', messages: hello, stream: true };
    await expect(h.router.chat(withPassThrough({ chain: 'openai-only', messages: hello }, new PassThrough(JSON.stringify(streamed), streamed, 'chat')))).rejects.toMatchObject({ kind: 'invalid_request', message: expect.stringMatching(/call router\.stream/) });
    const plain = { model: 'openai-only', messages: hello };
    expect(() => h.router.stream(withPassThrough({ chain: 'openai-only', messages: hello }, new PassThrough(JSON.stringify(plain), plain, 'chat')))).toThrow(/must ask for a stream/);
    expect(up.count(OPENAI_PATH)).toBe(0);
  });
});
