/** SSE bodies in each provider's real wire format (see provider-wire-formats.md 1.4 and 2.5). */

const chunk = (choices: unknown[], extra: Record<string, unknown> = {}) => `data: ${JSON.stringify({
  id: 'chatcmpl-9tZXFsqeQOozn5YU8I6SbjkmDnN76', object: 'chat.completion.chunk', created: 1723031665,
  model: 'gpt-4o-2024-08-06', system_fingerprint: 'fp_845eaabc1f', choices, ...extra,
})}`;

/** An OpenAI stream: a role-only first delta, one chunk per text, the finish chunk, the usage chunk, [DONE]. */
export function openaiSse(texts: string[], usage = { prompt_tokens: 17, completion_tokens: 10, total_tokens: 27 }): string[] {
  return [
    chunk([{ index: 0, delta: { role: 'assistant', content: '', refusal: null }, logprobs: null, finish_reason: null }]),
    ...texts.map((t) => chunk([{ index: 0, delta: { content: t }, logprobs: null, finish_reason: null }])),
    chunk([{ index: 0, delta: {}, logprobs: null, finish_reason: 'stop' }]),
    chunk([], { usage }),
    'data: [DONE]',
  ];
}

/** An OpenAI mid-stream error frame. */
export const openaiErrorFrame = (type = 'server_error', code: string | null = 'server_error', message = 'The server had an error while processing your request.') =>
  `data: ${JSON.stringify({ error: { message, type, param: null, code } })}`;

const ev = (name: string, data: unknown) => `event: ${name}\ndata: ${JSON.stringify(data)}`;

/** The opening of an Anthropic stream: message_start, a text block start and a ping; no content yet. */
export function anthropicSseHead(inputTokens = 11): string[] {
  return [
    ev('message_start', { type: 'message_start', message: { id: 'msg_4QpJur2dWWDjF6C758FbBw5vm12BaVipnK', type: 'message', role: 'assistant', content: [], model: 'claude-opus-4-8', stop_reason: null, stop_sequence: null, usage: { input_tokens: inputTokens, output_tokens: 1 } } }),
    ev('content_block_start', { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }),
    'event: ping\ndata: {"type": "ping"}',
  ];
}

export const anthropicDelta = (text: string) => ev('content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text } });

/** The close of an Anthropic stream: block stop, message_delta with cumulative usage, message_stop. */
export function anthropicSseTail(outputTokens = 6, stopReason = 'end_turn'): string[] {
  return [
    ev('content_block_stop', { type: 'content_block_stop', index: 0 }),
    ev('message_delta', { type: 'message_delta', delta: { stop_reason: stopReason, stop_sequence: null }, usage: { output_tokens: outputTokens } }),
    ev('message_stop', { type: 'message_stop' }),
  ];
}

export function anthropicSse(texts: string[], outputTokens = 6): string[] {
  return [...anthropicSseHead(), ...texts.map(anthropicDelta), ...anthropicSseTail(outputTokens)];
}

/** Anthropic's mid-stream overload, which arrives after HTTP 200. */
export const anthropicOverloadedEvent = 'event: error\ndata: {"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}}';
