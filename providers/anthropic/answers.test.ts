import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ANTHROPIC_PATH, anthropicMessage } from '../../test/support/fixtures.js';
import { startUpstream, type Upstream } from '../../test/support/upstream.js';
import { adapterFor, assembledToolCalls, drain } from '../test-support/adapter-harness.js';
import {
  anthropicEvent, anthropicMessageStart, anthropicNoArgToolSse, anthropicSseEnd, anthropicStockTool, anthropicThinkingBlocks,
  anthropicThinkingBlockSse, anthropicToolBlockSse, anthropicToolMessage,
} from '../test-support/wire.js';
import type { ProviderRequest } from '../types.js';

let upstream: Upstream;
beforeAll(async () => {
  upstream = await startUpstream();
});
beforeEach(() => upstream.reset());
afterAll(() => upstream.close());

const anthropic = () => adapterFor('anthropic', { type: 'anthropic', apiKey: 'sk-ant-test', baseURL: upstream.url });
const ask: ProviderRequest = { model: 'claude-opus-4-8', messages: [{ role: 'user', content: "What's the S&P 500 at today?" }], tools: [anthropicStockTool] };
const signal = () => ({ signal: new AbortController().signal });

describe('anthropic answers with tool calls, through the real SDK', () => {
  it('returns the text and the tool_use block as a tool call with its object input', async () => {
    upstream.script(ANTHROPIC_PATH, { status: 200, body: anthropicToolMessage() });
    const res = await anthropic().chat(ask, signal());
    expect(res).toMatchObject({ text: 'Let me look that up.', finishReason: 'tool_calls', usage: { inputTokens: 412, outputTokens: 61 } });
    expect(res.toolCalls).toEqual([{ id: 'toolu_01D7FLrfh4GYq7yT1ULFeyMV', name: 'get_stock_price', arguments: { ticker: '^GSPC' } }]);
    expect(res.providerParts).toBeUndefined();
  });

  it('returns a thinking turn\'s blocks verbatim as provider parts, and replays them on the next turn', async () => {
    upstream.script(ANTHROPIC_PATH, { status: 200, body: anthropicToolMessage(anthropicThinkingBlocks) }, { status: 200, body: anthropicMessage('925 / 5 = 185.') });
    const request = { ...ask, messages: [{ role: 'user' as const, content: 'What is 925 / 5?' }], reasoning: { effort: 'medium' as const } };
    const first = await anthropic().chat(request, signal());
    expect(first.providerParts).toEqual({ api: 'anthropic', blocks: anthropicThinkingBlocks });
    expect(first.toolCalls).toEqual([{ id: 'toolu_01X', name: 'divide', arguments: { a: 925, b: 5 } }]);
    const history = [...request.messages,
      { role: 'assistant' as const, content: first.text, toolCalls: first.toolCalls, providerParts: first.providerParts },
      { role: 'tool' as const, toolCallId: 'toolu_01X', content: '185' }];
    await anthropic().chat({ ...request, messages: history }, signal());
    const sent = upstream.requests[1]!.body;
    expect(sent.messages[1]).toEqual({ role: 'assistant', content: anthropicThinkingBlocks });
    expect(sent.messages[2]).toEqual({ role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_01X', content: '185' }] });
    expect(sent.thinking).toEqual({ type: 'adaptive' });
  });

  it('maps a refusal to content_filter, with the API\'s explanation when there is no text', async () => {
    const body = { ...anthropicToolMessage([], 'refusal'), stop_details: { type: 'refusal', category: 'cyber', explanation: 'This request asks for malware.' } };
    upstream.script(ANTHROPIC_PATH, { status: 200, body });
    expect(await anthropic().chat(ask, signal())).toMatchObject({ finishReason: 'content_filter', text: 'This request asks for malware.', toolCalls: [] });
  });

  it('returns no tool calls for an answer cut at max_tokens', async () => {
    upstream.script(ANTHROPIC_PATH, { status: 200, body: anthropicToolMessage(undefined, 'max_tokens') });
    expect(await anthropic().chat(ask, signal())).toMatchObject({ finishReason: 'length', toolCalls: [] });
  });

  it('counts cache reads and writes in inputTokens and reports them, with thinking tokens', async () => {
    upstream.script(ANTHROPIC_PATH, { status: 200, body: anthropicToolMessage(undefined, 'tool_use', {
      input_tokens: 50, cache_read_input_tokens: 1000, cache_creation_input_tokens: 200, output_tokens: 61, output_tokens_details: { thinking_tokens: 30 },
    }) });
    expect((await anthropic().chat(ask, signal())).usage).toEqual({ inputTokens: 1250, outputTokens: 61, cachedInputTokens: 1000, cacheWriteTokens: 200, reasoningTokens: 30 });
  });

  it('reports 5-minute and 1-hour cache writes apart, from cache_creation', async () => {
    upstream.script(ANTHROPIC_PATH, { status: 200, body: anthropicToolMessage(undefined, 'tool_use', {
      input_tokens: 50, cache_read_input_tokens: 0, cache_creation_input_tokens: 1500, output_tokens: 61,
      cache_creation: { ephemeral_5m_input_tokens: 500, ephemeral_1h_input_tokens: 1000 },
    }) });
    expect((await anthropic().chat(ask, signal())).usage).toEqual({ inputTokens: 1550, outputTokens: 61, cacheWriteTokens: 1500, cacheWrite5mTokens: 500, cacheWrite1hTokens: 1000 });
  });
});

describe('anthropic streams with tool calls, through the real SDK', () => {
  it('streams the real no-argument recording: text, then tool call 0 (content block 1) with "{}" arguments', async () => {
    upstream.script(ANTHROPIC_PATH, { sse: anthropicNoArgToolSse() });
    const { events, error } = await drain(anthropic(), ask);
    expect(error).toBeUndefined();
    expect(events.filter((e) => e.type === 'delta').map((e) => (e as { text: string }).text).join('')).toBe("I'll update the issue list for you.");
    expect(assembledToolCalls(events)).toEqual([{ index: 0, id: 'toolu_01QE1WLsSVp5hy5Q3GmGTmjP', name: 'updateIssueList', arguments: '{}', ended: true }]);
    expect(events.at(-1)).toEqual({ type: 'finish', finishReason: 'tool_calls', usage: { inputTokens: 565, outputTokens: 48 }, model: 'claude-sonnet-4-5-20250929' });
  });

  it('gives parallel tool_use blocks their own ordinals and arguments, each ended at its block stop', async () => {
    upstream.script(ANTHROPIC_PATH, { sse: [
      anthropicMessageStart(),
      anthropicEvent({ type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }),
      anthropicEvent({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: "I'll check." } }),
      anthropicEvent({ type: 'content_block_stop', index: 0 }),
      ...anthropicToolBlockSse(1, 'toolu_A', 'get_weather', ['', '{"city":', '"Paris"}']),
      ...anthropicToolBlockSse(2, 'toolu_B', 'get_time', ['']),
      ...anthropicSseEnd('tool_use'),
    ] });
    const { events } = await drain(anthropic(), ask);
    expect(assembledToolCalls(events)).toEqual([
      { index: 0, id: 'toolu_A', name: 'get_weather', arguments: '{"city":"Paris"}', ended: true },
      { index: 1, id: 'toolu_B', name: 'get_time', arguments: '{}', ended: true },
    ]);
    const endOfFirst = events.findIndex((e) => e.type === 'tool_call_end' && e.index === 0);
    const startOfSecond = events.findIndex((e) => e.type === 'tool_call_start' && e.index === 1);
    expect(endOfFirst).toBeLessThan(startOfSecond);
  });

  it('yields thinking as liveness only and finishes with the rebuilt blocks as provider parts', async () => {
    upstream.script(ANTHROPIC_PATH, { sse: [
      anthropicMessageStart(),
      ...anthropicThinkingBlockSse(0, ['I need to divide ', '925 by 5.'], 'EvQBCkYICxgCKkAx'),
      ...anthropicToolBlockSse(1, 'toolu_01X', 'divide', ['{"a": 925, ', '"b": 5}']),
      ...anthropicSseEnd('tool_use'),
    ] });
    const { events } = await drain(anthropic(), ask);
    expect(events.filter((e) => e.type === 'thinking').length).toBeGreaterThan(0);
    expect(events.some((e) => e.type === 'delta')).toBe(false);
    expect(events.at(-1)).toMatchObject({ type: 'finish', providerParts: { api: 'anthropic', blocks: [
      { type: 'thinking', thinking: 'I need to divide 925 by 5.', signature: 'EvQBCkYICxgCKkAx' },
      { type: 'tool_use', id: 'toolu_01X', name: 'divide', input: { a: 925, b: 5 } },
    ] } });
  });

  it('streams thinking text, its signature and a redacted block as thinking events numbered by thinking block', async () => {
    upstream.script(ANTHROPIC_PATH, { sse: [
      anthropicMessageStart(),
      ...anthropicThinkingBlockSse(0, ['I need to divide ', '925 by 5.'], 'EvQBCkYICxgCKkAx'),
      anthropicEvent({ type: 'content_block_start', index: 1, content_block: { type: 'redacted_thinking', data: 'EmwKAhgBEgy3va3pzix/LafPsn4aDFIT' } }),
      anthropicEvent({ type: 'content_block_stop', index: 1 }),
      ...anthropicToolBlockSse(2, 'toolu_01X', 'divide', ['{"a": 925, ', '"b": 5}']),
      ...anthropicSseEnd('tool_use'),
    ] });
    const { events } = await drain(anthropic(), ask);
    expect(events.filter((e) => e.type === 'thinking')).toEqual([
      { type: 'thinking' },
      { type: 'thinking', index: 0, delta: 'I need to divide ' },
      { type: 'thinking', index: 0, delta: '925 by 5.' },
      { type: 'thinking', index: 0, signature: 'EvQBCkYICxgCKkAx' },
      { type: 'thinking', index: 1, redacted: 'EmwKAhgBEgy3va3pzix/LafPsn4aDFIT' },
    ]);
    expect(events.at(-1)).toMatchObject({ type: 'finish', providerParts: { api: 'anthropic', blocks: [
      { type: 'thinking', thinking: 'I need to divide 925 by 5.', signature: 'EvQBCkYICxgCKkAx' },
      { type: 'redacted_thinking', data: 'EmwKAhgBEgy3va3pzix/LafPsn4aDFIT' },
      { type: 'tool_use', id: 'toolu_01X', name: 'divide', input: { a: 925, b: 5 } },
    ] } });
  });

  it('yields message_start\'s prompt counters as a usage event before any content', async () => {
    upstream.script(ANTHROPIC_PATH, { sse: [
      anthropicMessageStart({ input_tokens: 40, cache_creation_input_tokens: 60, cache_read_input_tokens: 1000, output_tokens: 1 }),
      anthropicEvent({ type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }),
      anthropicEvent({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'Hi' } }),
      anthropicEvent({ type: 'content_block_stop', index: 0 }),
      ...anthropicSseEnd('end_turn', { output_tokens: 9 }),
    ] });
    const { events } = await drain(anthropic(), ask);
    expect(events.map((e) => e.type)).toEqual(['open', 'usage', 'delta', 'finish']);
    expect(events[1]).toEqual({ type: 'usage', inputTokens: 1100, cachedInputTokens: 1000, cacheWriteTokens: 60 });
  });

  it('takes the cumulative cache counters of message_delta and counts them in inputTokens', async () => {
    upstream.script(ANTHROPIC_PATH, { sse: [
      anthropicMessageStart({ input_tokens: 40, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, output_tokens: 1 }),
      anthropicEvent({ type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }),
      anthropicEvent({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'Hi' } }),
      anthropicEvent({ type: 'content_block_stop', index: 0 }),
      ...anthropicSseEnd('end_turn', { input_tokens: 40, cache_read_input_tokens: 1000, cache_creation_input_tokens: 60, output_tokens: 9 }),
    ] });
    const { events } = await drain(anthropic(), ask);
    expect(events.at(-1)).toMatchObject({ type: 'finish', finishReason: 'stop', usage: { inputTokens: 1100, outputTokens: 9, cachedInputTokens: 1000, cacheWriteTokens: 60 } });
  });

  it('streams the split of cache writes from message_start, kept past message_delta', async () => {
    upstream.script(ANTHROPIC_PATH, { sse: [
      anthropicMessageStart({ input_tokens: 40, cache_creation_input_tokens: 300, cache_read_input_tokens: 0, cache_creation: { ephemeral_5m_input_tokens: 100, ephemeral_1h_input_tokens: 200 }, output_tokens: 1 }),
      anthropicEvent({ type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }),
      anthropicEvent({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'Hi' } }),
      anthropicEvent({ type: 'content_block_stop', index: 0 }),
      ...anthropicSseEnd('end_turn', { input_tokens: 40, cache_read_input_tokens: 0, cache_creation_input_tokens: 300, output_tokens: 9 }),
    ] });
    const { events } = await drain(anthropic(), ask);
    expect(events.at(-1)).toMatchObject({ type: 'finish', usage: { inputTokens: 340, outputTokens: 9, cacheWriteTokens: 300, cacheWrite5mTokens: 100, cacheWrite1hTokens: 200 } });
  });

  it('throws on a stream cut mid-arguments, never ending the call', async () => {
    upstream.script(ANTHROPIC_PATH, { sse: [anthropicMessageStart(), ...anthropicToolBlockSse(0, 'toolu_A', 'get_weather', ['{"city":', '"Par', 'is"}']), ...anthropicSseEnd('tool_use')], cutAfter: 3 });
    const { events, error } = await drain(anthropic(), ask);
    expect(error).toMatchObject({ kind: 'transport' });
    expect(events.some((e) => e.type === 'tool_call_start')).toBe(true);
    expect(events.some((e) => e.type === 'tool_call_end')).toBe(false);
  });

  it('streams a tool call whose input is given whole in content_block_start', async () => {
    upstream.script(ANTHROPIC_PATH, { sse: [
      anthropicMessageStart(),
      anthropicEvent({ type: 'content_block_start', index: 0, content_block: { type: 'tool_use', id: 'toolu_P', name: 'run', input: { code: 'print(1)' } } }),
      anthropicEvent({ type: 'content_block_stop', index: 0 }),
      ...anthropicSseEnd('tool_use'),
    ] });
    const { events } = await drain(anthropic(), ask);
    expect(assembledToolCalls(events)).toEqual([{ index: 0, id: 'toolu_P', name: 'run', arguments: '{"code":"print(1)"}', ended: true }]);
  });
});

describe('anthropic embeddings', () => {
  it('has no embed and declares no embeddings ceiling: Anthropic has no embeddings API', () => {
    const adapter = anthropic();
    expect(adapter.embed).toBeUndefined();
    expect(adapter.traits.maxEmbeddingInputs).toBeUndefined();
  });
});
