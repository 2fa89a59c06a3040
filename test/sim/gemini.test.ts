import { describe, expect, it } from 'vitest';
import { adapterFor, drain, failureOf } from '../../providers/test-support/adapter-harness.js';
import type { ProviderRequest } from '../../providers/types.js';
import type { FaultRule, SimProviderOptions, Simulator } from '../../src/sim/index.js';
import type { Message } from '../../src/types.js';
import { useSimulators, user } from './helpers.js';

const start = useSimulators();
const KEY = 'AIzaSySIMTESTkey0123456789abcdefghij';
const MODEL = 'gemini-2.5-flash';
const WEATHER = { name: 'get_weather', description: 'Weather in a city', parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } };

async function gemini(options: Omit<SimProviderOptions, 'type'> = {}, seed = 1) {
  const sim = await start({ seed, providers: { gemini: { type: 'gemini', ...options } } });
  return { sim, adapter: adapterFor('gemini', { type: 'gemini', apiKey: KEY, baseURL: sim.baseURL('gemini') }) };
}

const withFault = (fault: FaultRule) => gemini({ faults: [fault] });
const ask = (content = 'Tell me about retries', model = MODEL): ProviderRequest => ({ model, messages: user(content) as Message[], maxTokens: 200 });

async function post(sim: Simulator, path: string, body: unknown, headers: Record<string, string> = { 'x-goog-api-key': KEY }) {
  const res = await fetch(`${sim.baseURL('gemini')}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
  return { status: res.status, text: await res.text(), headers: res.headers };
}

describe('the simulator speaks Gemini', () => {
  it('answers generateContent at /{provider}/v1beta/models/{model}:generateContent, with usage and a responseId', async () => {
    const { sim, adapter } = await gemini();
    expect(sim.baseURL('gemini')).toMatch(/\/gemini\/v1beta$/);
    const res = await adapter.chat(ask(), {});
    expect(res.text.length).toBeGreaterThan(0);
    expect(res).toMatchObject({ finishReason: 'stop', model: MODEL, requestId: expect.stringMatching(/^[A-Za-z0-9_-]{23}$/) });
    expect(res.usage?.inputTokens).toBeGreaterThan(0);
    // 2.5 models think by default: thinking tokens are counted into the output.
    expect(res.usage?.reasoningTokens).toBeGreaterThan(0);
    expect(sim.stats().providers.gemini).toMatchObject({ type: 'gemini', requests: 1 });
  });

  it('streams CRLF-framed SSE chunks whose text joins to the plain answer', async () => {
    const { sim, adapter } = await gemini();
    const plain = await adapter.chat(ask(), {});
    const raw = await post(sim, `/models/${MODEL}:streamGenerateContent?alt=sse`, { contents: [{ role: 'user', parts: [{ text: 'Tell me about retries' }] }], generationConfig: { maxOutputTokens: 200 } });
    expect(raw.headers.get('content-type')).toMatch(/^text\/event-stream/);
    expect(raw.text).toMatch(/^data: \{.*\}\r\n\r\n/);
    const { events, error } = await drain(adapter, ask());
    expect(error).toBeUndefined();
    expect(events.filter((e) => e.type === 'delta').map((e) => (e as { text: string }).text).join('')).toBe(plain.text);
    expect(events.at(-1)).toMatchObject({ type: 'finish', finishReason: 'stop', usage: plain.usage });
  });

  it('runs a tool loop, holding Gemini 3 to its thought signatures', async () => {
    const { sim, adapter } = await gemini();
    const model = 'gemini-3-flash-preview';
    const messages: Message[] = [{ role: 'user', content: 'What is the weather in Paris? Use get_weather.' }];
    const first = await adapter.chat({ model, messages, tools: [WEATHER] }, {});
    expect(first).toMatchObject({ finishReason: 'tool_calls', toolCalls: [{ name: 'get_weather' }] });
    expect(first.providerParts?.api).toBe('gemini');
    const followUp: Message[] = [...messages, { role: 'assistant', content: null, toolCalls: first.toolCalls, providerParts: first.providerParts }, { role: 'tool', toolCallId: first.toolCalls[0]!.id, content: '{"tempC":21}' }];
    const second = await adapter.chat({ model, messages: followUp, tools: [WEATHER] }, {});
    expect(second.text).toContain('get_weather');
    // Another provider's tool turn (no signatures of Gemini's) goes with the documented stand-in, and is taken.
    const foreign: Message[] = [...messages, { role: 'assistant', content: null, toolCalls: [{ id: 'call_openai1', name: 'get_weather', arguments: { city: 'Paris' } }] }, { role: 'tool', toolCallId: 'call_openai1', content: '21C' }];
    expect((await adapter.chat({ model, messages: foreign, tools: [WEATHER] }, {})).text).toContain('get_weather');

    // The same history without its signatures is refused, as Gemini 3 refuses it.
    const unsigned = { contents: [
      { role: 'user', parts: [{ text: 'Weather in Paris?' }] },
      { role: 'model', parts: [{ functionCall: { name: 'get_weather', args: { city: 'Paris' } } }] },
      { role: 'user', parts: [{ functionResponse: { name: 'get_weather', response: { output: '21C' } } }] },
    ], tools: [{ functionDeclarations: [{ name: 'get_weather', parametersJsonSchema: WEATHER.parameters }] }] };
    const refused = await post(sim, `/models/${model}:generateContent`, unsigned);
    expect(refused.status).toBe(400);
    expect(JSON.parse(refused.text).error).toMatchObject({ code: 400, status: 'INVALID_ARGUMENT', message: expect.stringContaining('thought_signature') });
  });

  it('answers a JSON schema with matching JSON, and refuses JSON with tools before Gemini 3', async () => {
    const { adapter } = await gemini();
    const schema = { type: 'object', properties: { city: { type: 'string' }, tempC: { type: 'number' } }, required: ['city', 'tempC'] };
    const res = await adapter.chat({ ...ask('Weather as JSON'), responseFormat: { type: 'json_schema', name: 'w', schema, strict: true } }, {});
    expect(Object.keys(JSON.parse(res.text)).sort()).toEqual(['city', 'tempC']);
    const old = await adapter.chat({ ...ask('Weather as JSON', 'gemini-2.0-flash'), responseFormat: { type: 'json_schema', name: 'w', schema, strict: true } }, {});
    expect(typeof JSON.parse(old.text).tempC).toBe('number');
  });

  it('embeds in order with outputDimensionality, and refuses more than 100 requests in a batch', async () => {
    const { sim, adapter } = await gemini();
    const res = await adapter.embed!({ model: 'gemini-embedding-001', input: ['alpha', 'beta'], dimensions: 8 }, {});
    expect(res.embeddings.map((v) => v.length)).toEqual([8, 8]);
    expect(res.embeddings[0]).not.toEqual(res.embeddings[1]);
    const many = { requests: Array.from({ length: 101 }, () => ({ model: 'models/gemini-embedding-001', content: { parts: [{ text: 'x' }] } })) };
    const refused = await post(sim, '/models/gemini-embedding-001:batchEmbedContents', many);
    expect(refused.status).toBe(400);
    expect(JSON.parse(refused.text).error.message).toContain('at most 100 requests can be in one batch');
  });
});

describe('Gemini faults, as the adapter sees them', () => {
  it('rate_limit: 429 RESOURCE_EXHAUSTED whose RetryInfo the adapter waits on', async () => {
    const { adapter } = await withFault({ fault: 'rate_limit', retryAfterMs: 13_000 });
    expect(await failureOf(adapter, ask())).toMatchObject({ kind: 'rate_limited', status: 429, retryAfterMs: 13_000, code: 'GenerateRequestsPerMinutePerProjectPerModel-FreeTier' });
  });

  it('insufficient_quota: the day\'s quota, a per-day QuotaFailure that parks the provider', async () => {
    const { adapter } = await withFault({ fault: 'insufficient_quota' });
    expect(await failureOf(adapter, ask())).toMatchObject({ kind: 'quota_exhausted', status: 429, code: 'GenerateRequestsPerDayPerProjectPerModel-FreeTier' });
  });

  it.each([
    ['unavailable', 503, 'UNAVAILABLE'],
    ['overloaded', 503, 'UNAVAILABLE'],
    ['server_error', 500, 'INTERNAL'],
  ] as const)('%s: %d %s, a server failure', async (fault, status, code) => {
    const { adapter } = await withFault({ fault });
    expect(await failureOf(adapter, ask())).toMatchObject({ kind: 'server', status, code });
  });

  it('unauthorized: 400 API_KEY_INVALID, an auth failure; no key at all: 403 PERMISSION_DENIED', async () => {
    const { sim, adapter } = await withFault({ fault: 'unauthorized' });
    expect(await failureOf(adapter, ask())).toMatchObject({ kind: 'auth', status: 400, code: 'API_KEY_INVALID' });
    const bare = await post(sim, `/models/${MODEL}:generateContent`, { contents: [{ parts: [{ text: 'hi' }] }] }, {});
    expect(bare.status).toBe(403);
    expect(JSON.parse(bare.text).error.status).toBe('PERMISSION_DENIED');
  });

  it('a prompt over the context window: 400 context_length', async () => {
    const { adapter } = await gemini({ contextTokens: 100 });
    expect(await failureOf(adapter, ask('word '.repeat(500)))).toMatchObject({ kind: 'context_length', status: 400 });
  });

  it('a malformed request: 400 INVALID_ARGUMENT, a bad request', async () => {
    const { sim } = await gemini();
    const res = await post(sim, `/models/${MODEL}:generateContent`, { contents: [] });
    expect(res.status).toBe(400);
    expect(JSON.parse(res.text)).toEqual({ error: { code: 400, message: '* GenerateContentRequest.contents: contents is not specified', status: 'INVALID_ARGUMENT' } });
  });

  it('stream_error: an UNAVAILABLE frame after the first chunk; stream_cut: the connection drops', async () => {
    const errored = await withFault({ fault: 'stream_error', stream: true, afterChunks: 1 });
    const a = await drain(errored.adapter, ask());
    expect(a.events.filter((e) => e.type === 'delta')).toHaveLength(1);
    expect(a.error).toMatchObject({ kind: 'server', code: 'UNAVAILABLE' });
    const cut = await withFault({ fault: 'stream_cut', stream: true, afterChunks: 2 });
    const b = await drain(cut.adapter, ask());
    expect(b.events.filter((e) => e.type === 'delta')).toHaveLength(2);
    expect(b.error?.kind).toBe('transport');
  });

  it('its own rate limiter answers 429 with the wait until the request would fit', async () => {
    const { adapter } = await gemini({ limits: { rpm: 1 } });
    await adapter.chat(ask(), {});
    const err = await failureOf(adapter, ask());
    expect(err).toMatchObject({ kind: 'rate_limited', status: 429 });
    expect(err.retryAfterMs).toBeGreaterThan(0);
    expect(err.retryAfterMs).toBeLessThanOrEqual(60_000);
  });
});
