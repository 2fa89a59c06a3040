import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { openAIChunker, type RouterStreamEvent } from '../../src/convert/index.js';
import { RouterError } from '../../src/errors.js';
import type { ChatResult } from '../../src/types.js';
import { adapterFor, assembledToolCalls, drain } from '../../providers/test-support/adapter-harness.js';
import { OPENAI_PATH } from '../support/fixtures.js';
import { startUpstream, type Upstream } from '../support/upstream.js';

const done = (overrides: Partial<ChatResult>): RouterStreamEvent => ({ type: 'done', result: {
  text: '', toolCalls: [], message: { role: 'assistant', content: null }, provider: 'anthropic', model: 'claude-sonnet-4-6',
  finishReason: 'tool_calls', usage: { inputTokens: 565, outputTokens: 48, cachedInputTokens: 500 }, attempts: [], latencyMs: 1, ...overrides,
} });

/** An Anthropic answer as the router streams it: text, then two parallel tool calls (the worked table of §2.4). */
const parallel: RouterStreamEvent[] = [
  { type: 'start', provider: 'anthropic', model: 'claude-sonnet-4-6' },
  { type: 'text', delta: "I'll check." },
  { type: 'tool_call_delta', index: 0, id: 'toolu_A', name: 'get_weather', argumentsDelta: '' },
  { type: 'tool_call_delta', index: 0, argumentsDelta: '{"city":"Paris"}' },
  { type: 'tool_call', toolCall: { id: 'toolu_A', name: 'get_weather', arguments: { city: 'Paris' } } },
  { type: 'tool_call_delta', index: 1, id: 'toolu_B', name: 'get_time', argumentsDelta: '{}' },
  { type: 'tool_call', toolCall: { id: 'toolu_B', name: 'get_time', arguments: {} } },
  done({ text: "I'll check." }),
];

const chunksOf = (events: RouterStreamEvent[], includeUsage = true) => {
  const chunker = openAIChunker({ id: 'chatcmpl-1', created: 1, includeUsage });
  return events.flatMap((e) => chunker.push(e));
};

describe('router stream events as OpenAI chunks', () => {
  it('sends a role chunk, text, each tool call with its own index and its first fragment complete, the finish, then usage', () => {
    const deltas = chunksOf(parallel).map((c) => ('choices' in c ? (c.choices[0]?.delta ?? { usage: c.usage }) : c));
    expect(deltas).toEqual([
      { role: 'assistant', content: '' },
      { content: "I'll check." },
      { tool_calls: [{ index: 0, id: 'toolu_A', type: 'function', function: { name: 'get_weather', arguments: '' } }] },
      { tool_calls: [{ index: 0, function: { arguments: '{"city":"Paris"}' } }] },
      { tool_calls: [{ index: 1, id: 'toolu_B', type: 'function', function: { name: 'get_time', arguments: '{}' } }] },
      {},
      { usage: { prompt_tokens: 565, completion_tokens: 48, total_tokens: 613, prompt_tokens_details: { cached_tokens: 500 }, completion_tokens_details: { reasoning_tokens: 0 } } },
    ]);
    const finish = chunksOf(parallel).find((c) => 'choices' in c && c.choices[0]?.finish_reason);
    expect(finish).toMatchObject({ id: 'chatcmpl-1', object: 'chat.completion.chunk', created: 1, model: 'claude-sonnet-4-6', choices: [{ finish_reason: 'tool_calls' }] });
  });

  it('sends no usage chunk unless asked', () => {
    expect(chunksOf(parallel, false).some((c) => 'choices' in c && c.choices.length === 0)).toBe(false);
  });

  it('sends a tool call that only arrives whole as one complete fragment with the next index', () => {
    const chunks = chunksOf([{ type: 'start', provider: 'p', model: 'm' }, { type: 'tool_call', toolCall: { id: 'c1', name: 'f', arguments: { a: 1 } } }, done({})]);
    expect((chunks[1] as OpenAI.ChatCompletionChunk).choices[0]!.delta.tool_calls).toEqual([{ index: 0, id: 'c1', type: 'function', function: { name: 'f', arguments: '{"a":1}' } }]);
  });

  it('ends an interrupted stream with an error frame, never a finish', () => {
    const error = new RouterError('transport', 'anthropic stream ended before message_stop');
    const chunks = chunksOf([{ type: 'start', provider: 'p', model: 'm' }, { type: 'text', delta: 'Hel' }, { type: 'interrupted', text: 'Hel', toolCalls: [], error }]);
    expect(chunks.at(-1)).toEqual({ error: { message: 'anthropic stream ended before message_stop', type: 'server_error', param: null, code: 'transport' } });
    expect(chunks.some((c) => 'choices' in c && c.choices[0]?.finish_reason)).toBe(false);
  });
});

describe('the chunks on the wire, read by the openai SDK', () => {
  let upstream: Upstream;
  beforeAll(async () => {
    upstream = await startUpstream();
  });
  beforeEach(() => upstream.reset());
  afterAll(() => upstream.close());
  const sse = (events: RouterStreamEvent[]) => [...chunksOf(events).map((c) => `data: ${JSON.stringify(c)}`), 'data: [DONE]'];

  it('satisfies the SDK\'s strict stream helper, which needs type "function" and a finish_reason', async () => {
    upstream.script(OPENAI_PATH, { sse: sse(parallel) });
    const client = new OpenAI({ apiKey: 'sk', baseURL: `${upstream.url}/v1`, maxRetries: 0 });
    const final = await client.chat.completions.stream({ model: 'default', messages: [{ role: 'user', content: 'x' }] }).finalChatCompletion();
    expect(final.choices[0]!.message.content).toBe("I'll check.");
    expect(final.choices[0]!.message.tool_calls?.map((c) => [(c as any).function.name, (c as any).function.arguments])).toEqual([['get_weather', '{"city":"Paris"}'], ['get_time', '{}']]);
    expect(final.choices[0]!.finish_reason).toBe('tool_calls');
  });

  it('streams back through the openai adapter as the same tool calls and usage', async () => {
    upstream.script(OPENAI_PATH, { sse: sse(parallel) });
    const adapter = adapterFor('gw', { type: 'openai-compatible', baseURL: `${upstream.url}/v1` });
    const { events, error } = await drain(adapter, { model: 'default', messages: [{ role: 'user', content: 'x' }] });
    expect(error).toBeUndefined();
    expect(assembledToolCalls(events).map((c) => [c.index, c.id, c.name, c.arguments, c.ended])).toEqual([[0, 'toolu_A', 'get_weather', '{"city":"Paris"}', true], [1, 'toolu_B', 'get_time', '{}', true]]);
    expect(events.at(-1)).toMatchObject({ type: 'finish', finishReason: 'tool_calls', usage: { inputTokens: 565, outputTokens: 48, cachedInputTokens: 500 } });
  });

  it('makes the SDK throw on an interrupted stream', async () => {
    const error = new RouterError('transport', 'cut');
    upstream.script(OPENAI_PATH, { sse: sse([{ type: 'start', provider: 'p', model: 'm' }, { type: 'text', delta: 'Hel' }, { type: 'interrupted', text: 'Hel', toolCalls: [], error }]) });
    const client = new OpenAI({ apiKey: 'sk', baseURL: `${upstream.url}/v1`, maxRetries: 0 });
    const stream = await client.chat.completions.create({ model: 'default', messages: [{ role: 'user', content: 'x' }], stream: true });
    await expect((async () => {
      for await (const _ of stream) { /* read until it throws */ }
    })()).rejects.toBeInstanceOf(OpenAI.APIError);
  });
});
