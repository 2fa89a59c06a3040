import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { resolveConfig } from '../../src/config/index.js';
import { RouterError } from '../../src/errors.js';
import { VirtualClock } from '../../src/testing/virtual-clock.js';
import type { Message } from '../../src/types.js';
import { startUpstream, type Upstream } from '../../test/support/upstream.js';
import { adapterFor, adapterForResolved, drain, failureOf } from '../test-support/adapter-harness.js';
import { geminiBodies, geminiChunk, geminiPath, geminiRecordedCallChunk, geminiResponse, geminiText } from '../test-support/gemini-wire.js';
import type { ProviderRequest } from '../types.js';

const KEY = 'AIzaSyTESTgemini0123456789abcdefghijk';
const MODEL = 'gemini-2.5-flash';
const CHAT = geminiPath(MODEL, 'generateContent');
const STREAM = geminiPath(MODEL, 'streamGenerateContent');
const WEATHER = { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } };
const ask = (content = 'Hi'): ProviderRequest => ({ model: MODEL, messages: [{ role: 'user', content }] });

let up: Upstream;
beforeAll(async () => {
  up = await startUpstream();
});
afterAll(async () => {
  await up.close();
});
beforeEach(() => up.reset());

const gemini = (extra: Record<string, unknown> = {}, clock?: VirtualClock) => adapterFor('gemini', { type: 'gemini', apiKey: KEY, baseURL: `${up.url}/v1beta`, ...extra }, clock);

describe('gemini adapter: the wire', () => {
  it('posts to models/{model}:generateContent with the key in x-goog-api-key and never in the URL', async () => {
    up.script(CHAT, { status: 200, body: geminiText('Hello') });
    const res = await gemini({ query: { 'x-proxy-route': 'eu' }, headers: { 'x-team': 'search' } }).chat(ask(), {});
    expect(res).toMatchObject({ text: 'Hello', finishReason: 'stop', model: 'gemini-2.5-flash', requestId: 'IZI2acSKMoWl0-kPmYj2yQc' });
    const seen = up.requests[0]!;
    expect(seen.method).toBe('POST');
    expect(seen.path).toBe(CHAT);
    expect(seen.query).toBe('x-proxy-route=eu');
    expect(seen.headers['x-goog-api-key']).toBe(KEY);
    expect(seen.headers['x-team']).toBe('search');
    expect(seen.headers['content-type']).toBe('application/json');
    expect(seen.body).toEqual({ contents: [{ role: 'user', parts: [{ text: 'Hi' }] }] });
  });

  it('takes a model named models/... and posts a stream with alt=sse', async () => {
    up.script(STREAM, { sse: [geminiChunk([{ text: 'Hi' }], { finishReason: 'STOP' })] });
    const { events } = await drain(gemini(), { ...ask(), model: `models/${MODEL}` });
    expect(events.map((e) => e.type)).toEqual(['open', 'delta', 'finish']);
    expect(up.requests[0]).toMatchObject({ path: STREAM, query: 'alt=sse' });
  });

  it('is a config error naming the provider when no key is set, default variable GEMINI_API_KEY', () => {
    const attempt = () => resolveConfig({ providers: { google: { type: 'gemini' } }, chains: { default: ['google:gemini-2.5-flash'] } }, {});
    expect(attempt).toThrow(RouterError);
    expect(attempt).toThrow(/providers\.google: environment variable GEMINI_API_KEY .*is not set/);
    const resolved = resolveConfig({ providers: { google: { type: 'gemini' } }, chains: { default: ['google:gemini-2.5-flash'] } }, { GEMINI_API_KEY: KEY });
    expect(resolved.providers.google!.resolvedApiKey).toBe(KEY);
    expect(() => adapterForResolved({ type: 'gemini', name: 'google' })).toThrow(/providers\.google: no API key/);
  });

  it('answers a wrong key (400 API_KEY_INVALID) as auth, the key nowhere in the error', async () => {
    const echoed = { error: { ...geminiBodies.invalidKey.error, message: `API key not valid. Please pass a valid API key. (${KEY})` } };
    up.script(CHAT, { status: 400, body: echoed });
    const err = await failureOf(gemini(), ask());
    expect(err).toMatchObject({ kind: 'auth', status: 400, code: 'API_KEY_INVALID', provider: 'gemini' });
    expect(JSON.stringify({ ...err.toJSON(), message: err.message, stack: err.stack, cause: err.cause })).not.toContain(KEY);
  });

  it('times a plain answer on the router\'s clock, body included', async () => {
    const clock = new VirtualClock();
    up.script(CHAT, { hang: true } as never);
    const pending = gemini({}, clock).chat(ask(), { timeoutMs: 5000 }).then(() => undefined, (err: unknown) => err);
    while (up.requests.length === 0) await new Promise((r) => setTimeout(r, 5));
    await clock.advance(5000);
    expect(await pending).toMatchObject({ kind: 'timeout' });
    expect(clock.pendingTimers).toBe(0);
  });
});

describe('gemini adapter: answers', () => {
  it('reads parallel function calls with stable ids when Gemini gives none, and keeps its own when it does', async () => {
    const parts = [{ functionCall: { name: 'get_weather', args: { city: 'Paris' } } }, { functionCall: { name: 'get_weather', args: { city: 'Rome' } } }];
    up.script(CHAT, { status: 200, body: geminiResponse(parts) }, { status: 200, body: geminiResponse(parts) });
    const first = await gemini().chat({ ...ask(), tools: [WEATHER] }, {});
    const again = await gemini().chat({ ...ask(), tools: [WEATHER] }, {});
    expect(first.finishReason).toBe('tool_calls');
    expect(first.toolCalls.map((c) => c.arguments)).toEqual([{ city: 'Paris' }, { city: 'Rome' }]);
    expect(new Set(first.toolCalls.map((c) => c.id)).size).toBe(2);
    expect(again.toolCalls.map((c) => c.id)).toEqual(first.toolCalls.map((c) => c.id));

    up.script(CHAT, { status: 200, body: geminiResponse([{ functionCall: { id: 'fc_7x', name: 'get_weather', args: { city: 'Oslo' } } }]) });
    expect((await gemini().chat({ ...ask(), tools: [WEATHER] }, {})).toolCalls[0]!.id).toBe('fc_7x');
  });

  it('names a call alike in a plain and a streamed read of one answer', async () => {
    const part = { functionCall: { name: 'getWeather', args: { location: 'Tokyo' } } };
    up.script(CHAT, { status: 200, body: geminiResponse([part], { responseId: 'qpc2afWVFJK4vr0Pq6WiyAU' }) });
    up.script(STREAM, { sse: [geminiChunk([part], { finishReason: 'STOP' })] });
    const plain = await gemini().chat(ask(), {});
    const { events } = await drain(gemini(), ask());
    expect(events.find((e) => e.type === 'tool_call_start')).toMatchObject({ id: plain.toolCalls[0]!.id });
  });

  it('round-trips the thought signature of the recorded streamed call in providerParts, and replays it verbatim', async () => {
    up.script(STREAM, { sse: [geminiRecordedCallChunk] });
    const { events } = await drain(gemini(), { ...ask('Weather in Tokyo?'), tools: [WEATHER] });
    const finish = events.at(-1) as Extract<(typeof events)[number], { type: 'finish' }>;
    expect(finish).toMatchObject({ finishReason: 'tool_calls', usage: { inputTokens: 83, outputTokens: 118, reasoningTokens: 104 } });
    expect(finish.providerParts).toEqual({ api: 'gemini', blocks: [JSON.parse(geminiRecordedCallChunk.slice(6)).candidates[0].content.parts[0]] });
    const start = events.find((e) => e.type === 'tool_call_start') as { id: string };

    up.script(CHAT, { status: 200, body: geminiText('It is sunny in Tokyo.') });
    const history: Message[] = [
      { role: 'user', content: 'Weather in Tokyo?' },
      { role: 'assistant', content: null, toolCalls: [{ id: start.id, name: 'getWeather', arguments: { location: 'Tokyo' } }], providerParts: finish.providerParts },
      { role: 'tool', toolCallId: start.id, content: '{"sky":"clear"}' },
    ];
    await gemini().chat({ model: MODEL, messages: history, tools: [WEATHER] }, {});
    const sent = up.requests.at(-1)!.body;
    expect(sent.contents[1]).toEqual({ role: 'model', parts: (finish.providerParts as { blocks: unknown[] }).blocks });
    expect(sent.contents[2]).toEqual({ role: 'user', parts: [{ functionResponse: { name: 'getWeather', response: { output: '{"sky":"clear"}' } } }] });
  });

  it.each([
    ['MAX_TOKENS', 'length'],
    ['SAFETY', 'content_filter'],
    ['RECITATION', 'content_filter'],
    ['PROHIBITED_CONTENT', 'content_filter'],
    ['LANGUAGE', 'other'],
  ])('finishes %s as %s', async (reason, finishReason) => {
    up.script(CHAT, { status: 200, body: geminiText('partial', { finishReason: reason }) });
    expect((await gemini().chat(ask(), {})).finishReason).toBe(finishReason);
  });

  it('throws a prompt blocked before any candidate as content_filter, plain and streamed', async () => {
    const blocked = { promptFeedback: { blockReason: 'SAFETY', safetyRatings: [] }, usageMetadata: { promptTokenCount: 8, totalTokenCount: 8 }, modelVersion: MODEL };
    up.script(CHAT, { status: 200, body: blocked });
    up.script(STREAM, { sse: [`data: ${JSON.stringify(blocked)}`] });
    expect(await failureOf(gemini(), ask())).toMatchObject({ kind: 'content_filter', code: 'prompt_blocked_safety' });
    const { events, error } = await drain(gemini(), ask());
    expect(error).toMatchObject({ kind: 'content_filter' });
    expect(events.map((e) => e.type)).toEqual(['open']);
  });

  it('throws MALFORMED_FUNCTION_CALL as invalid_output with the call as written', async () => {
    const message = 'Malformed function call: print(default_api.get_weather(city=Paris)';
    up.script(CHAT, { status: 200, body: geminiResponse([], { finishReason: 'MALFORMED_FUNCTION_CALL', finishMessage: message }) });
    expect(await failureOf(gemini(), { ...ask(), tools: [WEATHER] })).toMatchObject({ kind: 'invalid_output', code: 'malformed_function_call', raw: message });
  });

  it('reads cache reads and thinking into usage', async () => {
    up.script(CHAT, { status: 200, body: geminiText('ok', { usage: { promptTokenCount: 2000, candidatesTokenCount: 5, thoughtsTokenCount: 40, cachedContentTokenCount: 1536 } }) });
    expect((await gemini().chat(ask(), {})).usage).toEqual({ inputTokens: 2000, outputTokens: 45, cachedInputTokens: 1536, reasoningTokens: 40 });
  });

  it('streams a signature-only part as thinking, never as an empty delta', async () => {
    up.script(STREAM, { sse: [geminiChunk([{ text: '', thoughtSignature: 'Q2lr' }]), geminiChunk([{ text: 'Answer.' }], { finishReason: 'STOP' })] });
    const { events } = await drain(gemini(), ask());
    expect(events.map((e) => e.type)).toEqual(['open', 'thinking', 'delta', 'finish']);
    expect(events.at(-1)).toMatchObject({ providerParts: { api: 'gemini', blocks: [{ text: '', thoughtSignature: 'Q2lr' }, { text: 'Answer.' }] } });
  });

  it('streams thought parts as thinking deltas, a run of them one block, and each thoughtSignature as that block\'s signature', async () => {
    up.script(STREAM, { sse: [
      geminiChunk([{ text: 'Weighing ', thought: true }]),
      geminiChunk([{ text: 'the options.', thought: true, thoughtSignature: 'Q2lr' }]),
      geminiChunk([{ text: 'Answer.' }]),
      geminiChunk([{ text: 'On reflection', thought: true }]),
      geminiChunk([{ functionCall: { name: 'get_weather', args: { city: 'Paris' } }, thoughtSignature: 'U2ln' }], { finishReason: 'STOP' }),
    ] });
    const { events } = await drain(gemini(), { ...ask(), tools: [WEATHER] });
    expect(events.filter((e) => e.type === 'thinking')).toEqual([
      { type: 'thinking', index: 0, delta: 'Weighing ' },
      { type: 'thinking', index: 0, delta: 'the options.' },
      { type: 'thinking', index: 0, signature: 'Q2lr' },
      { type: 'thinking', index: 1, delta: 'On reflection' },
      { type: 'thinking', index: 1, signature: 'U2ln' },
    ]);
    expect(events.map((e) => e.type)).toEqual(['open', 'thinking', 'thinking', 'thinking', 'delta', 'thinking', 'tool_call_start', 'tool_call_delta', 'tool_call_end', 'thinking', 'finish']);
    expect(events.at(-1)).toMatchObject({ providerParts: { api: 'gemini', blocks: [
      { text: 'Weighing ', thought: true }, { text: 'the options.', thought: true, thoughtSignature: 'Q2lr' }, { text: 'Answer.' },
      { text: 'On reflection', thought: true }, { functionCall: { name: 'get_weather', args: { city: 'Paris' } }, thoughtSignature: 'U2ln' },
    ] } });
  });

  it('finishes a stream cut after its finishReason, and fails one cut before it', async () => {
    const chunks = [geminiChunk([{ text: 'Hello' }]), geminiChunk([{ text: ' there' }], { finishReason: 'STOP' }), geminiChunk([{ text: 'never' }])];
    up.script(STREAM, { sse: chunks, cutAfter: 2 });
    expect((await drain(gemini(), ask())).events.at(-1)).toMatchObject({ type: 'finish', finishReason: 'stop' });
    up.script(STREAM, { sse: chunks, cutAfter: 1 });
    const cut = await drain(gemini(), ask());
    expect(cut.error).toMatchObject({ kind: 'transport' });
    expect(cut.events.some((e) => e.type === 'finish')).toBe(false);
  });

  it('throws a stream that opens with an error status as that error, before anything is yielded', async () => {
    up.script(STREAM, { status: 429, body: geminiBodies.rateLimit('2s') });
    const { events, error } = await drain(gemini(), ask());
    expect(events).toEqual([]);
    expect(error).toMatchObject({ kind: 'rate_limited', status: 429, retryAfterMs: 2000 });
  });
});
