import type { LanguageModelV3Prompt, SharedV3Warning } from '@ai-sdk/provider';
import { describe, expect, it } from 'vitest';
import { toChatRequest } from '../../src/integrations/ai-sdk/call-options.js';
import { toMessages } from '../../src/integrations/ai-sdk/prompt.js';
import { contentOf, finishReasonOf, usageOf } from '../../src/integrations/ai-sdk/result.js';
import type { ChatResult } from '../../src/types.js';

const messagesOf = (prompt: LanguageModelV3Prompt) => {
  const warnings: SharedV3Warning[] = [];
  return { messages: toMessages(prompt, warnings), warnings };
};

describe('the AI SDK prompt as Switchyard messages', () => {
  it.each([
    ['a tool result as text', { type: 'text', value: 'sunny' }, { content: 'sunny' }],
    ['a JSON tool result as its JSON', { type: 'json', value: { celsius: 21 } }, { content: '{"celsius":21}' }],
    ['an error text as a failed tool result', { type: 'error-text', value: 'city unknown' }, { content: 'city unknown', isError: true }],
    ['a denied execution as a failed tool result', { type: 'execution-denied', reason: 'not allowed' }, { content: 'not allowed', isError: true }],
  ] as const)('maps %s', (_name, output, expected) => {
    const { messages } = messagesOf([
      { role: 'assistant', content: [{ type: 'tool-call', toolCallId: 'call_1', toolName: 'weather', input: { city: 'Oslo' } }] },
      { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'call_1', toolName: 'weather', output }] },
    ]);
    expect(messages).toEqual([
      { role: 'assistant', content: null, toolCalls: [{ id: 'call_1', name: 'weather', arguments: { city: 'Oslo' } }] },
      { role: 'tool', toolCallId: 'call_1', ...expected },
    ]);
  });

  it('sends a PDF as an inline file and a data: URL image as its bytes', () => {
    const { messages } = messagesOf([{ role: 'user', content: [
      { type: 'file', data: 'JVBERi0xLjQK', mediaType: 'application/pdf', filename: 'report.pdf' },
      { type: 'file', data: new URL('data:image/png;base64,iVBORw0KGgo='), mediaType: 'image/png' },
    ] }]);
    expect(messages).toEqual([{ role: 'user', content: [
      { type: 'file', data: 'JVBERi0xLjQK', mediaType: 'application/pdf', filename: 'report.pdf' },
      { type: 'image', url: 'data:image/png;base64,iVBORw0KGgo=' },
    ] }]);
  });

  it('drops a file URL the AI SDK did not download, with a warning', () => {
    const { messages, warnings } = messagesOf([{ role: 'user', content: [
      { type: 'text', text: 'Read this' },
      { type: 'file', data: new URL('https://example.com/report.pdf'), mediaType: 'application/pdf' },
    ] }]);
    expect(messages).toEqual([{ role: 'user', content: 'Read this' }]);
    expect(warnings).toMatchObject([{ type: 'unsupported', feature: 'file URL' }]);
  });

  it('round-trips an answer’s provider parts (Anthropic thinking blocks) through the content part metadata', () => {
    const providerParts = { api: 'anthropic' as const, blocks: [{ type: 'thinking', thinking: 'hm', signature: 'sig' }, { type: 'tool_use', id: 'toolu_1', name: 'weather', input: {} }] };
    const result = { text: '', toolCalls: [{ id: 'toolu_1', name: 'weather', arguments: {} }], message: { role: 'assistant', content: null, providerParts } } as unknown as ChatResult;
    const [call] = contentOf(result);
    expect(call).toMatchObject({ type: 'tool-call', toolCallId: 'toolu_1', input: '{}' });
    // The AI SDK hands a part's providerMetadata back as that part's providerOptions.
    const { messages } = messagesOf([{ role: 'assistant', content: [{ type: 'reasoning', text: 'hm' }, { type: 'tool-call', toolCallId: 'toolu_1', toolName: 'weather', input: {}, providerOptions: call!.providerMetadata }] }]);
    expect(messages).toEqual([{ role: 'assistant', content: null, toolCalls: [{ id: 'toolu_1', name: 'weather', arguments: {} }], providerParts }]);
  });

  it('round-trips Gemini\'s parts (thought signatures) the same way', () => {
    const providerParts = { api: 'gemini' as const, blocks: [{ functionCall: { name: 'weather', args: {} }, thoughtSignature: 'CikBcsja' }] };
    const result = { text: '', toolCalls: [{ id: 'call_g1', name: 'weather', arguments: {} }], message: { role: 'assistant', content: null, providerParts } } as unknown as ChatResult;
    const [call] = contentOf(result);
    const { messages } = messagesOf([{ role: 'assistant', content: [{ type: 'tool-call', toolCallId: 'call_g1', toolName: 'weather', input: {}, providerOptions: call!.providerMetadata }] }]);
    expect(messages).toEqual([{ role: 'assistant', content: null, toolCalls: [{ id: 'call_g1', name: 'weather', arguments: {} }], providerParts }]);
  });
});

describe('Switchyard answers as AI SDK results', () => {
  it.each([
    ['stop', 'stop'], ['length', 'length'], ['tool_calls', 'tool-calls'], ['content_filter', 'content-filter'], ['other', 'other'],
  ] as const)('maps finish reason %s to %s', (reason, unified) => {
    expect(finishReasonOf(reason)).toEqual({ unified, raw: reason });
  });

  it('splits usage into cached and uncached input, reasoning and text output', () => {
    expect(usageOf({ inputTokens: 1000, outputTokens: 300, cachedInputTokens: 600, cacheWriteTokens: 100, reasoningTokens: 120 })).toMatchObject({
      inputTokens: { total: 1000, noCache: 300, cacheRead: 600, cacheWrite: 100 },
      outputTokens: { total: 300, text: 180, reasoning: 120 },
    });
  });

  it('maps call settings, tool choice and a JSON schema response format into the request, warning of what it drops', () => {
    const { request, warnings } = toChatRequest('default', { tenant: 'web' }, {
      prompt: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }],
      maxOutputTokens: 200, temperature: 0.2, topP: 0.9, topK: 40, seed: 7, stopSequences: ['END'],
      tools: [{ type: 'function', name: 'weather', inputSchema: { type: 'object', properties: { city: { type: 'string' } } } }],
      toolChoice: { type: 'tool', toolName: 'weather' },
      responseFormat: { type: 'json', schema: { $schema: 'http://json-schema.org/draft-07/schema#', type: 'object' }, name: 'answer' },
      providerOptions: { switchyard: { tenant: 'batch', timeoutMs: 5_000 } },
    });
    expect(request).toEqual({
      chain: 'default', messages: [{ role: 'user', content: 'hi' }], maxTokens: 200, temperature: 0.2, topP: 0.9, seed: 7, stop: ['END'],
      tools: [{ name: 'weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } }],
      toolChoice: { name: 'weather' }, responseFormat: { type: 'json_schema', schema: { type: 'object' }, name: 'answer' },
      tenant: 'batch', timeoutMs: 5_000,
    });
    expect(warnings).toEqual([expect.objectContaining({ type: 'unsupported', feature: 'topK' })]);
  });
});
