/**
 * Wave-2 wire fixtures in each provider's real format, from ../shared/reference/provider-wire-formats-wave2.md
 * (sources there; where the reference marks a body synthetic, so does the comment here).
 */

// ---- OpenAI Chat Completions -------------------------------------------------------------------

/** The spec's "Functions" example answer (§1.1): one call, arguments a JSON string with newlines. */
export function openaiToolCompletion(calls: Array<{ id: string; name: string; arguments: string }> = [
  { id: 'call_abc123', name: 'get_current_weather', arguments: '{\n"location": "Boston, MA"\n}' },
], finishReason = 'tool_calls') {
  return {
    id: 'chatcmpl-abc123', object: 'chat.completion', created: 1699896916, model: 'gpt-4o-mini',
    choices: [{
      index: 0,
      message: { role: 'assistant', content: null, tool_calls: calls.map((c) => ({ id: c.id, type: 'function', function: { name: c.name, arguments: c.arguments } })) },
      logprobs: null, finish_reason: finishReason,
    }],
    usage: { prompt_tokens: 82, completion_tokens: 17, total_tokens: 99, completion_tokens_details: { reasoning_tokens: 0, accepted_prediction_tokens: 0, rejected_prediction_tokens: 0 } },
  };
}

/** A refusal (synthetic, per §3.1): content null, the refusal text, finish_reason stop. */
export function openaiRefusal(text = "I can't help with that.") {
  return {
    id: 'chatcmpl-r', object: 'chat.completion', created: 1, model: 'gpt-4o',
    choices: [{ index: 0, message: { role: 'assistant', content: null, refusal: text }, logprobs: null, finish_reason: 'stop' }],
    usage: { prompt_tokens: 20, completion_tokens: 8, total_tokens: 28 },
  };
}

export const openaiWeatherTool = {
  name: 'get_current_weather',
  description: 'Get the current weather in a given location',
  parameters: {
    type: 'object',
    properties: {
      location: { type: 'string', description: 'The city and state, e.g. San Francisco, CA' },
      unit: { type: 'string', enum: ['celsius', 'fahrenheit'] },
    },
    required: ['location'],
  },
};

const chunk = (choices: unknown[], extra: Record<string, unknown> = {}) => `data: ${JSON.stringify({
  id: 'chatcmpl-x', object: 'chat.completion.chunk', created: 1, model: 'gpt-4o', choices, ...extra,
})}`;

/** One chunk of tool-call fragments. */
export const openaiToolChunk = (toolCalls: unknown[]) => chunk([{ index: 0, delta: { tool_calls: toolCalls }, finish_reason: null }]);
export const openaiFinishChunk = (reason: string) => chunk([{ index: 0, delta: {}, finish_reason: reason }]);
export const openaiUsageChunk = (usage: Record<string, unknown>) => chunk([], { usage });
export const openaiTextChunk = (content: string) => chunk([{ index: 0, delta: { content }, finish_reason: null }]);
export const openaiRoleChunk = () => chunk([{ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null }]);

/**
 * The real gpt-4o tool-call stream of §2.1 (first call, fragmented arguments) with the reference's
 * synthetic continuation: a second, parallel call, `finish_reason: tool_calls`, usage, `[DONE]`.
 */
export function openaiParallelToolSse(finishReason = 'tool_calls'): string[] {
  return [
    openaiToolChunk([{ index: 0, id: 'call_9oOUGn7XVM1S9AdJeglwUv1Z', type: 'function', function: { name: 'get_current_weather', arguments: '' } }]),
    openaiToolChunk([{ index: 0, function: { arguments: '{"lo' } }]),
    openaiToolChunk([{ index: 0, function: { arguments: 'catio' } }]),
    openaiToolChunk([{ index: 0, function: { arguments: 'n":"Boston"}' } }]),
    openaiToolChunk([{ index: 1, id: 'call_2', type: 'function', function: { name: 'get_current_weather', arguments: '' } }]),
    openaiToolChunk([{ index: 1, function: { arguments: '{"location":"Paris"}' } }]),
    openaiFinishChunk(finishReason),
    openaiUsageChunk({ prompt_tokens: 82, completion_tokens: 34, total_tokens: 116 }),
    'data: [DONE]',
  ];
}

/** An embeddings answer: vectors packed as the SDK asks by default (base64 little-endian float32). */
export function openaiEmbeddings(vectors: Array<{ index: number; embedding: number[] }>, model = 'text-embedding-3-small', promptTokens = 8) {
  return {
    object: 'list',
    data: vectors.map((v) => ({ object: 'embedding', index: v.index, embedding: Buffer.from(new Float32Array(v.embedding).buffer).toString('base64') })),
    model,
    usage: { prompt_tokens: promptTokens, total_tokens: promptTokens },
  };
}

/** The embeddings context-length error (§7.1, real body): `code` null, unlike chat's. */
export const openaiEmbeddingTooLong = { error: { message: "This model's maximum context length is 8192 tokens, however you requested 155434 tokens (155434 in your prompt; 0 for the completion). Please reduce your prompt; or completion length.", type: 'invalid_request_error', param: null, code: null } };

// ---- Anthropic Messages ------------------------------------------------------------------------

const usage = { input_tokens: 412, output_tokens: 61, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, cache_creation: { ephemeral_5m_input_tokens: 0, ephemeral_1h_input_tokens: 0 }, service_tier: 'standard' };

/** The worked turn-1 answer of §1.3: a text block, then a tool_use block with an object input. */
export function anthropicToolMessage(content: unknown[] = [
  { type: 'text', text: 'Let me look that up.' },
  { type: 'tool_use', id: 'toolu_01D7FLrfh4GYq7yT1ULFeyMV', name: 'get_stock_price', input: { ticker: '^GSPC' }, caller: { type: 'direct' } },
], stopReason = 'tool_use', extraUsage: Record<string, unknown> = {}) {
  return {
    id: 'msg_01', type: 'message', role: 'assistant', model: 'claude-opus-4-8', content,
    stop_reason: stopReason, stop_sequence: null, stop_details: null, container: null, diagnostics: null,
    usage: { ...usage, ...extraUsage },
  };
}

/** A thinking turn with a tool call (§5.1; the signature is from the reference's real fixture, truncated). */
export const anthropicThinkingBlocks = [
  { type: 'thinking', thinking: 'I need to divide 925 by 5.', signature: 'EvQBCkYICxgCKkAxhD4NUKFzudtZ6NzbZdEiBACIScTzqjPV' },
  { type: 'redacted_thinking', data: 'EmwKAhgBEgy3va3pzix/LafPsn4aDFIT' },
  { type: 'tool_use', id: 'toolu_01X', name: 'divide', input: { a: 925, b: 5 }, caller: { type: 'direct' } },
];

export const anthropicStockTool = {
  name: 'get_stock_price',
  description: 'Get the current stock price for a given ticker symbol.',
  parameters: { type: 'object', properties: { ticker: { type: 'string', description: 'The stock ticker symbol, e.g. AAPL for Apple Inc.' } }, required: ['ticker'] },
};

const ev = (data: Record<string, unknown>) => `event: ${String(data.type)}\ndata: ${JSON.stringify(data)}`;

export const anthropicEvent = ev;

/** `message_start` with the given usage. */
export const anthropicMessageStart = (u: Record<string, unknown> = { input_tokens: 565, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, output_tokens: 7 }) =>
  ev({ type: 'message_start', message: { model: 'claude-sonnet-4-5-20250929', id: 'msg_01GE2RKp1VYsPzdFs3sS9z5S', type: 'message', role: 'assistant', content: [], stop_reason: null, stop_sequence: null, usage: u } });

/**
 * The real recording of §2.2 (claude-sonnet-4-5): text, then a no-argument tool whose only input
 * fragment is `""`, pings between, `stop_reason: tool_use`.
 */
export function anthropicNoArgToolSse(): string[] {
  return [
    anthropicMessageStart(),
    ev({ type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }),
    ev({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: "I'll update the issue list for" } }),
    ev({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: ' you.' } }),
    ev({ type: 'ping' }),
    ev({ type: 'content_block_stop', index: 0 }),
    ev({ type: 'ping' }),
    ev({ type: 'content_block_start', index: 1, content_block: { type: 'tool_use', id: 'toolu_01QE1WLsSVp5hy5Q3GmGTmjP', name: 'updateIssueList', input: {} } }),
    ev({ type: 'ping' }),
    ev({ type: 'content_block_delta', index: 1, delta: { type: 'input_json_delta', partial_json: '' } }),
    ev({ type: 'content_block_stop', index: 1 }),
    ev({ type: 'message_delta', delta: { stop_reason: 'tool_use', stop_sequence: null }, usage: { input_tokens: 565, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, output_tokens: 48 } }),
    ev({ type: 'message_stop' }),
  ];
}

/** A tool_use block streamed in fragments at content-block `index` (synthetic, §2.2 shapes). */
export function anthropicToolBlockSse(index: number, id: string, name: string, fragments: string[]): string[] {
  return [
    ev({ type: 'content_block_start', index, content_block: { type: 'tool_use', id, name, input: {} } }),
    ...fragments.map((partial_json) => ev({ type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json } })),
    ev({ type: 'content_block_stop', index }),
  ];
}

/** The end of a stream: `message_delta` with a stop reason and cumulative usage, then `message_stop`. */
export function anthropicSseEnd(stopReason: string, u: Record<string, unknown> = { output_tokens: 48 }): string[] {
  return [ev({ type: 'message_delta', delta: { stop_reason: stopReason, stop_sequence: null }, usage: u }), ev({ type: 'message_stop' })];
}

/** A streamed thinking block: start, thinking deltas, one signature_delta just before its stop (§2.2). */
export function anthropicThinkingBlockSse(index: number, thinking: string[], signature: string): string[] {
  return [
    ev({ type: 'content_block_start', index, content_block: { type: 'thinking', thinking: '', signature: '' } }),
    ...thinking.map((t) => ev({ type: 'content_block_delta', index, delta: { type: 'thinking_delta', thinking: t } })),
    ev({ type: 'content_block_delta', index, delta: { type: 'signature_delta', signature } }),
    ev({ type: 'content_block_stop', index }),
  ];
}
