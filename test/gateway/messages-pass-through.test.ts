import Anthropic from '@anthropic-ai/sdk';
import { describe, expect, it } from 'vitest';
import { anthropicEvent as ev, anthropicMessageStart, anthropicSseEnd, anthropicThinkingBlockSse } from '../../providers/test-support/wire.js';
import type { CallEvent } from '../../src/observe/events.js';
import { ANTHROPIC_PATH, OPENAI_PATH, anthropic429Headers, anthropicBodies, anthropicSuccessHeaders } from '../support/fixtures.js';
import { anthropicOverloadedEvent } from '../support/sse.js';
import type { Upstream } from '../support/upstream.js';
import { upstreamPerTest } from '../support/upstream-per-test.js';
import { VirtualClock } from '../support/virtual-clock.js';
import { ANTHROPIC_KEY } from '../support/wire-router.js';
import { startHarness, xHeaders, type Harness } from './gateway-harness.js';

// POST /v1/messages on the pass-through path: a chain whose target is Anthropic gets the client's
// bytes (only `model` rewritten) and the client gets the upstream's, through the real Anthropic SDK
// against a real gateway and a loopback upstream; every decision (fall-through, spend, errors) stays.

let up: Upstream;
let h: Harness;
upstreamPerTest((u) => (up = u), () => h?.close());

// One cent a token, so a call's cost says which usage it was read from.
const CENT_A_TOKEN = { inputPerMTok: 10_000, outputPerMTok: 10_000 };
const CHAINS = {
  chains: { default: ['anthropic:claude-sonnet-4-6', 'openai:gpt-4o-mini'], 'anthropic-only': ['anthropic:claude-sonnet-4-6'], 'openai-only': ['openai:gpt-4o-mini'] },
  prices: { 'claude-sonnet-4-6': CENT_A_TOKEN, 'gpt-4o-mini': CENT_A_TOKEN },
  retry: { baseDelayMs: 1, maxDelayMs: 2, maxAttempts: 1 },
};
const BETA = 'interleaved-thinking-2025-05-14,context-management-2025-06-27';
const client = (headers: Record<string, string> = {}) => new Anthropic({ apiKey: 'sk-anything', baseURL: h.url, maxRetries: 0, defaultHeaders: headers });
const start = (passThrough = true) => startHarness(up, CHAINS as never, { passThrough }, new VirtualClock());
const calls = (harness: Harness) => {
  const seen: CallEvent[] = [];
  harness.router.on('call', (e) => seen.push(e));
  return seen;
};
/** The SSE body the loopback upstream writes for these events. */
const wire = (events: string[]) => events.map((e) => `${e}\n\n`).join('');
const failure = (p: Promise<unknown>) => p.then(() => { throw new Error('expected the request to fail'); }, (e: unknown) => e as InstanceType<typeof Anthropic.APIError>);

/** A Claude-Code-shaped turn: thinking on, a tool, breakpoints with ttl and scope, context_management. */
const params = (model: string, stream = false) => ({
  model, max_tokens: 2048, ...(stream ? { stream: true } : {}),
  thinking: { type: 'adaptive' },
  context_management: { edits: [{ type: 'clear_thinking_20251015', keep: 'all' }] },
  system: [{ type: 'text', text: 'You are Claude Code.', cache_control: { type: 'ephemeral', ttl: '1h' } }],
  tools: [{ name: 'Read', description: 'Read a file', input_schema: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] } }],
  messages: [{ role: 'user', content: [{ type: 'text', text: 'Read the README.', cache_control: { type: 'ephemeral' } }] }],
}) as unknown as Anthropic.MessageCreateParamsNonStreaming;

/** An answer with thinking, a signature, a tool call and every cache usage field. */
const message = {
  id: 'msg_01PassThrough', type: 'message', role: 'assistant', model: 'claude-sonnet-4-6',
  content: [
    { type: 'thinking', thinking: 'The user wants the README.', signature: 'EqQBCkYIBxgCKkBsig' },
    { type: 'redacted_thinking', data: 'EmwKAhgBEgy3va3pzix' },
    { type: 'tool_use', id: 'toolu_01Read', name: 'Read', input: { path: 'README.md' } },
  ],
  stop_reason: 'tool_use', stop_sequence: null,
  usage: { input_tokens: 12, cache_creation_input_tokens: 30, cache_read_input_tokens: 100, cache_creation: { ephemeral_5m_input_tokens: 0, ephemeral_1h_input_tokens: 30 }, output_tokens: 40, service_tier: 'standard' },
};

/** A streamed turn: message_start with cache usage, a thinking block with its signature, a ping, text, message_delta with the final usage. */
const streamed = [
  anthropicMessageStart({ input_tokens: 12, cache_creation_input_tokens: 30, cache_read_input_tokens: 100, cache_creation: { ephemeral_5m_input_tokens: 0, ephemeral_1h_input_tokens: 30 }, output_tokens: 1 }),
  ...anthropicThinkingBlockSse(0, ['The user wants', ' the README.'], 'EqQBCkYIBxgCKkBsig'),
  ev({ type: 'ping' }),
  ev({ type: 'content_block_start', index: 1, content_block: { type: 'text', text: '' } }),
  ev({ type: 'content_block_delta', index: 1, delta: { type: 'text_delta', text: 'Reading it.' } }),
  ev({ type: 'content_block_stop', index: 1 }),
  ...anthropicSseEnd('end_turn', { input_tokens: 12, cache_creation_input_tokens: 30, cache_read_input_tokens: 100, output_tokens: 40 }),
];

describe('Messages pass-through: an Anthropic target gets the client\'s bytes, the client the upstream\'s', () => {
  it('sends the body byte for byte but model, with anthropic-version and the client\'s anthropic-beta, and relays the answer as it came; spend from its usage', async () => {
    h = await start();
    up.script(ANTHROPIC_PATH, { status: 200, headers: anthropicSuccessHeaders, body: message });
    const seen = calls(h);
    const response = await client({ 'anthropic-beta': BETA }).messages.create(params('anthropic-only')).asResponse();
    expect(up.count(ANTHROPIC_PATH)).toBe(1);
    const sent = up.requests[0]!;
    expect(sent.text).toBe(JSON.stringify(params('claude-sonnet-4-6')));
    expect(sent.headers['anthropic-version']).toBe('2026-10-21');
    expect(sent.headers['anthropic-beta']).toBe(BETA);
    expect(sent.headers['x-api-key']).toBe(ANTHROPIC_KEY);
    expect(await response.text()).toBe(JSON.stringify(message));
    expect(xHeaders(response.headers)).toMatchObject({ 'x-switchyard-provider': 'anthropic', 'x-switchyard-model': 'claude-sonnet-4-6', 'x-switchyard-attempts': '1', 'x-switchyard-upstream-request-id': 'req_011CSLsW7mFqvHHnzrKdKjAE' });
    // 12 + 30 written + 100 read in, 40 out: 182 tokens at a cent each.
    expect(seen.map((e) => [e.outcome, e.usage, e.costUsd])).toEqual([['ok', { inputTokens: 142, outputTokens: 40, cachedInputTokens: 100, cacheWriteTokens: 30, cacheWrite5mTokens: 0, cacheWrite1hTokens: 30 }, 1.82]]);
  });

  it('relays a streamed answer\'s events as they came: thinking and signature deltas, pings, cache usage; the SDK accumulates them; spend from message_start and message_delta', async () => {
    h = await start();
    up.script(ANTHROPIC_PATH, { sse: streamed, headers: { 'request-id': 'req_stream_pass' } });
    const seen = calls(h);
    const response = await client({ 'anthropic-beta': BETA }).messages.create(params('anthropic-only', true) as never).asResponse();
    expect(await response.text()).toBe(wire(streamed));
    expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const sent = up.requests[0]!;
    expect(sent.text).toBe(JSON.stringify(params('claude-sonnet-4-6', true)));
    expect(sent.headers['anthropic-beta']).toBe(BETA);
    expect(sent.headers.accept).toBe('text/event-stream');
    expect(seen.map((e) => [e.outcome, e.usage, e.costUsd])).toEqual([['ok', { inputTokens: 142, outputTokens: 40, cachedInputTokens: 100, cacheWriteTokens: 30, cacheWrite5mTokens: 0, cacheWrite1hTokens: 30 }, 1.82]]);

    up.script(ANTHROPIC_PATH, { sse: streamed });
    const final = await client().messages.stream(params('anthropic-only')).finalMessage();
    expect(final.content).toEqual([{ type: 'thinking', thinking: 'The user wants the README.', signature: 'EqQBCkYIBxgCKkBsig' }, { type: 'text', text: 'Reading it.' }]);
    expect(final.usage).toMatchObject({ input_tokens: 12, cache_creation_input_tokens: 30, cache_read_input_tokens: 100, output_tokens: 40 });
    expect(up.count(ANTHROPIC_PATH)).toBe(2);
  });

  it('falls through on a 429 to the OpenAI target, which gets a translated request and no anthropic-beta', async () => {
    h = await start();
    up.script(ANTHROPIC_PATH, { status: 429, headers: anthropic429Headers, body: anthropicBodies.rateLimit });
    const { data, response } = await client({ 'anthropic-beta': BETA }).messages.create(params('default')).withResponse();
    expect(up.count(ANTHROPIC_PATH)).toBe(1);
    expect(up.count(OPENAI_PATH)).toBe(1);
    expect(up.requests[0]!.text).toBe(JSON.stringify(params('claude-sonnet-4-6')));
    expect(up.requests[0]!.headers['anthropic-beta']).toBe(BETA);
    const openai = up.requests[1]!;
    expect(openai.headers).not.toHaveProperty('anthropic-beta');
    expect(JSON.stringify(openai.headers)).not.toContain('interleaved-thinking');
    expect(openai.body).toMatchObject({ model: 'gpt-4o-mini', tools: [{ type: 'function', function: { name: 'Read' } }] });
    expect(openai.body).not.toHaveProperty('context_management');
    expect(response.headers.get('x-switchyard-provider')).toBe('openai');
    expect(data.id).toMatch(/^msg_/);
    expect(data.model).toBe('gpt-4o-mini');
  });

  it('sends a body the decision refuses (temperature, which the router drops) translated, anthropic-beta still on it; and every body with pass-through off', async () => {
    h = await start();
    const warm = Object.assign(params('anthropic-only'), { temperature: 0.3 });
    up.script(ANTHROPIC_PATH, { status: 200, body: message });
    const translated = await client({ 'anthropic-beta': BETA }).messages.create(warm);
    const sent = up.requests[0]!;
    expect(sent.text).not.toBe(JSON.stringify(Object.assign(params('claude-sonnet-4-6'), { temperature: 0.3 })));
    expect(sent.body).not.toHaveProperty('temperature');
    expect(sent.body).toMatchObject({ model: 'claude-sonnet-4-6', thinking: { type: 'adaptive' } });
    expect(sent.headers['anthropic-beta']).toBe(BETA);
    // The router's rendering of the same answer: its own id, the same blocks.
    expect(translated.id).not.toBe(message.id);
    expect(translated.content).toEqual(message.content);
    await h.close();

    h = await start(false);
    up.script(ANTHROPIC_PATH, { sse: streamed });
    const final = await client({ 'anthropic-beta': BETA }).messages.stream(params('anthropic-only')).finalMessage();
    expect(up.requests[1]!.text).not.toBe(JSON.stringify(params('claude-sonnet-4-6', true)));
    expect(up.requests[1]!.headers['anthropic-beta']).toBe(BETA);
    // Translated, the stream still carries the thinking block as Anthropic streams it (the body enables thinking).
    expect(final.content.map((b) => b.type)).toEqual(['thinking', 'text']);
  });

  it('answers an upstream 400 and 401 with the same /v1/messages error and decision as the translated path', async () => {
    const replies = async (passThrough: boolean) => {
      h = await start(passThrough);
      up.script(ANTHROPIC_PATH, { status: 400, body: anthropicBodies.invalidRequest }, { status: 401, body: anthropicBodies.authentication });
      const seen = calls(h);
      const bad = await failure(client().messages.create(params('anthropic-only')));
      const auth = await failure(client().messages.create(params('anthropic-only')));
      await h.close();
      // The gateway's request ids differ from gateway to gateway; all else must match.
      const reply = (e: InstanceType<typeof Anthropic.APIError>) => [e.status, Object.assign({}, e.error as object, { request_id: undefined }), e.headers?.get('x-switchyard-attempts')];
      return [reply(bad), reply(auth), seen.map((e) => [e.outcome, e.kind])];
    };
    const passed = await replies(true);
    expect(up.requests[0]!.text).toBe(JSON.stringify(params('claude-sonnet-4-6')));
    const translated = await replies(false);
    expect(passed).toEqual(translated);
    expect(passed[0]!.slice(0, 2)).toMatchObject([400, { type: 'error', error: { type: 'invalid_request_error' } }]);
    // The upstream refused the gateway's own key: the client's request is not at fault (the one status table).
    expect(passed[1]!.slice(0, 2)).toMatchObject([500, { type: 'error', error: { type: 'api_error' } }]);
    expect(passed[2]).toEqual([['error', 'bad_request'], ['error', 'auth']]);
  });

  it('ends a stream cut by an upstream error event after the commit with the gateway\'s error event, after exactly one upstream request', async () => {
    h = await start();
    // Cut after the first visible text (the commit point): thinking alone commits nothing.
    const head = streamed.slice(0, 9);
    up.script(ANTHROPIC_PATH, { sse: [...head, anthropicOverloadedEvent] });
    const response = await client().messages.create(params('default', true) as never).asResponse();
    const text = await response.text();
    expect(text.startsWith(wire(head))).toBe(true);
    expect(text.slice(wire(head).length)).toMatch(/^event: error\ndata: \{"type":"error","error":\{"type":"overloaded_error"/);
    expect(up.count(ANTHROPIC_PATH)).toBe(1);
    expect(up.count(OPENAI_PATH)).toBe(0);
  });
});
