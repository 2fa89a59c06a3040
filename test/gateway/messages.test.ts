import Anthropic from '@anthropic-ai/sdk';
import { describe, expect, it } from 'vitest';
import { anthropicThinkingBlocks, anthropicToolMessage, openaiParallelToolSse, openaiToolCompletion } from '../../providers/test-support/wire.js';
import { hashKey } from '../../src/gateway/index.js';
import { ANTHROPIC_PATH, OPENAI_PATH, anthropicBodies, openaiBodies, openaiCompletion } from '../support/fixtures.js';
import { anthropicSse, openaiSse } from '../support/sse.js';
import type { Upstream } from '../support/upstream.js';
import { upstreamPerTest } from '../support/upstream-per-test.js';
import { startHarness, type Harness } from './gateway-harness.js';

let up: Upstream;
let h: Harness;
upstreamPerTest((u) => (up = u), () => h?.close());

const CHAINS = { chains: { default: ['openai:gpt-4o-mini', 'anthropic:claude-sonnet-4-6'], 'openai-only': ['openai:gpt-4o-mini'], 'anthropic-only': ['anthropic:claude-sonnet-4-6'] } };
const client = (apiKey = 'sk-anything', maxRetries = 0) => new Anthropic({ apiKey, baseURL: h.url, maxRetries });
const hi: Anthropic.MessageParam[] = [{ role: 'user', content: 'Say hello' }];
const stock: Anthropic.Tool = { name: 'get_stock_price', description: 'Get the current stock price', input_schema: { type: 'object', properties: { ticker: { type: 'string' } }, required: ['ticker'] } };
const failure = (p: Promise<unknown>) => p.then(() => { throw new Error('expected the request to fail'); }, (e: unknown) => e as InstanceType<typeof Anthropic.APIError>);

describe('POST /v1/messages through the Anthropic SDK', () => {
  it('answers an OpenAI target in Anthropic\'s shape: system as blocks, the text, stop reason and usage', async () => {
    h = await startHarness(up, CHAINS);
    const { data, response } = await client().messages.create({
      model: 'openai-only', max_tokens: 100, system: [{ type: 'text', text: 'Be terse.', cache_control: { type: 'ephemeral' } }], messages: hi,
      metadata: { user_id: 'u-1' }, stop_sequences: ['END'],
    }).withResponse();
    expect(data).toMatchObject({ type: 'message', role: 'assistant', model: 'gpt-4o-mini', stop_reason: 'end_turn', content: [{ type: 'text', text: 'Hello! How can I assist you today?' }] });
    expect(data.id).toMatch(/^msg_/);
    expect(data.usage).toMatchObject({ input_tokens: 19, output_tokens: 10 });
    expect(response.headers.get('x-switchyard-provider')).toBe('openai');
    expect(up.count(OPENAI_PATH)).toBe(1);
    expect(up.requests[0]!.body).toMatchObject({
      model: 'gpt-4o-mini', max_completion_tokens: 100, user: 'u-1', stop: ['END'],
      messages: [{ role: 'system', content: 'Be terse.' }, { role: 'user', content: 'Say hello' }],
    });
  });

  it('says so in a header when the provider reported no usage (the wire has no "unknown", so its counters read 0)', async () => {
    h = await startHarness(up, CHAINS);
    const { usage: _none, ...bare } = openaiCompletion('no usage here');
    up.script(OPENAI_PATH, { status: 200, body: bare });
    const { data, response } = await client().messages.create({ model: 'openai-only', max_tokens: 10, messages: hi }).withResponse();
    expect(data.usage).toMatchObject({ input_tokens: 0, output_tokens: 0 });
    expect(response.headers.get('x-switchyard-usage')).toBe('unknown');
  });

  it('streams the Messages events the SDK accumulates: message_start, ping, blocks, message_delta, message_stop', async () => {
    h = await startHarness(up, CHAINS);
    up.script(OPENAI_PATH, { sse: openaiSse(['Hel', 'lo']) }, { sse: openaiSse(['Hel', 'lo']) });
    const final = await client().messages.stream({ model: 'openai-only', max_tokens: 100, messages: hi }).finalMessage();
    expect(final.content).toEqual([{ type: 'text', text: 'Hello'}]);
    expect(final.stop_reason).toBe('end_turn');
    expect(final.usage).toMatchObject({ input_tokens: 17, output_tokens: 10 });
    expect(up.requests[0]!.body.stream).toBe(true);

    // On the wire: each event named in an `event:` line, its `data:` repeating the type.
    const raw = await fetch(`${h.url}/v1/messages`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ model: 'openai-only', max_tokens: 100, messages: hi, stream: true }) });
    expect(raw.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const blocks = (await raw.text()).split('\n\n').filter(Boolean);
    const named = blocks.map((b) => [/^event: (\S+)/.exec(b)![1], JSON.parse(/\ndata: (.*)$/s.exec(b)![1]!).type]);
    expect(named.every(([event, type]) => event === type)).toBe(true);
    expect(named.map(([event]) => event)).toEqual(['message_start', 'ping', 'content_block_start', 'content_block_delta', 'content_block_delta', 'content_block_stop', 'message_delta', 'message_stop']);
  });

  it('runs a two-step tool loop against an OpenAI target: tool_use out, tool_result back as a tool message', async () => {
    h = await startHarness(up, CHAINS);
    up.script(OPENAI_PATH, { status: 200, body: openaiToolCompletion([{ id: 'call_abc123', name: 'get_stock_price', arguments: '{"ticker":"^GSPC"}' }]) });
    const first = await client().messages.create({ model: 'openai-only', max_tokens: 100, tools: [stock], tool_choice: { type: 'auto', disable_parallel_tool_use: true }, messages: hi });
    expect(first.stop_reason).toBe('tool_use');
    expect(first.content).toEqual([{ type: 'tool_use', id: 'call_abc123', name: 'get_stock_price', input: { ticker: '^GSPC' } }]);
    expect(up.requests[0]!.body).toMatchObject({ tool_choice: 'auto', parallel_tool_calls: false, tools: [{ type: 'function', function: { name: 'get_stock_price', parameters: stock.input_schema } }] });

    const second = await client().messages.create({
      model: 'openai-only', max_tokens: 100, tools: [stock],
      messages: [...hi, { role: 'assistant', content: first.content }, { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'call_abc123', content: [{ type: 'text', text: '259.75 USD' }] }, { type: 'text', text: 'And in EUR?' }] }],
    });
    expect(second.content[0]).toMatchObject({ type: 'text' });
    expect(up.requests[1]!.body.messages).toEqual([
      { role: 'user', content: 'Say hello' },
      { role: 'assistant', content: null, tool_calls: [{ id: 'call_abc123', type: 'function', function: { name: 'get_stock_price', arguments: '{"ticker":"^GSPC"}' } }] },
      { role: 'tool', tool_call_id: 'call_abc123', content: '259.75 USD' },
      { role: 'user', content: [{ type: 'text', text: 'And in EUR?' }] },
    ]);
  });

  it('streams parallel tool calls as tool_use blocks of their own, which the SDK assembles', async () => {
    h = await startHarness(up, CHAINS);
    up.script(OPENAI_PATH, { sse: openaiParallelToolSse() });
    const final = await client().messages.stream({ model: 'openai-only', max_tokens: 100, tools: [stock], messages: hi }).finalMessage();
    expect(final.stop_reason).toBe('tool_use');
    expect(final.content).toEqual([
      { type: 'tool_use', id: 'call_9oOUGn7XVM1S9AdJeglwUv1Z', name: 'get_current_weather', input: { location: 'Boston' } },
      { type: 'tool_use', id: 'call_2', name: 'get_current_weather', input: { location: 'Paris' } },
    ]);
  });

  it('hands an Anthropic target the body\'s blocks, thinking verbatim, and answers with its blocks', async () => {
    h = await startHarness(up, CHAINS);
    up.script(ANTHROPIC_PATH, { status: 200, body: anthropicToolMessage(anthropicThinkingBlocks) });
    const first = await client().messages.create({ model: 'anthropic-only', max_tokens: 2_000, thinking: { type: 'enabled', budget_tokens: 1_024 }, tools: [stock], messages: hi });
    expect(first.content.map((b) => b.type)).toEqual(['thinking', 'redacted_thinking', 'tool_use']);
    await client().messages.create({
      model: 'anthropic-only', max_tokens: 2_000, tools: [stock],
      messages: [...hi, { role: 'assistant', content: first.content }, { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_01X', content: '185' }] }],
    });
    const replayed = up.requests[1]!.body.messages[1];
    expect(replayed.role).toBe('assistant');
    expect(replayed.content.slice(0, 2)).toEqual(anthropicThinkingBlocks.slice(0, 2));
    expect(up.requests[1]!.body.messages[2]).toEqual({ role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_01X', content: '185' }] });
  });

  it('ends a stream cut after its first token with an error event the SDK throws on, never a message_stop', async () => {
    h = await startHarness(up, CHAINS);
    up.script(OPENAI_PATH, { sse: openaiSse(['Hel', 'lo']), cutAfter: 2 });
    const stream = client().messages.stream({ model: 'openai-only', max_tokens: 100, messages: hi });
    const err = await stream.finalMessage().then(() => undefined, (e: unknown) => e as Error);
    expect(err).toBeInstanceOf(Anthropic.APIError);
    expect(err!.message).toMatch(/overloaded_error|timeout_error/);
  });

  it('streams from an Anthropic target', async () => {
    h = await startHarness(up, CHAINS);
    up.script(ANTHROPIC_PATH, { sse: anthropicSse(['Hi', ' there']) });
    const final = await client().messages.stream({ model: 'anthropic-only', max_tokens: 100, messages: hi }).finalMessage();
    expect(final.content).toEqual([{ type: 'text', text: 'Hi there'}]);
    expect(final.usage.output_tokens).toBe(6);
  });
});

describe('POST /v1/messages: keys, errors and statuses in Anthropic\'s words', () => {
  const KEY = 'sk-gw-messages-0001';
  const keyed = { gateway: { keys: [{ keyHash: hashKey(KEY), tenant: 'web' }] } } as unknown as Record<string, never>;

  it('takes the key as x-api-key or as a bearer; without one, 401 authentication_error', async () => {
    h = await startHarness(up, { ...CHAINS, ...keyed });
    const viaHeader = await fetch(`${h.url}/v1/messages`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-api-key': KEY, 'anthropic-version': '2023-06-01' }, body: JSON.stringify({ model: 'openai-only', max_tokens: 10, messages: hi }) });
    expect(viaHeader.status).toBe(200);
    expect((await client(KEY).messages.create({ model: 'openai-only', max_tokens: 10, messages: hi })).type).toBe('message');
    const none = await fetch(`${h.url}/v1/messages`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ model: 'openai-only', max_tokens: 10, messages: hi }) });
    expect(none.status).toBe(401);
    expect(await none.json()).toEqual({ type: 'error', error: { type: 'authentication_error', message: 'no API key: send x-api-key: <key> or Authorization: Bearer <key>' }, request_id: none.headers.get('x-request-id') });
    const err = await failure(client('sk-wrong').messages.create({ model: 'openai-only', max_tokens: 10, messages: hi }));
    expect(err).toBeInstanceOf(Anthropic.AuthenticationError);
    expect(up.count()).toBe(2);
  });

  it.each<[string, Record<string, unknown>, string]>([
    ['temperature "hot"', { temperature: 'hot' }, 'temperature'],
    ['max_tokens -5', { max_tokens: -5 }, 'max_tokens'],
    ['a server tool', { tools: [{ type: 'web_search_20250305', name: 'web_search' }] }, 'tools[0].type'],
    ['an unknown field', { container: 'c-1' }, 'container'],
    ['a tool_result answering no call', { messages: [{ role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_x', content: 'r' }] }] }, 'messages[0].content[0].tool_use_id'],
    ['a block of no known type', { messages: [{ role: 'user', content: [{ type: 'audio', data: 'x' }] }] }, 'messages[0].content[0]'],
  ])('refuses %s with 400 invalid_request_error naming the field, sending nothing', async (_what, fields, param) => {
    h = await startHarness(up, CHAINS);
    const res = await fetch(`${h.url}/v1/messages`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ model: 'default', max_tokens: 10, messages: hi, ...fields }) });
    const body = await res.json() as { type: string; error: { type: string; message: string } };
    expect([res.status, body.type, body.error.type]).toEqual([400, 'error', 'invalid_request_error']);
    expect(body.error.message.startsWith(param) || body.error.message.includes(` ${param}:`)).toBe(true);
    expect(body.error.message).not.toContain('\n');
    expect(up.count()).toBe(0);
  });

  it('answers a chain down with 5xx 529 overloaded_error, and one every target of which is throttled 429 rate_limit_error', async () => {
    h = await startHarness(up, { ...CHAINS, retry: { baseDelayMs: 1, maxDelayMs: 2, maxAttempts: 1 } });
    up.otherwise(OPENAI_PATH, () => ({ status: 503, body: openaiBodies.overloaded503 }));
    up.otherwise(ANTHROPIC_PATH, () => ({ status: 529, body: anthropicBodies.overloaded }));
    const down = await failure(client().messages.create({ model: 'default', max_tokens: 10, messages: hi }));
    expect([down.status, (down.error as { error?: { type?: string } }).error?.type]).toEqual([529, 'overloaded_error']);

    up.otherwise(OPENAI_PATH, () => ({ status: 429, headers: { 'retry-after-ms': '20000' }, body: openaiBodies.rateLimitRequests }));
    up.otherwise(ANTHROPIC_PATH, () => ({ status: 429, headers: { 'retry-after': '30' }, body: anthropicBodies.rateLimit }));
    const throttled = await failure(client().messages.create({ model: 'default', max_tokens: 10, messages: hi }));
    expect(throttled).toBeInstanceOf(Anthropic.RateLimitError);
    expect((throttled.error as { error?: { type?: string } }).error?.type).toBe('rate_limit_error');
    expect(throttled.headers?.get('retry-after')).toBe('20');
  });

  it('answers bad JSON and a body over the limit in Anthropic\'s envelope too', async () => {
    h = await startHarness(up, CHAINS, { bodyLimitBytes: 1_000 });
    const bad = await fetch(`${h.url}/v1/messages`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"model": ' });
    expect([bad.status, ((await bad.json()) as { error: { type: string } }).error.type]).toEqual([400, 'invalid_request_error']);
    const big = await fetch(`${h.url}/v1/messages`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ model: 'default', max_tokens: 5, messages: [{ role: 'user', content: 'x'.repeat(2_000) }] }) });
    expect([big.status, ((await big.json()) as { type: string; error: { type: string } }).error.type]).toEqual([413, 'request_too_large']);
    expect(up.count()).toBe(0);
  });

  it('answers a stream whose chain is down before its first token as an ordinary 529, no event stream', async () => {
    h = await startHarness(up, { ...CHAINS, retry: { baseDelayMs: 1, maxDelayMs: 2, maxAttempts: 1 } });
    up.otherwise(OPENAI_PATH, () => ({ status: 503, body: openaiBodies.overloaded503 }));
    const err = await failure(client().messages.stream({ model: 'openai-only', max_tokens: 10, messages: hi }).finalMessage());
    expect(err.status).toBe(529);
    expect(err.headers?.get('content-type')).toMatch(/^application\/json/);
  });

  it('answers an unknown chain 404 not_found_error', async () => {
    h = await startHarness(up, CHAINS);
    const err = await failure(client().messages.create({ model: 'nope', max_tokens: 10, messages: hi }));
    expect(err).toBeInstanceOf(Anthropic.NotFoundError);
  });
});

describe('POST /v1/messages/count_tokens', () => {
  it('estimates input tokens for the system, messages and tools, sending nothing', async () => {
    h = await startHarness(up, CHAINS);
    const small = await client().messages.countTokens({ model: 'default', messages: hi });
    const more = await client().messages.countTokens({ model: 'default', system: 'You are a careful assistant who answers in full sentences.', tools: [stock], messages: hi });
    expect(small.input_tokens).toBeGreaterThan(0);
    expect(more.input_tokens).toBeGreaterThan(small.input_tokens + 20);
    expect(up.count()).toBe(0);
  });
});
