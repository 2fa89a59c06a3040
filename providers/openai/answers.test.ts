import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { openaiCompletion, OPENAI_PATH } from '../../test/support/fixtures.js';
import { startUpstream, type Upstream } from '../../test/support/upstream.js';
import { adapterFor, assembledToolCalls, drain, failureOf } from '../test-support/adapter-harness.js';
import {
  openaiFinishChunk, openaiParallelToolSse, openaiRefusal, openaiRoleChunk, openaiTextChunk, openaiToolChunk, openaiToolCompletion,
  openaiUsageChunk, openaiWeatherTool,
} from '../test-support/wire.js';
import type { ProviderRequest } from '../types.js';

let upstream: Upstream;
beforeAll(async () => {
  upstream = await startUpstream();
});
beforeEach(() => upstream.reset());
afterAll(() => upstream.close());

const openai = () => adapterFor('openai', { type: 'openai', apiKey: 'sk-test', baseURL: `${upstream.url}/v1` });
const ask: ProviderRequest = { model: 'gpt-4o-mini', messages: [{ role: 'user', content: "What's the weather like in Boston today?" }], tools: [openaiWeatherTool] };
const signal = () => ({ signal: new AbortController().signal });

describe('openai answers with tool calls, through the real SDK', () => {
  it('returns the spec example\'s tool call with its arguments parsed, no text and finishReason tool_calls', async () => {
    upstream.script(OPENAI_PATH, { status: 200, body: openaiToolCompletion() });
    const res = await openai().chat(ask, signal());
    expect(res).toMatchObject({ text: '', finishReason: 'tool_calls', usage: { inputTokens: 82, outputTokens: 17 } });
    expect(res.toolCalls).toEqual([{ id: 'call_abc123', name: 'get_current_weather', arguments: { location: 'Boston, MA' } }]);
  });

  it('reports tool_calls when a forced named tool ends with finish_reason stop', async () => {
    upstream.script(OPENAI_PATH, { status: 200, body: openaiToolCompletion(undefined, 'stop') });
    const res = await openai().chat({ ...ask, toolChoice: { name: 'get_current_weather' } }, signal());
    expect(res.finishReason).toBe('tool_calls');
    expect(upstream.requests[0]!.body.tool_choice).toEqual({ type: 'function', function: { name: 'get_current_weather' } });
  });

  it('returns two parallel calls in order', async () => {
    upstream.script(OPENAI_PATH, { status: 200, body: openaiToolCompletion([
      { id: 'call_1', name: 'get_current_weather', arguments: '{"location":"Boston"}' },
      { id: 'call_2', name: 'get_current_weather', arguments: '{"location":"Paris"}' },
    ]) });
    const res = await openai().chat(ask, signal());
    expect(res.toolCalls.map((c) => [c.id, c.arguments.location])).toEqual([['call_1', 'Boston'], ['call_2', 'Paris']]);
  });

  it('throws invalid_output with the raw arguments when they are not JSON, after exactly one request', async () => {
    upstream.script(OPENAI_PATH, { status: 200, body: openaiToolCompletion([{ id: 'call_1', name: 'get_current_weather', arguments: '{"location": "Bos' }]) });
    const err = await failureOf(openai(), ask);
    expect(err).toMatchObject({ kind: 'invalid_output', code: 'invalid_tool_arguments', raw: '{"location": "Bos', provider: 'openai' });
    expect(upstream.count(OPENAI_PATH)).toBe(1);
  });

  it('returns no tool calls for an answer cut at length: their arguments are cut too', async () => {
    upstream.script(OPENAI_PATH, { status: 200, body: openaiToolCompletion([{ id: 'call_1', name: 'get_current_weather', arguments: '{"loc' }], 'length') });
    const res = await openai().chat(ask, signal());
    expect(res).toMatchObject({ finishReason: 'length', toolCalls: [] });
  });

  it('sends a two-turn exchange back as the API expects it and reads the final answer', async () => {
    upstream.script(OPENAI_PATH, { status: 200, body: openaiToolCompletion() }, { status: 200, body: openaiCompletion("It's 22 °C in Boston.") });
    const first = await openai().chat(ask, signal());
    const history = [...ask.messages, { role: 'assistant' as const, content: null, toolCalls: first.toolCalls },
      { role: 'tool' as const, toolCallId: first.toolCalls[0]!.id, content: '{"temperature": 22, "unit": "celsius"}' }];
    const second = await openai().chat({ ...ask, messages: history }, signal());
    expect(second).toMatchObject({ text: "It's 22 °C in Boston.", finishReason: 'stop', toolCalls: [] });
    expect(upstream.requests[1]!.body.messages.slice(1)).toEqual([
      { role: 'assistant', content: null, tool_calls: [{ id: 'call_abc123', type: 'function', function: { name: 'get_current_weather', arguments: '{"location":"Boston, MA"}' } }] },
      { role: 'tool', tool_call_id: 'call_abc123', content: '{"temperature": 22, "unit": "celsius"}' },
    ]);
    expect(upstream.requests[1]!.body.tools).toHaveLength(1);
  });
});

describe('openai answers: refusals and usage', () => {
  it('maps a refusal to content_filter with the refusal text', async () => {
    upstream.script(OPENAI_PATH, { status: 200, body: openaiRefusal() });
    expect(await openai().chat(ask, signal())).toMatchObject({ text: "I can't help with that.", finishReason: 'content_filter', toolCalls: [] });
  });

  it('reports cached, cache-write and reasoning tokens, with cached tokens counted in inputTokens', async () => {
    const body = openaiCompletion('ok');
    Object.assign(body.usage, { prompt_tokens: 1200, completion_tokens: 300,
      prompt_tokens_details: { cached_tokens: 1024, audio_tokens: 0, cache_write_tokens: 100 },
      completion_tokens_details: { reasoning_tokens: 256, audio_tokens: 0, accepted_prediction_tokens: 0, rejected_prediction_tokens: 0 } });
    upstream.script(OPENAI_PATH, { status: 200, body });
    expect((await openai().chat(ask, signal())).usage).toEqual({ inputTokens: 1200, outputTokens: 300, cachedInputTokens: 1024, cacheWriteTokens: 100, reasoningTokens: 256 });
  });

  it('keeps a plain answer\'s usage to input and output when nothing was cached or reasoned', async () => {
    upstream.script(OPENAI_PATH, { status: 200, body: openaiCompletion('ok') });
    expect((await openai().chat({ ...ask, tools: undefined }, signal())).usage).toEqual({ inputTokens: 19, outputTokens: 10 });
  });
});

describe('openai streams with tool calls, through the real SDK', () => {
  it('streams two parallel calls keyed by their index, ending both at the finish, with usage', async () => {
    upstream.script(OPENAI_PATH, { sse: openaiParallelToolSse() });
    const { events, error } = await drain(openai(), ask);
    expect(error).toBeUndefined();
    expect(assembledToolCalls(events)).toEqual([
      { index: 0, id: 'call_9oOUGn7XVM1S9AdJeglwUv1Z', name: 'get_current_weather', arguments: '{"location":"Boston"}', ended: true },
      { index: 1, id: 'call_2', name: 'get_current_weather', arguments: '{"location":"Paris"}', ended: true },
    ]);
    const ends = events.flatMap((e, i) => (e.type === 'tool_call_end' ? [i] : []));
    const firstOfSecond = events.findIndex((e) => e.type === 'tool_call_start' && e.index === 1);
    expect(ends.every((i) => i > firstOfSecond)).toBe(true);
    expect(events.at(-1)).toEqual({ type: 'finish', finishReason: 'tool_calls', usage: { inputTokens: 82, outputTokens: 34 }, model: 'gpt-4o' });
  });

  it('finishes a forced tool\'s stream that says stop as tool_calls', async () => {
    upstream.script(OPENAI_PATH, { sse: openaiParallelToolSse('stop') });
    const { events } = await drain(openai(), ask);
    expect(events.at(-1)).toMatchObject({ type: 'finish', finishReason: 'tool_calls' });
  });

  it('gives a call that streamed no arguments "{}" before its end', async () => {
    upstream.script(OPENAI_PATH, { sse: [
      openaiToolChunk([{ index: 0, id: 'call_n', type: 'function', function: { name: 'now', arguments: '' } }]),
      openaiFinishChunk('tool_calls'), 'data: [DONE]',
    ] });
    const { events } = await drain(openai(), ask);
    expect(assembledToolCalls(events)).toEqual([{ index: 0, id: 'call_n', name: 'now', arguments: '{}', ended: true }]);
  });

  it('throws on a stream cut mid-arguments, having ended no call', async () => {
    upstream.script(OPENAI_PATH, { sse: openaiParallelToolSse(), cutAfter: 3 });
    const { events, error } = await drain(openai(), ask);
    expect(error).toMatchObject({ kind: 'transport' });
    expect(events.some((e) => e.type === 'tool_call_start')).toBe(true);
    expect(events.some((e) => e.type === 'tool_call_end' || e.type === 'finish')).toBe(false);
  });

  it('finishes at length without ending the cut calls', async () => {
    upstream.script(OPENAI_PATH, { sse: [
      openaiToolChunk([{ index: 0, id: 'call_1', type: 'function', function: { name: 'get_current_weather', arguments: '{"loc' } }]),
      openaiFinishChunk('length'), 'data: [DONE]',
    ] });
    const { events } = await drain(openai(), ask);
    expect(events.some((e) => e.type === 'tool_call_end')).toBe(false);
    expect(events.at(-1)).toMatchObject({ type: 'finish', finishReason: 'length' });
  });

  it('streams a refusal as text and finishes content_filter', async () => {
    const refusal = (r: string) => `data: ${JSON.stringify({ id: 'c', object: 'chat.completion.chunk', created: 1, model: 'gpt-4o', choices: [{ index: 0, delta: { refusal: r }, finish_reason: null }] })}`;
    upstream.script(OPENAI_PATH, { sse: [openaiRoleChunk(), refusal("I can't"), refusal(' help.'), openaiFinishChunk('stop'), 'data: [DONE]'] });
    const { events } = await drain(openai(), ask);
    expect(events.filter((e) => e.type === 'delta').map((e) => (e as { text: string }).text).join('')).toBe("I can't help.");
    expect(events.at(-1)).toMatchObject({ type: 'finish', finishReason: 'content_filter' });
  });

  it('reports cached and reasoning tokens from the usage chunk', async () => {
    upstream.script(OPENAI_PATH, { sse: [openaiRoleChunk(), openaiTextChunk('Hi'), openaiFinishChunk('stop'),
      openaiUsageChunk({ prompt_tokens: 2000, completion_tokens: 50, total_tokens: 2050, prompt_tokens_details: { cached_tokens: 1536 }, completion_tokens_details: { reasoning_tokens: 20 } }), 'data: [DONE]'] });
    const { events } = await drain(openai(), ask);
    expect(events.at(-1)).toMatchObject({ type: 'finish', usage: { inputTokens: 2000, outputTokens: 50, cachedInputTokens: 1536, reasoningTokens: 20 } });
  });

  it('yields reasoning text from a compatible server (vLLM reasoning_content) as thinking, never as text', async () => {
    const reasoning = (r: string) => `data: ${JSON.stringify({ id: 'c', object: 'chat.completion.chunk', created: 1, model: 'deepseek-r1', choices: [{ index: 0, delta: { reasoning_content: r }, finish_reason: null }] })}`;
    upstream.script(OPENAI_PATH, { sse: [openaiRoleChunk(), reasoning('Let me think'), reasoning('...'), openaiTextChunk('42'), openaiFinishChunk('stop'), 'data: [DONE]'] });
    const compatible = adapterFor('local', { type: 'openai-compatible', baseURL: `${upstream.url}/v1` });
    const { events } = await drain(compatible, ask);
    expect(events.map((e) => e.type)).toEqual(['open', 'thinking', 'thinking', 'delta', 'finish']);
  });

  it('yields nothing for role-only and empty deltas', async () => {
    upstream.script(OPENAI_PATH, { sse: [openaiRoleChunk(), openaiTextChunk(''), openaiTextChunk('Hi'), openaiFinishChunk('stop'), 'data: [DONE]'] });
    const { events } = await drain(openai(), ask);
    expect(events.map((e) => e.type)).toEqual(['open', 'delta', 'finish']);
  });
});
