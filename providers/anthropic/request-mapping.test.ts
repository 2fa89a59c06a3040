import { describe, expect, it } from 'vitest';
import type { Message } from '../../src/types.js';
import type { ProviderRequest } from '../types.js';
import { anthropicBody } from './adapter-body.js';
import { JSON_INSTRUCTION } from './output-config.js';

const base: ProviderRequest = { model: 'claude-sonnet-4-6', messages: [{ role: 'user', content: "What's the S&P 500 at today?" }] };
const stock = { name: 'get_stock_price', description: 'Get the current stock price for a given ticker symbol.', parameters: { type: 'object', properties: { ticker: { type: 'string' } }, required: ['ticker'] } };

describe('anthropic request: tools', () => {
  it('sends tools with input_schema and no tool_choice unless asked', () => {
    const body = anthropicBody({ ...base, tools: [stock] });
    expect(body.tools).toEqual([{ name: 'get_stock_price', description: stock.description, input_schema: stock.parameters }]);
    expect(body).not.toHaveProperty('tool_choice');
  });

  it.each([
    ['auto', undefined, { type: 'auto' }],
    ['none', undefined, { type: 'none' }],
    ['required', undefined, { type: 'any' }],
    [{ name: 'get_stock_price' }, undefined, { type: 'tool', name: 'get_stock_price' }],
    ['auto', false, { type: 'auto', disable_parallel_tool_use: true }],
    ['required', false, { type: 'any', disable_parallel_tool_use: true }],
    [{ name: 'get_stock_price' }, false, { type: 'tool', name: 'get_stock_price', disable_parallel_tool_use: true }],
    [undefined, false, { type: 'auto', disable_parallel_tool_use: true }],
    ['none', false, { type: 'none' }],
    ['auto', true, { type: 'auto' }],
  ] as const)('maps toolChoice %j with parallelToolCalls %s to %j', (choice, parallel, expected) => {
    expect(anthropicBody({ ...base, tools: [stock], toolChoice: choice as any, parallelToolCalls: parallel }).tool_choice).toEqual(expected);
  });

  it('closes a strict tool\'s schema and sends its strict flag', () => {
    const tool = anthropicBody({ ...base, tools: [{ ...stock, strict: true }] }).tools![0] as any;
    expect(tool).toMatchObject({ strict: true, input_schema: { additionalProperties: false, required: ['ticker'] } });
  });

  it('sends stand-in tools with tool_choice none when the history holds tool blocks but the request no tools', () => {
    const body = anthropicBody({ ...base, messages: [
      ...base.messages,
      { role: 'assistant', content: null, toolCalls: [{ id: 'call_1', name: 'get_stock_price', arguments: { ticker: '^GSPC' } }] },
      { role: 'tool', toolCallId: 'call_1', content: '259.75 USD' },
    ] });
    expect(body.tools).toEqual([{ name: 'get_stock_price', description: expect.any(String), input_schema: { type: 'object', properties: {} } }]);
    expect(body.tool_choice).toEqual({ type: 'none' });
  });
});

describe('anthropic request: the history', () => {
  it('turns an OpenAI tool turn into tool_use blocks with object input and no empty text block, and its results into one user message', () => {
    const body = anthropicBody({ ...base, tools: [stock], messages: [
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'Prices?' },
      { role: 'assistant', content: '', toolCalls: [
        { id: 'call_a', name: 'get_stock_price', arguments: { ticker: 'AAPL' } },
        { id: 'call_b', name: 'get_stock_price', arguments: { ticker: 'MSFT' } },
      ] },
      { role: 'tool', toolCallId: 'call_a', content: '190 USD' },
      { role: 'tool', toolCallId: 'call_b', content: 'no such ticker', isError: true },
      { role: 'user', content: 'And in euros?' },
    ] });
    expect(body.system).toBe('Be brief.');
    expect(body.messages).toEqual([
      { role: 'user', content: 'Prices?' },
      { role: 'assistant', content: [
        { type: 'tool_use', id: 'call_a', name: 'get_stock_price', input: { ticker: 'AAPL' } },
        { type: 'tool_use', id: 'call_b', name: 'get_stock_price', input: { ticker: 'MSFT' } },
      ] },
      { role: 'user', content: [
        { type: 'tool_result', tool_use_id: 'call_a', content: '190 USD' },
        { type: 'tool_result', tool_use_id: 'call_b', content: 'no such ticker', is_error: true },
        { type: 'text', text: 'And in euros?' },
      ] },
    ]);
  });

  it('sanitises a tool-call id Anthropic refuses identically on the tool_use and its tool_result', () => {
    const body = anthropicBody({ ...base, tools: [stock], messages: [
      { role: 'assistant', content: 'Checking.', toolCalls: [{ id: 'functions.get_stock_price:0', name: 'get_stock_price', arguments: {} }] },
      { role: 'tool', toolCallId: 'functions.get_stock_price:0', content: 'ok' },
    ] });
    const use = (body.messages[0]!.content as any[])[1];
    const result = (body.messages[1]!.content as any[])[0];
    expect(use.id).toMatch(/^[a-zA-Z0-9_-]+$/);
    expect(result.tool_use_id).toBe(use.id);
    expect((body.messages[0]!.content as any[])[0]).toEqual({ type: 'text', text: 'Checking.' });
  });

  it('replays an Anthropic turn\'s blocks verbatim, thinking included', () => {
    const blocks = [
      { type: 'thinking', thinking: 'I need to divide 925 by 5.', signature: 'EvQBCkYICxgCKkAx' },
      { type: 'tool_use', id: 'toolu_01X', name: 'divide', input: { a: 925, b: 5 }, caller: { type: 'direct' } },
    ];
    const body = anthropicBody({ ...base, messages: [
      { role: 'user', content: 'What is 925 / 5?' },
      { role: 'assistant', content: '', toolCalls: [{ id: 'toolu_01X', name: 'divide', arguments: { a: 925, b: 5 } }], providerParts: { api: 'anthropic', blocks } },
      { role: 'tool', toolCallId: 'toolu_01X', content: '185' },
    ] });
    expect(body.messages[1]).toEqual({ role: 'assistant', content: blocks });
    expect(body.tools?.map((t: any) => t.name)).toEqual(['divide']);
  });

  it('hoists system and developer messages to system, joined in order', () => {
    const body = anthropicBody({ ...base, messages: [{ role: 'developer', content: 'A' }, { role: 'user', content: 'x' }, { role: 'system', content: 'B' }] });
    expect(body.system).toBe('A\n\nB');
    expect(body.messages).toEqual([{ role: 'user', content: 'x' }]);
  });

  it('leaves out an assistant turn with nothing in it', () => {
    const body = anthropicBody({ ...base, messages: [{ role: 'user', content: 'a' }, { role: 'assistant', content: '' }, { role: 'user', content: 'b' }] });
    expect(body.messages).toEqual([{ role: 'user', content: 'a' }, { role: 'user', content: 'b' }]);
  });
});

describe('anthropic request: content parts', () => {
  it('maps text, url and base64 images, PDFs and text files to blocks, dropping empty text', () => {
    const body = anthropicBody({ ...base, messages: [{ role: 'user', content: [
      { type: 'text', text: 'Describe these.' },
      { type: 'text', text: '' },
      { type: 'image', url: 'https://example.com/cat.png', detail: 'high' },
      { type: 'image', url: 'data:image/webp;base64,UklGRg==' },
      { type: 'file', data: 'JVBERi0xLjQ=', mediaType: 'application/pdf', filename: 'report.pdf' },
      { type: 'file', data: Buffer.from('hello').toString('base64'), mediaType: 'text/plain' },
    ] }] });
    expect(body.messages[0]!.content).toEqual([
      { type: 'text', text: 'Describe these.' },
      { type: 'image', source: { type: 'url', url: 'https://example.com/cat.png' } },
      { type: 'image', source: { type: 'base64', media_type: 'image/webp', data: 'UklGRg==' } },
      { type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: 'JVBERi0xLjQ=' }, title: 'report.pdf' },
      { type: 'document', source: { type: 'text', media_type: 'text/plain', data: 'hello' } },
    ]);
  });

  it('refuses a file type Anthropic documents cannot be as unsupported', () => {
    expect(() => anthropicBody({ ...base, messages: [{ role: 'user', content: [{ type: 'file', data: 'aGk=', mediaType: 'application/zip' }] }] }))
      .toThrow(expect.objectContaining({ kind: 'unsupported' }));
  });
});

describe('anthropic request: structured output and reasoning', () => {
  const schema = { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] };

  it('sends a json_schema as the native output_config.format, closed, without name or strict', () => {
    const body = anthropicBody({ ...base, responseFormat: { type: 'json_schema', name: 'contact', schema, strict: true } });
    expect(body.output_config).toEqual({ format: { type: 'json_schema', schema: { ...schema, additionalProperties: false } } });
  });

  it('sends json without a schema as no constraint plus an instruction in the system prompt', () => {
    const body = anthropicBody({ ...base, messages: [{ role: 'system', content: 'Be brief.' }, ...base.messages], responseFormat: { type: 'json' } });
    expect(body).not.toHaveProperty('output_config');
    expect(body.system).toBe(`Be brief.\n\n${JSON_INSTRUCTION}`);
  });

  it.each([['minimal', 'low'], ['low', 'low'], ['medium', 'medium'], ['high', 'high']] as const)(
    'maps reasoning effort %s to adaptive thinking with effort %s', (effort, expected) => {
      const body = anthropicBody({ ...base, reasoning: { effort } });
      expect(body.thinking).toEqual({ type: 'adaptive' });
      expect(body.output_config).toEqual({ effort: expected });
    });

  it('merges the effort with the output format instead of overwriting it', () => {
    const body = anthropicBody({ ...base, reasoning: { effort: 'high' }, responseFormat: { type: 'json_schema', name: 'c', schema, strict: false } });
    expect(body.output_config).toEqual({ effort: 'high', format: { type: 'json_schema', schema: { ...schema, additionalProperties: false } } });
  });

  it('leaves thinking off when the request forces a tool, which the API refuses with thinking', () => {
    const body = anthropicBody({ ...base, tools: [stock], toolChoice: 'required', reasoning: { effort: 'high' } });
    expect(body).not.toHaveProperty('thinking');
    expect(body.output_config).toEqual({ effort: 'high' });
  });

  it('leaves thinking off when the last tool turn came from another provider without thinking blocks', () => {
    const body = anthropicBody({ ...base, tools: [stock], reasoning: { effort: 'low' }, messages: [
      ...base.messages,
      { role: 'assistant', content: null, toolCalls: [{ id: 'call_1', name: 'get_stock_price', arguments: { ticker: 'X' } }] },
      { role: 'tool', toolCallId: 'call_1', content: '1' },
    ] });
    expect(body).not.toHaveProperty('thinking');
  });
});

describe('anthropic request: parameters', () => {
  it('sends stop as stop_sequences without whitespace-only ones, and user as metadata.user_id', () => {
    const body = anthropicBody({ ...base, stop: ['END', ' ', '\n'], user: 'user-123' });
    expect(body).toMatchObject({ stop_sequences: ['END'], metadata: { user_id: 'user-123' } });
  });

  it('drops temperature, topP and seed, which API version 2026-10-21 does not take', () => {
    const body = anthropicBody({ ...base, temperature: 0.3, topP: 0.9, seed: 1, stop: [' '] });
    for (const key of ['temperature', 'top_p', 'top_k', 'seed', 'stop_sequences']) expect(body).not.toHaveProperty(key);
  });

  it('merges extraBody last and verbatim', () => {
    const body = anthropicBody({ ...base, maxTokens: 10, extraBody: { service_tier: 'standard_only', max_tokens: 20 } });
    expect(body).toMatchObject({ service_tier: 'standard_only', max_tokens: 20 });
  });

  it('sends nothing it was not asked for', () => {
    expect(anthropicBody(base)).toEqual({ model: 'claude-sonnet-4-6', max_tokens: 4096, messages: base.messages as Message[] });
  });
});
