import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { StreamEvent } from '../../src/calls/stream.js';
import { createRouter, type Router } from '../../src/router.js';
import type { SwitchyardConfig } from '../../src/config/index.js';
import type { Message } from '../../src/types.js';
import { geminiBodies, geminiChunk, geminiEmbeddings, geminiPath, geminiResponse, geminiSse, geminiText } from '../../providers/test-support/gemini-wire.js';
import { captureLogger } from '../support/capture-logger.js';
import { OPENAI_PATH, openaiOk } from '../support/fixtures.js';
import { openaiSse } from '../support/sse.js';
import { startUpstream, type Upstream } from '../support/upstream.js';
import { VirtualClock } from '../support/virtual-clock.js';
import { ask, OPENAI_KEY, rejectionOf } from '../support/wire-router.js';

const GEMINI_KEY = 'AIzaSyTESTgeminiChain0123456789abcdef';
const MODEL = 'gemini-2.5-flash';
const CHAT = geminiPath(MODEL, 'generateContent');
const STREAM = geminiPath(MODEL, 'streamGenerateContent');
const EMBED = geminiPath('gemini-embedding-001', 'batchEmbedContents');

let up: Upstream;
let closers: Array<() => Promise<void>> = [];
beforeEach(async () => {
  up = await startUpstream();
  up.otherwise(OPENAI_PATH, (req) => (req.body?.stream ? { sse: openaiSse(['Hello', ' from', ' OpenAI']) } : openaiOk('Hello from OpenAI')));
  up.otherwise(CHAT, () => ({ status: 200, body: geminiText('Hello from Gemini') }));
  up.otherwise(STREAM, () => ({ sse: geminiSse(['Hello', ' from', ' Gemini']) }));
});
afterEach(async () => {
  for (const close of closers) await close();
  closers = [];
  await up.close();
});

/** A chain `gemini -> openai` on one loopback upstream, on a virtual clock, with the real wire formats on both sides. */
function setup(overrides: Partial<SwitchyardConfig> = {}): { router: Router; clock: VirtualClock; gemini: () => number; openai: () => number; log: ReturnType<typeof captureLogger> } {
  const clock = new VirtualClock();
  const log = captureLogger();
  const router = createRouter({
    providers: {
      gemini: { type: 'gemini', apiKey: GEMINI_KEY, baseURL: `${up.url}/v1beta`, timeoutMs: 60_000 },
      openai: { type: 'openai', apiKey: OPENAI_KEY, baseURL: `${up.url}/v1`, timeoutMs: 60_000 },
    },
    chains: { default: [`gemini:${MODEL}`, 'openai:gpt-4o-mini'], embeddings: ['gemini:gemini-embedding-001'] },
    retry: { baseDelayMs: 10, maxDelayMs: 40 },
    ...overrides,
  }, { clock, logger: log.logger, random: () => 0 });
  closers.push(() => router.close());
  const count = (path: string) => () => up.requests.filter((r) => r.path === path || (path === CHAT && r.path === STREAM)).length;
  return { router, clock, log, gemini: count(CHAT), openai: count(OPENAI_PATH) };
}

async function collect(iterable: AsyncIterable<StreamEvent>): Promise<StreamEvent[]> {
  const out: StreamEvent[] = [];
  for await (const event of iterable) out.push(event);
  return out;
}

describe('a chain gemini -> openai', () => {
  it('answers from Gemini when it is healthy', async () => {
    const { router } = setup();
    const res = await router.chat(ask());
    expect(res).toMatchObject({ provider: 'gemini', model: MODEL, text: 'Hello from Gemini', finishReason: 'stop', requestId: 'IZI2acSKMoWl0-kPmYj2yQc' });
  });

  it('waits on a short RetryInfo.retryDelay and retries Gemini', async () => {
    const { router, clock, gemini, openai } = setup();
    up.script(CHAT, { status: 429, body: geminiBodies.rateLimit('2s') });
    const res = await router.chat(ask());
    expect(res.provider).toBe('gemini');
    expect([gemini(), openai()]).toEqual([2, 0]);
    expect(clock.sleeps).toEqual([2000]);
    expect(res.attempts).toMatchObject([{ provider: 'gemini', ok: false, kind: 'rate_limited', status: 429 }, { provider: 'gemini', ok: true, waitedMs: 2000 }]);
  });

  it('falls through at once on a RetryInfo longer than maxInlineWaitMs, and later calls skip the cooling target', async () => {
    const { router, clock, gemini, openai } = setup();
    up.script(CHAT, { status: 429, body: geminiBodies.rateLimit('38s') });
    expect((await router.chat(ask())).provider).toBe('openai');
    expect(clock.sleeps).toEqual([]);
    const second = await router.chat(ask());
    expect(second.provider).toBe('openai');
    expect(second.attempts[0]).toMatchObject({ provider: 'gemini', skipped: true, kind: 'rate_limited' });
    expect([gemini(), openai()]).toEqual([1, 2]);
    await clock.advance(38_000);
    expect((await router.chat(ask())).provider).toBe('gemini');
  });

  it('parks Gemini on a per-day quota: one request, then none until quota.parkMs has passed', async () => {
    const { router, gemini, openai, clock, log } = setup({ quota: { parkMs: 600_000 } });
    const quota: unknown[] = [];
    router.on('quota', (e) => quota.push(e));
    up.script(CHAT, { status: 429, body: geminiBodies.perDayQuota });
    expect((await router.chat(ask())).provider).toBe('openai');
    expect((await router.chat(ask())).provider).toBe('openai');
    expect([gemini(), openai()]).toEqual([1, 2]);
    expect(quota).toHaveLength(1);
    expect(log.records().some((r) => r.level >= 50 && r.provider === 'gemini')).toBe(true);
    await clock.advance(600_000);
    expect((await router.chat(ask())).provider).toBe('gemini');
  });

  it('parks Gemini on FAILED_PRECONDITION (a region or billing it cannot fix by retrying)', async () => {
    const { router, gemini, openai } = setup();
    up.script(CHAT, { status: 400, body: geminiBodies.location });
    expect((await router.chat(ask())).provider).toBe('openai');
    expect((await router.chat(ask())).provider).toBe('openai');
    expect([gemini(), openai()]).toEqual([1, 2]);
  });

  it.each([
    ['500 INTERNAL', 500, geminiBodies.internal],
    ['503 UNAVAILABLE', 503, geminiBodies.overloaded],
    ['504 DEADLINE_EXCEEDED', 504, geminiBodies.deadline],
  ])('retries %s with backoff, then falls through to openai', async (_what, status, body) => {
    const { router, gemini, openai, clock } = setup({ retry: { maxAttempts: 2, baseDelayMs: 10, maxDelayMs: 40 } });
    up.script(CHAT, { status, body }, { status, body });
    const res = await router.chat(ask());
    expect(res.provider).toBe('openai');
    expect([gemini(), openai()]).toEqual([2, 1]);
    expect(clock.sleeps).toHaveLength(1);
    expect(res.attempts.map((a) => [a.provider, a.ok, a.kind])).toEqual([['gemini', false, 'server'], ['gemini', false, 'server'], ['openai', true, undefined]]);
  });

  it('throws a wrong key at once: no retry, no fall-through, the key in no log line, error or event', async () => {
    const { router, gemini, openai, log } = setup();
    const events: unknown[] = [];
    for (const name of ['attempt', 'retry', 'fallback', 'call'] as const) router.on(name, (e) => events.push(e));
    const echoed = { error: { ...geminiBodies.invalidKey.error, message: `API key not valid. Please pass a valid API key: ${GEMINI_KEY}` } };
    up.script(CHAT, { status: 400, body: echoed });
    const err = await rejectionOf(router.chat(ask()));
    expect(err).toMatchObject({ kind: 'auth', provider: 'gemini', status: 400 });
    expect([gemini(), openai()]).toEqual([1, 0]);
    expect(events.length).toBeGreaterThan(0);
    const everything = JSON.stringify([err.message, err.stack, err.toJSON(), err.cause, log.lines, events]);
    expect(everything).not.toContain(GEMINI_KEY);
    expect(up.requests[0]!.headers['x-goog-api-key']).toBe(GEMINI_KEY);
    expect(`${up.requests[0]!.path}?${up.requests[0]!.query}`).not.toContain(GEMINI_KEY);
  });

  it('hides a key echoed in a mid-stream error frame', async () => {
    const { router, log } = setup();
    const frame = { error: { ...geminiBodies.overloaded.error, message: `overloaded (key ${GEMINI_KEY})` } };
    up.script(STREAM, { sse: [geminiChunk([{ text: 'Partial' }]), `data: ${JSON.stringify(frame)}`] });
    const end = (await collect(router.stream(ask()))).at(-1);
    expect(end).toMatchObject({ type: 'interrupted', error: { kind: 'server' } });
    const error = (end as { error: Error }).error;
    expect(JSON.stringify([error.message, error.stack, (error as { cause?: unknown }).cause, log.lines])).not.toContain(GEMINI_KEY);
  });
});

describe('a stream from gemini', () => {
  it('commits at its first token: a 503 before it falls through to openai', async () => {
    const { router, gemini, openai } = setup({ retry: { maxAttempts: 1 } });
    up.script(STREAM, { status: 503, body: geminiBodies.overloaded });
    const events = await collect(router.stream(ask()));
    expect(events[0]).toMatchObject({ type: 'start', provider: 'openai', model: 'gpt-4o-mini' });
    expect(events.at(-1)).toMatchObject({ type: 'done', result: { provider: 'openai', text: 'Hello from OpenAI' } });
    expect([gemini(), openai()]).toEqual([1, 1]);
  });

  it('retries Gemini on an error frame that comes before any text', async () => {
    const { router, gemini, openai } = setup();
    up.script(STREAM, { sse: [`data: ${JSON.stringify(geminiBodies.overloaded)}`] });
    const events = await collect(router.stream(ask()));
    expect(events.at(-1)).toMatchObject({ type: 'done', result: { provider: 'gemini', text: 'Hello from Gemini' } });
    expect([gemini(), openai()]).toEqual([2, 0]);
  });

  it('ends interrupted, asking no one else, when cut after its first token', async () => {
    const { router, gemini, openai } = setup();
    up.script(STREAM, { sse: geminiSse(['Hello', ' from', ' Gemini']), cutAfter: 1 });
    const events = await collect(router.stream(ask()));
    expect(events.filter((e) => e.type === 'text').map((e) => (e as { delta: string }).delta)).toEqual(['Hello']);
    expect(events.at(-1)).toMatchObject({ type: 'interrupted', text: 'Hello', error: { kind: 'transport' } });
    expect([gemini(), openai()]).toEqual([1, 0]);
  });

  it('ends interrupted on an error frame after its first token', async () => {
    const { router, openai } = setup();
    up.script(STREAM, { sse: [geminiChunk([{ text: 'Partial' }]), `data: ${JSON.stringify(geminiBodies.overloaded)}`] });
    expect((await collect(router.stream(ask()))).at(-1)).toMatchObject({ type: 'interrupted', text: 'Partial', error: { kind: 'server', code: 'UNAVAILABLE' } });
    expect(openai()).toBe(0);
  });

  it('streams a whole answer with usage and the thought tokens in it', async () => {
    const { router } = setup();
    const end = (await collect(router.stream(ask()))).at(-1);
    expect(end).toMatchObject({ type: 'done', result: { provider: 'gemini', text: 'Hello from Gemini', usage: { inputTokens: 4, outputTokens: 28, reasoningTokens: 21 } } });
  });
});

describe('tools, structured output and embeddings on gemini', () => {
  const weather = { name: 'get_weather', description: 'Weather in a city', parameters: z.object({ city: z.string() }) };

  it('runs a tool loop: the call, the result as functionResponse, the answer', async () => {
    const { router } = setup();
    const call = { functionCall: { name: 'get_weather', args: { city: 'Paris' } }, thoughtSignature: 'CikBcsjafFK1' };
    up.script(CHAT, { status: 200, body: geminiResponse([call]) }, { status: 200, body: geminiText('It is 21C in Paris.') });
    const messages: Message[] = [{ role: 'user', content: 'Weather in Paris?' }];
    const first = await router.chat({ messages, tools: [weather] });
    expect(first).toMatchObject({ provider: 'gemini', finishReason: 'tool_calls', toolCalls: [{ name: 'get_weather', arguments: { city: 'Paris' } }] });
    messages.push(first.message, { role: 'tool', toolCallId: first.toolCalls[0]!.id, content: '21C' });
    const second = await router.chat({ messages, tools: [weather] });
    expect(second.text).toBe('It is 21C in Paris.');
    const sent = up.requests.filter((r) => r.path === CHAT)[1]!.body;
    expect(sent.contents).toEqual([
      { role: 'user', parts: [{ text: 'Weather in Paris?' }] },
      { role: 'model', parts: [call] },
      { role: 'user', parts: [{ functionResponse: { name: 'get_weather', response: { output: '21C' } } }] },
    ]);
    expect(sent.tools[0].functionDeclarations[0]).toMatchObject({ name: 'get_weather', parametersJsonSchema: { type: 'object', properties: { city: { type: 'string' } } } });
  });

  it('hands a Gemini tool turn to openai when Gemini falls over mid-loop, ids paired', async () => {
    const { router } = setup({ retry: { maxAttempts: 1 } });
    up.script(CHAT, { status: 200, body: geminiResponse([{ functionCall: { name: 'get_weather', args: { city: 'Paris' } } }]) }, { status: 503, body: geminiBodies.overloaded });
    const messages: Message[] = [{ role: 'user', content: 'Weather in Paris?' }];
    const first = await router.chat({ messages, tools: [weather] });
    messages.push(first.message, { role: 'tool', toolCallId: first.toolCalls[0]!.id, content: '21C' });
    expect((await router.chat({ messages, tools: [weather] })).provider).toBe('openai');
    const sent = up.requests.find((r) => r.path === OPENAI_PATH)!.body;
    expect(sent.messages[1].tool_calls[0].id).toBe(first.toolCalls[0]!.id);
    expect(sent.messages[2]).toEqual({ role: 'tool', tool_call_id: first.toolCalls[0]!.id, content: '21C' });
  });

  it('returns a typed object for a json_schema answer, sending the schema as responseJsonSchema', async () => {
    const { router } = setup();
    up.script(CHAT, { status: 200, body: geminiText('{"city":"Paris","tempC":21}') });
    const res = await router.chat({ ...ask('Weather as JSON'), responseFormat: { type: 'json_schema', schema: z.object({ city: z.string(), tempC: z.number() }) } });
    expect(res.object).toEqual({ city: 'Paris', tempC: 21 });
    expect(up.requests[0]!.body.generationConfig).toMatchObject({ responseMimeType: 'application/json', responseJsonSchema: { type: 'object', required: ['city', 'tempC'] } });
    up.script(CHAT, { status: 200, body: geminiText('{"city":"Paris"') });
    expect(await rejectionOf(router.chat({ ...ask('Weather as JSON'), responseFormat: { type: 'json_schema', schema: z.object({ city: z.string() }) } }))).toMatchObject({ kind: 'invalid_output', raw: '{"city":"Paris"' });
  });

  it('embeds 250 inputs in batches of at most 100, in input order, with outputDimensionality', async () => {
    const { router } = setup();
    up.otherwise(EMBED, (req) => ({ status: 200, body: geminiEmbeddings(req.body.requests.map((r: { content: { parts: Array<{ text: string }> } }) => [Number(r.content.parts[0]!.text.slice(4)), 1])) }));
    const input = Array.from({ length: 250 }, (_, i) => `doc ${i}`);
    const res = await router.embed({ input, dimensions: 2 });
    expect(res.embeddings.map((v) => v[0])).toEqual(input.map((_, i) => i));
    expect(res).toMatchObject({ provider: 'gemini', model: 'gemini-embedding-001' });
    expect(res.usage.inputTokens).toBeGreaterThan(0);
    const batches = up.requests.filter((r) => r.path === EMBED);
    expect(batches.map((r) => r.body.requests.length)).toEqual([100, 100, 50]);
    expect(batches[0]!.body.requests[0]).toEqual({ model: 'models/gemini-embedding-001', content: { parts: [{ text: 'doc 0' }] }, outputDimensionality: 2 });
  });
});
