import { describe, expect, it } from 'vitest';
import type { Message } from '../../src/types.js';
import type { ProviderRequest } from '../types.js';
import { openAIBody } from './adapter-body.js';
import { JSON_INSTRUCTION } from './response-format.js';

const user = (content: Message['content'] & string): Message => ({ role: 'user', content });
const base: ProviderRequest = { model: 'gpt-4o', messages: [user('What is the weather like in Boston today?')] };
const weather = {
  name: 'get_current_weather',
  description: 'Get the current weather in a given location',
  parameters: { type: 'object', properties: { location: { type: 'string' }, unit: { type: 'string', enum: ['celsius', 'fahrenheit'] } }, required: ['location'] },
};

describe('openai request: tools', () => {
  it('sends function tools with their JSON Schema, and no tool_choice or parallel_tool_calls unless asked', () => {
    const body = openAIBody({ ...base, tools: [weather] }, false);
    expect(body.tools).toEqual([{ type: 'function', function: weather }]);
    expect(body).not.toHaveProperty('tool_choice');
    expect(body).not.toHaveProperty('parallel_tool_calls');
  });

  it.each([
    ['auto', 'auto'], ['none', 'none'], ['required', 'required'],
    [{ name: 'get_current_weather' }, { type: 'function', function: { name: 'get_current_weather' } }],
  ] as const)('maps toolChoice %j to tool_choice %j', (choice, expected) => {
    expect(openAIBody({ ...base, tools: [weather], toolChoice: choice }, false).tool_choice).toEqual(expected);
  });

  it.each([true, false])('sends parallelToolCalls %s as parallel_tool_calls', (parallel) => {
    expect(openAIBody({ ...base, tools: [weather], parallelToolCalls: parallel }, false).parallel_tool_calls).toBe(parallel);
  });

  it('sends neither tool_choice nor parallel_tool_calls without tools (the API refuses them alone)', () => {
    const body = openAIBody({ ...base, toolChoice: 'required', parallelToolCalls: false }, false);
    expect(body).not.toHaveProperty('tools');
    expect(body).not.toHaveProperty('tool_choice');
    expect(body).not.toHaveProperty('parallel_tool_calls');
  });

  it('normalises a strict tool\'s schema the way strict mode requires', () => {
    const body = openAIBody({ ...base, tools: [{ ...weather, strict: true }] }, false);
    const fn = (body.tools![0] as any).function;
    expect(fn.strict).toBe(true);
    expect(fn.parameters).toMatchObject({ additionalProperties: false, required: ['location', 'unit'] });
  });
});

describe('openai request: the history', () => {
  const history: Message[] = [
    user("What's the weather like in Boston today?"),
    { role: 'assistant', content: '', toolCalls: [{ id: 'call_abc123', name: 'get_current_weather', arguments: { location: 'Boston, MA' } }],
      providerParts: { api: 'anthropic', blocks: [{ type: 'thinking', thinking: 'x', signature: 's' }] } },
    { role: 'tool', toolCallId: 'call_abc123', content: '{"temperature": 22, "unit": "celsius"}', isError: false },
  ];

  it('sends an assistant tool turn with content null and arguments as a JSON string, and drops Anthropic thinking', () => {
    const body = openAIBody({ ...base, messages: history, tools: [weather] }, false);
    expect(body.messages).toEqual([
      { role: 'user', content: "What's the weather like in Boston today?" },
      { role: 'assistant', content: null, tool_calls: [{ id: 'call_abc123', type: 'function', function: { name: 'get_current_weather', arguments: '{"location":"Boston, MA"}' } }] },
      { role: 'tool', tool_call_id: 'call_abc123', content: '{"temperature": 22, "unit": "celsius"}' },
    ]);
  });

  it('keeps an assistant turn\'s text next to its tool calls, and a text-only turn as text', () => {
    const body = openAIBody({ ...base, messages: [
      { role: 'assistant', content: 'Let me look.', toolCalls: [{ id: 'toolu_01', name: 'f', arguments: {} }] },
      { role: 'tool', toolCallId: 'toolu_01', content: 'done' },
      { role: 'assistant', content: null },
    ] }, false);
    expect(body.messages[0]).toMatchObject({ role: 'assistant', content: 'Let me look.', tool_calls: [{ id: 'toolu_01', function: { arguments: '{}' } }] });
    expect(body.messages[2]).toEqual({ role: 'assistant', content: '' });
  });

  it('shortens a tool-call id longer than OpenAI takes, identically on the call and its result', () => {
    const id = `toolu_${'a'.repeat(50)}`;
    const body = openAIBody({ ...base, messages: [
      { role: 'assistant', content: null, toolCalls: [{ id, name: 'f', arguments: {} }] },
      { role: 'tool', toolCallId: id, content: 'ok' },
    ] }, false);
    const sentId = (body.messages[0] as any).tool_calls[0].id;
    expect(sentId).toHaveLength(40);
    expect((body.messages[1] as any).tool_call_id).toBe(sentId);
  });

  it('sends developer as developer to OpenAI and as system to openai-compatible servers', () => {
    const messages: Message[] = [{ role: 'developer', content: 'Be terse.' }, { role: 'system', content: 'S' }, user('hi')];
    expect(openAIBody({ ...base, messages }, false).messages.slice(0, 2)).toEqual([{ role: 'developer', content: 'Be terse.' }, { role: 'system', content: 'S' }]);
    expect(openAIBody({ ...base, messages }, true).messages.slice(0, 2)).toEqual([{ role: 'system', content: 'Be terse.' }, { role: 'system', content: 'S' }]);
  });
});

describe('openai request: content parts', () => {
  it('maps text, https and data: images (with detail) and base64 PDFs', () => {
    const body = openAIBody({ ...base, messages: [{ role: 'user', content: [
      { type: 'text', text: 'Describe these.' },
      { type: 'image', url: 'https://example.com/cat.png', detail: 'low' },
      { type: 'image', url: 'data:image/png;base64,iVBORw0KGgo=' },
      { type: 'file', data: 'JVBERi0xLjQ=', mediaType: 'application/pdf', filename: 'report.pdf' },
      { type: 'file', data: 'JVBERi0xLjQ=', mediaType: 'application/pdf' },
    ] }] }, false);
    expect(body.messages[0]).toEqual({ role: 'user', content: [
      { type: 'text', text: 'Describe these.' },
      { type: 'image_url', image_url: { url: 'https://example.com/cat.png', detail: 'low' } },
      { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgo=' } },
      { type: 'file', file: { file_data: 'data:application/pdf;base64,JVBERi0xLjQ=', filename: 'report.pdf' } },
      { type: 'file', file: { file_data: 'data:application/pdf;base64,JVBERi0xLjQ=', filename: 'file.pdf' } },
    ] });
  });

  it('refuses a file type Chat Completions cannot take as unsupported (no request is sent), but lets a compatible server decide', () => {
    const request: ProviderRequest = { ...base, messages: [{ role: 'user', content: [{ type: 'file', data: 'aGk=', mediaType: 'text/csv' }] }] };
    expect(() => openAIBody(request, false)).toThrow(expect.objectContaining({ kind: 'unsupported' }));
    expect((openAIBody(request, true).messages[0] as any).content[0].file.file_data).toBe('data:text/csv;base64,aGk=');
  });

  it('refuses an image of a type no provider takes as invalid_request', () => {
    expect(() => openAIBody({ ...base, messages: [{ role: 'user', content: [{ type: 'image', url: 'data:image/tiff;base64,AA==' }] }] }, false))
      .toThrow(expect.objectContaining({ kind: 'invalid_request', code: 'invalid_image_type' }));
  });
});

describe('openai request: structured output', () => {
  const schema = { type: 'object', properties: { name: { type: 'string' }, email: { type: 'string' } }, required: ['name'] };

  it('sends json_schema with the schema normalised for strict mode', () => {
    const body = openAIBody({ ...base, responseFormat: { type: 'json_schema', name: 'contact', schema, strict: true } }, false);
    expect(body.response_format).toEqual({ type: 'json_schema', json_schema: { name: 'contact', strict: true,
      schema: { type: 'object', properties: { name: { type: 'string' }, email: { type: 'string' } }, required: ['name', 'email'], additionalProperties: false } } });
  });

  it('sends a non-strict schema as written', () => {
    const body = openAIBody({ ...base, responseFormat: { type: 'json_schema', name: 'contact', schema, strict: false } }, false);
    expect((body.response_format as any).json_schema).toEqual({ name: 'contact', schema, strict: false });
  });

  it('sends json as json_object, adding the word JSON the API requires only when no message has it', () => {
    const plain = openAIBody({ ...base, responseFormat: { type: 'json' } }, false);
    expect(plain.response_format).toEqual({ type: 'json_object' });
    expect(plain.messages[0]).toEqual({ role: 'system', content: JSON_INSTRUCTION });
    const asked = openAIBody({ ...base, messages: [user('Answer in json please')], responseFormat: { type: 'json' } }, false);
    expect(asked.messages).toEqual([{ role: 'user', content: 'Answer in json please' }]);
  });
});

describe('openai request: parameters', () => {
  const all: ProviderRequest = { ...base, maxTokens: 100, temperature: 0.2, topP: 0.9, stop: ['END'], seed: 7, user: 'u-1', reasoning: { effort: 'low' } };

  it('sends every parameter to a non-reasoning model, except reasoning_effort', () => {
    const body = openAIBody(all, false);
    expect(body).toMatchObject({ max_completion_tokens: 100, temperature: 0.2, top_p: 0.9, stop: ['END'], seed: 7, user: 'u-1' });
    expect(body).not.toHaveProperty('reasoning_effort');
    expect(body).not.toHaveProperty('max_tokens');
  });

  it('sends reasoning_effort to a reasoning model and drops temperature, top_p and stop, which it rejects', () => {
    const body = openAIBody({ ...all, model: 'o3' }, false);
    expect(body).toMatchObject({ max_completion_tokens: 100, seed: 7, user: 'u-1', reasoning_effort: 'low' });
    for (const key of ['temperature', 'top_p', 'stop']) expect(body).not.toHaveProperty(key);
  });

  it('sends everything as asked to an openai-compatible server, with max_tokens', () => {
    const body = openAIBody({ ...all, model: 'o3' }, true);
    expect(body).toMatchObject({ max_tokens: 100, temperature: 0.2, top_p: 0.9, stop: ['END'], seed: 7, user: 'u-1', reasoning_effort: 'low' });
    expect(body).not.toHaveProperty('max_completion_tokens');
  });

  it('merges extraBody last and verbatim, so it overrides what was mapped', () => {
    const body = openAIBody({ ...all, extraBody: { temperature: 1, service_tier: 'flex', metadata: { a: 'b' } } }, false);
    expect(body).toMatchObject({ temperature: 1, service_tier: 'flex', metadata: { a: 'b' }, top_p: 0.9 });
  });

  it('sends nothing it was not asked for', () => {
    expect(openAIBody(base, false)).toEqual({ model: 'gpt-4o', messages: [{ role: 'user', content: 'What is the weather like in Boston today?' }] });
  });
});
