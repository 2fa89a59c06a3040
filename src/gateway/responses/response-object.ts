import type { ChatResult, FinishReason, ToolCall, Usage } from '../../types.js';
import { itemId } from './ids.js';
import type { ResponseEcho } from './parse-request.js';

/** What every Response object of one request shares. */
export interface ResponseMeta {
  id: string;
  /** Unix seconds. */
  createdAt: number;
  /** The model that answered (the target's), as chat completions report it. */
  model: string;
  echo: ResponseEcho;
  /** The names of the request's freeform (`custom`) tools: a call of one is a `custom_tool_call` item. */
  custom?: ReadonlySet<string>;
}

/** A `message` output item: the answer's text as one `output_text` part. */
export function messageItem(id: string, text: string, status: 'in_progress' | 'completed' | 'incomplete') {
  return {
    type: 'message' as const, id, status, role: 'assistant' as const,
    content: status === 'in_progress' ? [] : [{ type: 'output_text' as const, text, annotations: [], logprobs: [] }],
  };
}

/** A `function_call` output item; `call_id` is the pairing key a `function_call_output` answers. */
export function callItem(id: string, call: { id: string; name: string }, args: string, status: 'in_progress' | 'completed') {
  return { type: 'function_call' as const, id, call_id: call.id, name: call.name, arguments: args, status };
}

/** A `custom_tool_call` output item: a freeform tool's call, its text (`input`) the one argument the router's call has. */
export function customItem(id: string, call: { id: string; name: string }, input: string, status: 'in_progress' | 'completed') {
  return { type: 'custom_tool_call' as const, id, call_id: call.id, name: call.name, input, status };
}

/** A freeform call's text: its `input` argument (what the target's call carried; a string, else its JSON). */
export const inputOf = (call: ToolCall) => (typeof call.arguments.input === 'string' ? call.arguments.input : JSON.stringify(call.arguments));

/** A tool call's arguments as the wire carries them: a JSON string. */
export const argumentsOf = (call: ToolCall) => JSON.stringify(call.arguments);

/** The output items of an answer: its text as a message (when there is any), then one item per tool call (`custom_tool_call` for a freeform tool's). */
export function outputItems(result: ChatResult, responseId: string, custom?: ReadonlySet<string>): unknown[] {
  const items: unknown[] = [];
  const done = result.finishReason === 'length' || result.finishReason === 'content_filter' ? 'incomplete' : 'completed';
  if (result.text !== '') items.push(messageItem(itemId(responseId, 'msg', 0), result.text, done));
  result.toolCalls.forEach((call, i) => {
    const id = itemId(responseId, 'fc', i + 1);
    items.push(custom?.has(call.name) ? customItem(id, call, inputOf(call), 'completed') : callItem(id, call, argumentsOf(call), 'completed'));
  });
  return items;
}

/** Usage as the Responses API reports it; null when the provider reported none (unknown, never 0). */
export function responsesUsage(usage: Usage | undefined) {
  if (!usage) return null;
  return {
    input_tokens: usage.inputTokens,
    input_tokens_details: { cached_tokens: usage.cachedInputTokens ?? 0, cache_write_tokens: usage.cacheWriteTokens ?? 0 },
    output_tokens: usage.outputTokens,
    output_tokens_details: { reasoning_tokens: usage.reasoningTokens ?? 0 },
    total_tokens: usage.inputTokens + usage.outputTokens,
  };
}

/** A response's status from why the answer stopped: cut at the token limit or filtered is `incomplete`, with its reason. */
export function statusOf(finish: FinishReason): { status: 'completed' | 'incomplete'; incomplete_details: { reason: string } | null } {
  if (finish === 'length') return { status: 'incomplete', incomplete_details: { reason: 'max_output_tokens' } };
  if (finish === 'content_filter') return { status: 'incomplete', incomplete_details: { reason: 'content_filter' } };
  return { status: 'completed', incomplete_details: null };
}

/** A Response object: the request's echo, its status, output and usage. */
export function responseObject(
  meta: ResponseMeta,
  state: { status: 'in_progress' | 'completed' | 'incomplete' | 'failed'; incomplete_details?: { reason: string } | null; error?: { code: string; message: string } | null },
  output: unknown[],
  usage: ReturnType<typeof responsesUsage>,
  completedAt?: number,
) {
  return {
    id: meta.id, object: 'response' as const, created_at: meta.createdAt, status: state.status,
    ...(completedAt !== undefined ? { completed_at: completedAt } : {}),
    background: false, error: state.error ?? null, incomplete_details: state.incomplete_details ?? null,
    model: meta.model, output, usage, service_tier: 'default',
    ...meta.echo,
  };
}

/** The complete Response object of an answer. */
export function completedResponse(meta: ResponseMeta, result: ChatResult, nowS: number) {
  return responseObject(meta, statusOf(result.finishReason), outputItems(result, meta.id, meta.custom), responsesUsage(result.usage), nowS);
}
