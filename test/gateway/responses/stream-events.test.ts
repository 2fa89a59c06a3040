import { describe, expect, it } from 'vitest';
import type { ChatResult } from '../../../src/types.js';
import { ResponsesEvents } from '../../../src/gateway/responses/stream-events.js';
import type { ResponseEcho } from '../../../src/gateway/responses/parse-request.js';

const RID = `resp_${'ab'.repeat(24)}`;
const echo: ResponseEcho = {
  instructions: null, max_output_tokens: null, metadata: {}, parallel_tool_calls: true, previous_response_id: null,
  reasoning: { effort: null, summary: null }, store: true, temperature: null, text: { format: { type: 'text' } },
  tool_choice: 'auto', tools: [], top_p: null, truncation: 'disabled', user: null,
};
const meta = () => ({ id: RID, createdAt: 1_767_000_000, model: 'gpt-4o-mini', echo });
const result = (over: Partial<ChatResult>): ChatResult => ({
  text: '', toolCalls: [], message: { role: 'assistant', content: null }, provider: 'openai', model: 'gpt-4o-mini',
  finishReason: 'stop', usage: { inputTokens: 5, outputTokens: 3 }, attempts: [], latencyMs: 1, ...over,
});

describe('ResponsesEvents', () => {
  it('numbers every event from 0 and gives each item the next output_index in the order items start', () => {
    const t = new ResponsesEvents(meta());
    const events = [
      ...t.start(),
      ...t.push({ type: 'text', delta: 'Let me check.' }),
      ...t.push({ type: 'tool_call_delta', index: 0, id: 'call_1', name: 'f', argumentsDelta: '' }),
      ...t.push({ type: 'tool_call_delta', index: 0, argumentsDelta: '{"a":' }),
      ...t.push({ type: 'tool_call_delta', index: 0, argumentsDelta: '1}' }),
      ...t.push({ type: 'tool_call', toolCall: { id: 'call_1', name: 'f', arguments: { a: 1 } } }),
      ...t.finish(result({ text: 'Let me check.', toolCalls: [{ id: 'call_1', name: 'f', arguments: { a: 1 } }], finishReason: 'tool_calls' }), 1_767_000_001),
    ];
    expect(events.map((e) => e.sequence_number)).toEqual(events.map((_, i) => i));
    expect(events.map((e) => [e.type, e.output_index])).toEqual([
      ['response.created', undefined], ['response.in_progress', undefined],
      ['response.output_item.added', 0], ['response.content_part.added', 0], ['response.output_text.delta', 0],
      // A tool call starting closes the message before it.
      ['response.output_text.done', 0], ['response.content_part.done', 0], ['response.output_item.done', 0],
      ['response.output_item.added', 1], ['response.function_call_arguments.delta', 1], ['response.function_call_arguments.delta', 1],
      ['response.function_call_arguments.done', 1], ['response.output_item.done', 1],
      ['response.completed', undefined],
    ]);
    const completed = events.at(-1)!.response as { output: unknown[]; usage: { total_tokens: number }; status: string };
    expect(completed.status).toBe('completed');
    expect(completed.output).toEqual([
      { type: 'message', id: `msg_${'ab'.repeat(24)}_0`, status: 'completed', role: 'assistant', content: [{ type: 'output_text', text: 'Let me check.', annotations: [], logprobs: [] }] },
      { type: 'function_call', id: `fc_${'ab'.repeat(24)}_1`, call_id: 'call_1', name: 'f', arguments: '{"a":1}', status: 'completed' },
    ]);
    expect(completed.usage.total_tokens).toBe(8);
  });

  it('streams a tool call that only arrived whole (at the finish) as its start, its arguments and its end', () => {
    const t = new ResponsesEvents(meta());
    t.start();
    const events = t.finish(result({ toolCalls: [{ id: 'call_9', name: 'g', arguments: { b: true } }], finishReason: 'tool_calls' }), 1);
    expect(events.map((e) => e.type)).toEqual([
      'response.output_item.added', 'response.function_call_arguments.delta', 'response.function_call_arguments.done', 'response.output_item.done', 'response.completed',
    ]);
    expect(events[2]).toMatchObject({ name: 'g', arguments: '{"b":true}', output_index: 0 });
  });

  it('ends an answer cut at the token limit with response.incomplete and the message item incomplete', () => {
    const t = new ResponsesEvents(meta());
    t.start();
    t.push({ type: 'text', delta: 'Half' });
    const events = t.finish(result({ text: 'Half', finishReason: 'length' }), 1);
    expect(events.map((e) => e.type).at(-1)).toBe('response.incomplete');
    expect(events.at(-1)!.response).toMatchObject({ status: 'incomplete', incomplete_details: { reason: 'max_output_tokens' }, output: [{ status: 'incomplete' }] });
  });

  it('ends a failed stream with an error event and response.failed holding what was already done', () => {
    const t = new ResponsesEvents(meta());
    t.start();
    t.push({ type: 'text', delta: 'Hal' });
    const events = t.fail('stream_truncated', 'stream ended before its terminal event');
    expect(events).toEqual([
      { type: 'error', sequence_number: 5, code: 'stream_truncated', message: 'stream ended before its terminal event', param: null },
      expect.objectContaining({ type: 'response.failed', response: expect.objectContaining({ status: 'failed', error: { code: 'stream_truncated', message: 'stream ended before its terminal event' }, usage: null }) }),
    ]);
  });
});
