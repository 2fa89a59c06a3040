import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createRouter, type Router } from '../../../src/router.js';
import type { Message, StreamEvent } from '../../../src/index.js';
import { captureLogger } from '../../../test/support/capture-logger.js';
import { anthropicOk, openaiBodies } from '../../../test/support/fixtures.js';
import { startUpstream, type Upstream } from '../../../test/support/upstream.js';
import { VirtualClock } from '../../../src/testing/virtual-clock.js';
import {
  RESPONSES_PATH, functionCallItem, messageItem, reasoningItem, responseObject, responsesEvent, responsesTextSse, responsesUsageOf,
} from '../../test-support/responses-wire.js';

// The Responses API upstream through the real openai SDK and the whole router: what the upstream
// received on each turn, the commit point of a stream, structured output, usage, error classes.

const WEATHER = { name: 'get_weather', description: 'The weather in a city.', parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } };

let up: Upstream;
let router: Router;
beforeEach(async () => {
  up = await startUpstream();
  up.otherwise('/v1/messages', () => anthropicOk('from anthropic'));
  router = createRouter({
    providers: {
      openai: { type: 'openai', api: 'responses', apiKey: 'sk-responses-0123456789abcdef', baseURL: `${up.url}/v1`, timeoutMs: 60_000 },
      anthropic: { type: 'anthropic', apiKey: 'sk-ant-0123456789abcdef', baseURL: up.url, timeoutMs: 60_000 },
    },
    chains: { default: ['openai:gpt-5.4'], fallback: ['openai:gpt-5.4', 'anthropic:claude-sonnet-4-6'], 'anthropic-first': ['anthropic:claude-sonnet-4-6'] },
    retry: { maxAttempts: 2, baseDelayMs: 100, maxDelayMs: 400 },
  }, { logger: captureLogger().logger, clock: new VirtualClock(), random: () => 0 });
});
afterEach(async () => {
  await router.close();
  await up.close();
});

describe('responses api: a two-turn tool loop on a reasoning model', () => {
  it('replays the reasoning item, then the call, then its output, on turn two; the upstream stores nothing', async () => {
    const reasoning = reasoningItem();
    const call = functionCallItem('get_weather', '{"city":"Paris"}');
    up.script(RESPONSES_PATH,
      { status: 200, body: responseObject([reasoning, call], { usage: responsesUsageOf(80, 40, 0, 32) }) },
      { status: 200, body: responseObject([messageItem('It is 21 °C in Paris.')]) });
    const messages: Message[] = [{ role: 'system', content: 'Be brief.' }, { role: 'user', content: 'Weather in Paris?' }];

    const first = await router.chat({ messages, tools: [WEATHER], reasoning: { effort: 'low' } });
    expect(first).toMatchObject({ finishReason: 'tool_calls', toolCalls: [{ id: call.call_id, name: 'get_weather', arguments: { city: 'Paris' } }] });
    expect(first.usage).toEqual({ inputTokens: 80, outputTokens: 40, reasoningTokens: 32 });
    expect(first.message.providerParts).toEqual({ api: 'openai-responses', items: [reasoning, call] });

    messages.push(first.message, { role: 'tool', toolCallId: call.call_id, content: '{"tempC":21}' });
    const second = await router.chat({ messages, tools: [WEATHER], reasoning: { effort: 'low' } });
    expect(second.text).toBe('It is 21 °C in Paris.');

    const [turn1, turn2] = up.requests.map((r) => r.body);
    expect(turn1).toMatchObject({ instructions: 'Be brief.', store: false, include: ['reasoning.encrypted_content'], reasoning: { effort: 'low' } });
    expect(turn1.input).toEqual([{ role: 'user', content: 'Weather in Paris?' }]);
    expect(turn2.input).toEqual([
      { role: 'user', content: 'Weather in Paris?' },
      reasoning,
      call,
      { type: 'function_call_output', call_id: call.call_id, output: '{"tempC":21}' },
    ]);
    expect(turn2).toMatchObject({ store: false, tools: [{ type: 'function', name: 'get_weather' }] });
  });

  it('drops the reasoning items when the next turn goes to another provider', async () => {
    const reasoning = reasoningItem();
    const call = functionCallItem('get_weather', '{"city":"Paris"}');
    up.script(RESPONSES_PATH, { status: 200, body: responseObject([reasoning, call]) });
    const messages: Message[] = [{ role: 'user', content: 'Weather in Paris?' }];
    const first = await router.chat({ messages, tools: [WEATHER] });
    messages.push(first.message, { role: 'tool', toolCallId: call.call_id, content: '21' });
    await router.chat({ chain: 'anthropic-first', messages, tools: [WEATHER] });
    const sent = up.requests.find((r) => r.path === '/v1/messages')!.body;
    expect(JSON.stringify(sent)).not.toContain('encrypted_content');
    expect(JSON.stringify(sent)).not.toContain(reasoning.id);
    expect(sent.messages[1].content).toEqual([{ type: 'tool_use', id: call.call_id, name: 'get_weather', input: { city: 'Paris' } }]);
  });
});

describe('responses api: streams', () => {
  it('commits at the first text delta: a failure before it falls through, nothing after it does', async () => {
    up.script(RESPONSES_PATH, { status: 503, body: openaiBodies.serverIsOverloaded }, { sse: responsesTextSse(['Hel', 'lo']) });
    const events: StreamEvent[] = [];
    for await (const e of router.stream({ chain: 'fallback', messages: [{ role: 'user', content: 'hi' }] })) events.push(e);
    expect(events.map((e) => e.type)).toEqual(['start', 'text', 'text', 'done']);
    expect(events.at(-1)).toMatchObject({ type: 'done', result: { provider: 'openai', text: 'Hello', usage: { inputTokens: 17, outputTokens: 10 } } });

    // An error event after the first delta ends the stream as interrupted, with nothing sent elsewhere.
    up.script(RESPONSES_PATH, { sse: [...responsesTextSse(['Hel']).slice(0, 4), responsesEvent('error', { code: 'server_error', message: 'boom', param: null })] });
    const cut: StreamEvent[] = [];
    for await (const e of router.stream({ chain: 'fallback', messages: [{ role: 'user', content: 'hi' }] })) cut.push(e);
    expect(cut.at(-1)).toMatchObject({ type: 'interrupted', text: 'Hel', error: { kind: 'server' } });
    expect(up.count('/v1/messages')).toBe(0);
  });

  it('treats response.incomplete at max_output_tokens as length, with its usage', async () => {
    const frames = responsesTextSse(['Once upon']);
    frames[frames.length - 1] = responsesEvent('response.incomplete', { response: responseObject([messageItem('Once upon')], { status: 'incomplete', incomplete_details: { reason: 'max_output_tokens' }, usage: responsesUsageOf(10, 3) }) });
    up.script(RESPONSES_PATH, { sse: frames });
    let done: StreamEvent | undefined;
    for await (const e of router.stream({ messages: [{ role: 'user', content: 'story' }], maxTokens: 3 })) done = e;
    expect(done).toMatchObject({ type: 'done', result: { finishReason: 'length', text: 'Once upon', usage: { inputTokens: 10, outputTokens: 3 } } });
    // maxTokens is the visible answer's: gpt-5.4 reasons at its default (medium) effort, whose 8192-token allowance is added.
    expect(up.requests[0]!.body.max_output_tokens).toBe(3 + 8192);
  });
});

describe('responses api: structured output and usage', () => {
  it('sends text.format json_schema and parses the answer into result.object', async () => {
    up.script(RESPONSES_PATH, { status: 200, body: responseObject([messageItem('{"city":"Paris","tempC":21}')], { usage: responsesUsageOf(1200, 20, 1000) }) });
    const schema = { type: 'object', properties: { city: { type: 'string' }, tempC: { type: 'number' } }, required: ['city', 'tempC'], additionalProperties: false };
    const res = await router.chat({ messages: [{ role: 'user', content: 'Paris weather as JSON' }], responseFormat: { type: 'json_schema', name: 'weather', schema, strict: true } });
    expect(res.object).toEqual({ city: 'Paris', tempC: 21 });
    expect(res.usage).toEqual({ inputTokens: 1200, outputTokens: 20, cachedInputTokens: 1000 });
    expect(up.requests[0]!.body.text).toEqual({ format: { type: 'json_schema', name: 'weather', schema, strict: true } });
  });

  it('sends images and files as input_image and input_file parts', async () => {
    up.script(RESPONSES_PATH, { status: 200, body: responseObject([messageItem('A cat.')]) });
    await router.chat({ messages: [{ role: 'user', content: [{ type: 'text', text: 'What is this?' }, { type: 'image', url: 'https://example.com/cat.png', detail: 'low' }, { type: 'file', data: 'JVBERi0=', mediaType: 'application/pdf', filename: 'a.pdf' }] }] });
    expect(up.requests[0]!.body.input[0].content).toEqual([
      { type: 'input_text', text: 'What is this?' },
      { type: 'input_image', image_url: 'https://example.com/cat.png', detail: 'low' },
      { type: 'input_file', file_data: 'data:application/pdf;base64,JVBERi0=', filename: 'a.pdf' },
    ]);
  });
});

describe('responses api: errors map as on Chat Completions', () => {
  it.each([
    ['a 429 with retry-after waits on it and retries', { status: 429, headers: { 'retry-after': '2' }, body: openaiBodies.rateLimitRequests }, { ok: true, requests: 2 }],
    ['insufficient_quota parks and falls through', { status: 429, body: openaiBodies.insufficientQuota }, { ok: true, requests: 1, fellTo: 'anthropic' }],
    ['a 500 is retried, then falls through', { status: 500, body: openaiBodies.serverError }, { ok: true, requests: 2, fellTo: 'anthropic', twice: true }],
    ['a 400 context length is thrown at once', { status: 400, body: openaiBodies.contextLength }, { ok: false, requests: 1, kind: 'context_length' }],
    ['a 401 is thrown at once', { status: 401, body: openaiBodies.invalidApiKey }, { ok: false, requests: 1, kind: 'auth' }],
  ] as const)('%s', async (_what, reply, expected) => {
    up.script(RESPONSES_PATH, reply, ...('twice' in expected ? [reply] : []));
    up.otherwise(RESPONSES_PATH, () => ({ status: 200, body: responseObject([messageItem('ok')]) }));
    const outcome = await router.chat({ chain: 'fallback', messages: [{ role: 'user', content: 'hi' }] }).then((r) => r, (e: unknown) => e as { kind: string });
    expect(up.count(RESPONSES_PATH)).toBe(expected.requests);
    if (expected.ok) expect((outcome as { provider: string }).provider).toBe('fellTo' in expected ? expected.fellTo : 'openai');
    else expect(outcome).toMatchObject({ kind: expected.kind });
  });
});
