/**
 * OpenAI Responses API fixtures, in the shapes of the openai SDK's types and the wire reference
 * (../shared/reference/provider-wire-formats-wave2.md §1.2, §2.3, §6): ids from the spec's examples,
 * values synthetic where the reference marks them so.
 */

export const RESPONSES_PATH = '/v1/responses';

const usage = (input = 19, output = 10, cached = 0, reasoning = 0) => ({
  input_tokens: input, input_tokens_details: { cached_tokens: cached, cache_write_tokens: 0 },
  output_tokens: output, output_tokens_details: { reasoning_tokens: reasoning }, total_tokens: input + output,
});

/** A `message` output item with one `output_text` part. */
export const messageItem = (text: string, id = 'msg_67ccd3acc8d48190a77525dc6de64b4104becb25c95a0fb5') => ({
  type: 'message', id, status: 'completed', role: 'assistant', content: [{ type: 'output_text', text, annotations: [], logprobs: [] }],
});

/** A `function_call` output item (§1.2's worked exchange). */
export const functionCallItem = (name: string, args: string, callId = 'call_unLAR8MvFNptuiZK6K6HCy5k', id = 'fc_67ca09c6bedc8190a7abfec07b1a1332096610f474011cc0') => ({
  type: 'function_call', id, call_id: callId, name, arguments: args, status: 'completed',
});

/** A `reasoning` output item with its encrypted content (synthetic ciphertext). */
export const reasoningItem = (id = 'rs_6820f383d7c08191846711c5df8233bc0ac5ba57aafcbac7', encrypted = 'gAAAAABoISQ24OyVRYbkYfukrc8ZdS') => ({
  type: 'reasoning', id, summary: [], encrypted_content: encrypted,
});

/** A whole `Response` object. */
export function responseObject(output: unknown[], extra: Record<string, unknown> = {}) {
  return {
    id: 'resp_67ca09c5efe0819096d0511c92b8c890096610f474011cc0', object: 'response', created_at: 1741294021,
    status: 'completed', error: null, incomplete_details: null, instructions: null, max_output_tokens: null,
    model: 'gpt-5.4-2026-03-05', output, parallel_tool_calls: true, previous_response_id: null,
    reasoning: { effort: null, summary: null }, store: false, temperature: 1, text: { format: { type: 'text' } },
    tool_choice: 'auto', tools: [], top_p: 1, truncation: 'disabled', usage: usage(), user: null, metadata: {},
    ...extra,
  };
}

export const responsesUsageOf = usage;

let seq = 0;
/** One SSE event: an `event:` line and a `data:` whose `type` repeats it, with a sequence number. */
export function responsesEvent(type: string, data: Record<string, unknown> = {}): string {
  return `event: ${type}\ndata: ${JSON.stringify({ type, sequence_number: seq++, ...data })}`;
}

/** A streamed text answer: created, the message item, one delta per piece, its done events, completed (no `[DONE]`). */
export function responsesTextSse(pieces: string[], u = usage(17, 10)): string[] {
  const text = pieces.join('');
  const item = messageItem(text);
  return [
    responsesEvent('response.created', { response: responseObject([], { status: 'in_progress', usage: null }) }),
    responsesEvent('response.output_item.added', { output_index: 0, item: { ...item, status: 'in_progress', content: [] } }),
    responsesEvent('response.content_part.added', { item_id: item.id, output_index: 0, content_index: 0, part: { type: 'output_text', text: '', annotations: [] } }),
    ...pieces.map((delta) => responsesEvent('response.output_text.delta', { item_id: item.id, output_index: 0, content_index: 0, delta, logprobs: [] })),
    responsesEvent('response.output_text.done', { item_id: item.id, output_index: 0, content_index: 0, text, logprobs: [] }),
    responsesEvent('response.output_item.done', { output_index: 0, item }),
    responsesEvent('response.completed', { response: responseObject([item], { usage: u }) }),
  ];
}

/** A streamed function call (§2.3): added, argument deltas, done, item done, completed. */
export function responsesToolSse(name: string, fragments: string[], before: unknown[] = []): string[] {
  const args = fragments.join('');
  const item = functionCallItem(name, args, 'call_c1', 'fc_1');
  const index = before.length;
  return [
    responsesEvent('response.created', { response: responseObject([], { status: 'in_progress', usage: null }) }),
    ...before.flatMap((b, i) => [responsesEvent('response.output_item.added', { output_index: i, item: b }), responsesEvent('response.output_item.done', { output_index: i, item: b })]),
    responsesEvent('response.output_item.added', { output_index: index, item: { ...item, arguments: '', status: 'in_progress' } }),
    ...fragments.map((delta) => responsesEvent('response.function_call_arguments.delta', { item_id: item.id, output_index: index, delta })),
    responsesEvent('response.function_call_arguments.done', { item_id: item.id, output_index: index, name, arguments: args }),
    responsesEvent('response.output_item.done', { output_index: index, item }),
    responsesEvent('response.completed', { response: responseObject([...before, item], { usage: usage(60, 12) }) }),
  ];
}

/** The Responses `error` event (`ResponseErrorEvent`): yielded by the SDK, not thrown. */
export const responsesErrorEvent = (code = 'server_error', message = 'The server had an error while processing your request.') =>
  responsesEvent('error', { code, message, param: null });
