import { describe, expect, it } from 'vitest';
import { anthropicParam } from '../../src/gateway/messages/anthropic-param.js';
import { anthropicStreamer } from '../../src/gateway/messages/anthropic-stream.js';
import { fromAnthropic } from '../../src/gateway/messages/from-anthropic.js';
import { RouterError } from '../../src/errors.js';
import type { ChatResult } from '../../src/types.js';

const hi = [{ role: 'user', content: 'hi' }];

describe('fromAnthropic', () => {
  it('maps tool_choice, thinking, output_config, metadata and passes Anthropic-only tuning through', () => {
    const { request } = fromAnthropic({
      model: 'default', max_tokens: 50, messages: hi, top_k: 5, service_tier: 'auto',
      tools: [{ name: 'f', input_schema: { type: 'object' }, cache_control: { type: 'ephemeral' } }], tool_choice: { type: 'any' },
      thinking: { type: 'enabled', budget_tokens: 20_000 }, metadata: { user_id: 'u' },
      output_config: { format: { type: 'json_schema', schema: { type: 'object' } } }, cache_control: { type: 'ephemeral' },
    }, 'default');
    expect(request).toEqual({
      chain: 'default', maxTokens: 50, messages: [{ role: 'user', content: 'hi' }],
      // The tool's cache_control is the router's breakpoint; the top-level one goes to Anthropic as written.
      tools: [{ name: 'f', parameters: { type: 'object' }, cache: {} }], toolChoice: 'required', reasoning: { effort: 'high' }, user: 'u',
      responseFormat: { type: 'json_schema', schema: { type: 'object' }, strict: true },
      providerOptions: { anthropic: { top_k: 5, service_tier: 'auto', cache_control: { type: 'ephemeral' } } },
    });
  });

  it('reads images, documents and tool results, tool results first, each remembering its path', () => {
    const { request, paths } = fromAnthropic({ model: 'm', messages: [
      { role: 'user', content: 'weather?' },
      { role: 'assistant', content: [{ type: 'text', text: '' }, { type: 'tool_use', id: 'toolu_1', name: 'w', input: {} }] },
      { role: 'user', content: [
        { type: 'text', text: 'see', cache_control: { type: 'ephemeral' } },
        { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0KGgo=' } },
        { type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: 'JVBERi0=' }, title: 'a.pdf' },
        { type: 'tool_result', tool_use_id: 'toolu_1', content: 'sunny', is_error: true },
      ] },
    ] }, 'm');
    expect(request.messages).toEqual([
      { role: 'user', content: 'weather?' },
      { role: 'assistant', content: null, toolCalls: [{ id: 'toolu_1', name: 'w', arguments: {} }] },
      { role: 'tool', toolCallId: 'toolu_1', content: 'sunny', isError: true },
      { role: 'user', content: [
        { type: 'text', text: 'see', cache: {} },
        { type: 'image', url: 'data:image/png;base64,iVBORw0KGgo=' },
        { type: 'file', data: 'JVBERi0=', mediaType: 'application/pdf', filename: 'a.pdf' },
      ] },
    ]);
    expect(paths).toEqual(['messages[0]', 'messages[1]', 'messages[2].content[3]', 'messages[2]']);
  });

  it.each<[string, Record<string, unknown>, string, string]>([
    ['temperature "hot"', { temperature: 'hot' }, 'temperature', 'invalid_parameter'],
    ['stream "yes"', { stream: 'yes' }, 'stream', 'invalid_parameter'],
    ['a system of numbers', { system: 5 }, 'system', 'invalid_parameter'],
    ['a role of system in messages', { messages: [{ role: 'system', content: 'x' }] }, 'messages[0].role', 'invalid_parameter'],
    ['tool_use input as a string', { messages: [{ role: 'assistant', content: [{ type: 'tool_use', id: 't', name: 'f', input: '{}' }] }] }, 'messages[0].content[0].input', 'invalid_parameter'],
    ['an image in a tool result', { messages: [{ role: 'user', content: [{ type: 'tool_result', tool_use_id: 't', content: [{ type: 'image', source: { type: 'url', url: 'https://x' } }] }] }] }, 'messages[0].content[0].content[0]', 'unsupported_parameter'],
    ['an unknown key on a block', { messages: [{ role: 'user', content: [{ type: 'text', text: 'x', extra: 1 }] }] }, 'messages[0].content[0].extra', 'unsupported_parameter'],
    ['mcp_servers', { mcp_servers: [] }, 'mcp_servers', 'unsupported_parameter'],
    ['a tool_choice of no known type', { tool_choice: { type: 'sometimes' } }, 'tool_choice.type', 'invalid_parameter'],
    ['an unknown effort', { output_config: { effort: 'extreme' } }, 'output_config.effort', 'invalid_parameter'],
  ])('refuses %s naming the wire field', (_what, fields, param, code) => {
    let thrown: unknown;
    try {
      fromAnthropic({ model: 'm', messages: hi, ...fields }, 'm');
    } catch (err) {
      thrown = err;
    }
    expect(thrown).toBeInstanceOf(RouterError);
    expect(thrown).toMatchObject({ kind: 'invalid_request', param, code });
    expect((thrown as Error).message.startsWith(`${param} is`)).toBe(true);
  });
});

describe('anthropicParam', () => {
  it.each([
    ['maxTokens', 'max_tokens'], ['topP', 'top_p'], ['stop[0]', 'stop_sequences[0]'], ['tools[1].name', 'tools[1].name'],
    ['tools[0].parameters', 'tools[0].input_schema'], ['toolChoice.name', 'tool_choice.name'], ['reasoning.effort', 'thinking'],
    ['messages[2].toolCallId', 'messages[1].content[0].tool_use_id'], ['messages[1].content', 'messages[1].content'],
    ['messages[3].content[1]', 'messages[1].content'], ['messages[0].content', 'system'],
  ])('%s -> %s', (param, wire) => {
    expect(anthropicParam(param, ['system', 'messages[1]', 'messages[1].content[0]', 'messages[1]'])).toBe(wire);
  });
});

describe('anthropicStreamer', () => {
  const result = (over: Partial<ChatResult>): ChatResult => ({
    text: '', toolCalls: [], message: { role: 'assistant', content: '' }, provider: 'p', model: 'm', finishReason: 'stop', attempts: [], latencyMs: 1, ...over,
  });

  it('gives a whole call (no fragments) a block of its own and a tool without arguments "{}"', () => {
    const s = anthropicStreamer('m');
    const events = [
      ...s.push({ type: 'start', provider: 'p', model: 'm', attempts: [] }),
      ...s.push({ type: 'text', delta: 'Let me check.' }),
      ...s.push({ type: 'tool_call_delta', index: 0, id: 'toolu_a', name: 'now', argumentsDelta: '' }),
      ...s.push({ type: 'tool_call', toolCall: { id: 'toolu_a', name: 'now', arguments: {} } }),
      ...s.push({ type: 'tool_call', toolCall: { id: 'toolu_b', name: 'w', arguments: { city: 'Paris' } } }),
      ...s.push({ type: 'done', result: result({ finishReason: 'tool_calls', usage: { inputTokens: 100, outputTokens: 9, cachedInputTokens: 40 } }) }),
    ];
    expect(events.map((e) => `${e.type}${'index' in e ? `:${String(e.index)}` : ''}`)).toEqual([
      'message_start', 'ping', 'content_block_start:0', 'content_block_delta:0', 'content_block_stop:0',
      'content_block_start:1', 'content_block_delta:1', 'content_block_stop:1',
      'content_block_start:2', 'content_block_delta:2', 'content_block_stop:2', 'message_delta', 'message_stop',
    ]);
    expect(events[6]).toMatchObject({ delta: { type: 'input_json_delta', partial_json: '{}' } });
    expect(events[9]).toMatchObject({ delta: { type: 'input_json_delta', partial_json: '{"city":"Paris"}' } });
    expect(events[11]).toMatchObject({ delta: { stop_reason: 'tool_use' }, usage: { input_tokens: 60, output_tokens: 9, cache_read_input_tokens: 40 } });
  });
});
