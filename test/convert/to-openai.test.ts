import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { fromOpenAI, toOpenAI } from '../../src/convert/index.js';
import type { ChatRequest, ChatResult } from '../../src/types.js';
import { openAIBody } from '../../providers/openai/adapter-body.js';
import { adapterFor } from '../../providers/test-support/adapter-harness.js';
import type { ProviderRequest } from '../../providers/types.js';
import { OPENAI_PATH } from '../support/fixtures.js';
import { startUpstream, type Upstream } from '../support/upstream.js';

const result = (overrides: Partial<ChatResult>): ChatResult => ({
  text: 'Hi there', toolCalls: [], message: { role: 'assistant', content: 'Hi there' }, provider: 'anthropic', model: 'claude-sonnet-4-6',
  finishReason: 'stop', usage: { inputTokens: 19, outputTokens: 10 }, attempts: [], latencyMs: 12, ...overrides,
});
const envelope = { id: 'chatcmpl-test', created: 1741569952 };

describe('toOpenAI', () => {
  it('turns a text answer into a ChatCompletion with usage details', () => {
    expect(toOpenAI(result({ usage: { inputTokens: 1200, outputTokens: 300, cachedInputTokens: 1024, reasoningTokens: 256 } }), envelope)).toEqual({
      id: 'chatcmpl-test', object: 'chat.completion', created: 1741569952, model: 'claude-sonnet-4-6',
      choices: [{ index: 0, message: { role: 'assistant', content: 'Hi there', refusal: null, annotations: [] }, logprobs: null, finish_reason: 'stop' }],
      usage: { prompt_tokens: 1200, completion_tokens: 300, total_tokens: 1500, prompt_tokens_details: { cached_tokens: 1024 }, completion_tokens_details: { reasoning_tokens: 256 } },
    });
  });

  it('sends a tool-only answer with content null and arguments as JSON strings', () => {
    const toolCalls = [{ id: 'toolu_1', name: 'get_weather', arguments: { city: 'Paris' } }, { id: 'toolu_2', name: 'now', arguments: {} }];
    const completion = toOpenAI(result({ text: '', toolCalls, finishReason: 'tool_calls' }), envelope);
    expect(completion.choices[0]).toEqual({ index: 0, logprobs: null, finish_reason: 'tool_calls', message: {
      role: 'assistant', content: null, refusal: null, annotations: [],
      tool_calls: [
        { id: 'toolu_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } },
        { id: 'toolu_2', type: 'function', function: { name: 'now', arguments: '{}' } },
      ],
    } });
  });

  it.each([
    ['length', 'length'], ['content_filter', 'content_filter'], ['other', 'stop'], ['stop', 'stop'],
  ] as const)('maps finishReason %s to finish_reason %s', (reason, expected) => {
    expect(toOpenAI(result({ finishReason: reason }), envelope).choices[0]!.finish_reason).toBe(expected);
  });

  it('puts a refusal\'s text in refusal, with content null', () => {
    expect(toOpenAI(result({ text: "I can't help with that.", finishReason: 'content_filter' }), envelope).choices[0]!.message)
      .toMatchObject({ content: null, refusal: "I can't help with that." });
  });

  it('names the model it is told to (a gateway\'s chain) and mints an id and time otherwise', () => {
    const completion = toOpenAI(result({}), { model: 'default' });
    expect(completion.model).toBe('default');
    expect(completion.id).toMatch(/^chatcmpl-[0-9a-f]{32}$/);
    expect(Number.isInteger(completion.created)).toBe(true);
  });
});

/** What the router hands an adapter for a request with JSON Schema parameters (it converts zod and fills defaults). */
function providerRequestOf(request: ChatRequest, model: string): ProviderRequest {
  const format = request.responseFormat;
  return {
    model,
    messages: request.messages,
    maxTokens: request.maxTokens, temperature: request.temperature, topP: request.topP, seed: request.seed, user: request.user,
    stop: typeof request.stop === 'string' ? [request.stop] : request.stop,
    tools: request.tools?.map((t) => ({ ...t, parameters: t.parameters as Record<string, unknown> })),
    toolChoice: request.toolChoice, parallelToolCalls: request.parallelToolCalls, reasoning: request.reasoning,
    responseFormat: format?.type === 'json_schema'
      ? { type: 'json_schema', name: format.name ?? 'response', schema: format.schema as Record<string, unknown>, strict: format.strict ?? false }
      : format,
    extraBody: request.providerOptions?.openai,
  };
}

describe('round trips', () => {
  it('sends an OpenAI request body, through fromOpenAI and the openai adapter, as it was written', () => {
    const body = {
      model: 'gpt-4o',
      messages: [
        { role: 'developer', content: 'Be terse.' },
        { role: 'user', content: [{ type: 'text', text: 'Weather here?' }, { type: 'image_url', image_url: { url: 'https://example.com/sky.jpg', detail: 'low' } }] },
        { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } }] },
        { role: 'tool', tool_call_id: 'call_1', content: '21 C' },
      ],
      tools: [{ type: 'function', function: { name: 'get_weather', description: 'Weather', parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } } }],
      tool_choice: 'auto', parallel_tool_calls: false,
      response_format: { type: 'json_schema', json_schema: { name: 'w', schema: { type: 'object', properties: { c: { type: 'number' } }, required: ['c'], additionalProperties: false }, strict: true } },
      stop: ['END'], top_p: 0.9, seed: 7, user: 'u-1', max_completion_tokens: 100, temperature: 0.2, frequency_penalty: 0.1,
    };
    const request = fromOpenAI(body);
    expect(openAIBody(providerRequestOf(request, body.model), false)).toEqual(body);
  });

  let upstream: Upstream;
  beforeAll(async () => {
    upstream = await startUpstream();
  });
  beforeEach(() => upstream.reset());
  afterAll(() => upstream.close());

  it.each<[string, Partial<ChatResult>]>([
    ['a text answer', { usage: { inputTokens: 1200, outputTokens: 30, cachedInputTokens: 1000, reasoningTokens: 12 } }],
    ['a tool-call answer', { text: '', toolCalls: [{ id: 'toolu_1', name: 'get_weather', arguments: { city: 'Paris', days: [1, 2] } }], finishReason: 'tool_calls' }],
    ['a refusal', { text: 'No.', finishReason: 'content_filter' }],
    ['an answer cut at length', { text: 'Once upon a', finishReason: 'length' }],
  ])('reads %s back the same through the openai SDK and adapter', async (_what, overrides) => {
    const original = result(overrides);
    upstream.script(OPENAI_PATH, { status: 200, body: toOpenAI(original, envelope) });
    const adapter = adapterFor('openai', { type: 'openai', apiKey: 'sk-test', baseURL: `${upstream.url}/v1` });
    const back = await adapter.chat({ model: 'gpt-4o', messages: [{ role: 'user', content: 'x' }] }, { signal: new AbortController().signal });
    expect({ text: back.text, toolCalls: back.toolCalls, finishReason: back.finishReason, usage: back.usage, model: back.model })
      .toEqual({ text: original.text, toolCalls: original.toolCalls, finishReason: original.finishReason, usage: original.usage, model: original.model });
  });

  it('appends the ChatCompletion\'s message to an OpenAI history that converts back to the result\'s message', () => {
    const original = result({ text: 'Checking.', toolCalls: [{ id: 'toolu_1', name: 'f', arguments: { a: 1 } }], finishReason: 'tool_calls',
      message: { role: 'assistant', content: 'Checking.', toolCalls: [{ id: 'toolu_1', name: 'f', arguments: { a: 1 } }] } });
    const history = [{ role: 'user', content: 'go' }, toOpenAI(original, envelope).choices[0]!.message];
    expect(fromOpenAI({ messages: history }).messages[1]).toEqual(original.message);
  });
});
