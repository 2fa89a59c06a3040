import type OpenAI from 'openai';
import { RouterError } from '../../../src/errors.js';
import type { FinishReason, ProviderParts, ToolCall, Usage } from '../../../src/types.js';
import { parseToolArguments } from '../../shared/tool-arguments.js';
import { malformedResponse } from '../../shared/transport-error.js';

interface Where {
  provider: string;
  model: string;
}

/**
 * Responses usage, normalised: `input_tokens` already counts cached ones; details only when above
 * zero. Undefined when the response has no usage or one without both counts: unknown, never 0.
 */
export function responsesUsage(usage: OpenAI.Responses.ResponseUsage | null | undefined): Usage | undefined {
  if (typeof usage?.input_tokens !== 'number' || typeof usage.output_tokens !== 'number') return undefined;
  const out: Usage = { inputTokens: usage.input_tokens, outputTokens: usage.output_tokens };
  const cached = usage.input_tokens_details?.cached_tokens;
  const written = usage.input_tokens_details?.cache_write_tokens;
  const reasoning = usage.output_tokens_details?.reasoning_tokens;
  if (cached) out.cachedInputTokens = cached;
  if (written) out.cacheWriteTokens = written;
  if (reasoning) out.reasoningTokens = reasoning;
  return out;
}

/**
 * Why a response stopped, from its `status` and `incomplete_details` (the Responses API has no
 * `finish_reason`): `incomplete` at `max_output_tokens` is `length`, at `content_filter` is
 * `content_filter`; a completed one with calls is `tool_calls`, a refusal `content_filter`.
 */
export function responsesFinishReason(
  status: string | null | undefined,
  incomplete: { reason?: string } | null | undefined,
  facts: { toolCalls: boolean; refusal: boolean },
): FinishReason {
  if (status === 'incomplete') {
    if (incomplete?.reason === 'max_output_tokens') return 'length';
    if (incomplete?.reason === 'content_filter') return 'content_filter';
    return 'other';
  }
  if (facts.refusal) return 'content_filter';
  if (facts.toolCalls) return 'tool_calls';
  return status === 'completed' ? 'stop' : 'other';
}

/** Output items only this API can replay: reasoning, and a freeform (`custom`) tool's call, answered by `custom_tool_call_output`. */
const REPLAYED = new Set(['reasoning', 'custom_tool_call']);

/** The output items kept for the next turn: all of them, when a reasoning item or a freeform call is among them (else none is needed). */
export function reasoningParts(items: readonly unknown[]): ProviderParts | undefined {
  return items.some((i) => REPLAYED.has((i as { type?: unknown }).type as string)) ? { api: 'openai-responses', items: [...items] } : undefined;
}

/** A freeform tool's call as a tool call: its text is the one argument, `input` (as the gateway reads a client's `custom_tool_call`). */
export function customCall(item: { call_id: string; name: string; input: string }): ToolCall {
  return { id: item.call_id, name: item.name, arguments: { input: item.input } };
}

/** A `response.failed` (or a non-stream `status: "failed"`): the provider failed mid-answer. */
export function failedResponse(response: Pick<OpenAI.Responses.Response, 'error'>, where: Where): RouterError {
  const error = response.error;
  const code = error?.code ?? undefined;
  const kind = code === 'rate_limit_exceeded' ? 'rate_limited' : 'server';
  return new RouterError(kind, `${where.provider} response failed: ${error?.message ?? 'no reason given'}`, Object.assign({}, where, { code: code ?? 'response_failed' }));
}

/**
 * The answer of a Responses call: the text of its `message` items (a refusal's text when the model
 * refused), its `function_call` items as tool calls (id = `call_id`, the pairing key of
 * `function_call_output`; arguments parsed, invalid JSON throws `invalid_output`) and its
 * `custom_tool_call` items (a freeform tool's, arguments `{input}`), why it stopped,
 * and, with reasoning items among the output, every item as `providerParts` for the next turn.
 * Calls of an answer cut at `length` are not returned: their arguments are cut too.
 */
export function responsesAnswer(data: OpenAI.Responses.Response, where: Where): {
  text: string; toolCalls: ToolCall[]; finishReason: FinishReason; providerParts?: ProviderParts;
} {
  if (!data || !Array.isArray(data.output)) throw malformedResponse(where, 'no output');
  if (data.status === 'failed') throw failedResponse(data, where);
  let text = '';
  let refusal = '';
  const calls: Array<OpenAI.Responses.ResponseFunctionToolCall | OpenAI.Responses.ResponseCustomToolCall> = [];
  for (const item of data.output) {
    if (item.type === 'message') {
      for (const part of item.content) {
        if (part.type === 'output_text') text += part.text;
        else if (part.type === 'refusal') refusal += part.refusal;
      }
    } else if (item.type === 'function_call' || item.type === 'custom_tool_call') {
      calls.push(item);
    }
  }
  const finishReason = responsesFinishReason(data.status, data.incomplete_details, { toolCalls: calls.length > 0, refusal: refusal !== '' });
  const toolCalls = finishReason === 'length' ? [] : calls.map((c) => (c.type === 'custom_tool_call' ? customCall(c) : { id: c.call_id, name: c.name, arguments: parseToolArguments(c.arguments ?? '', c.name, where) }));
  const providerParts = reasoningParts(data.output);
  return { text: refusal || text, toolCalls, finishReason, ...(providerParts ? { providerParts } : {}) };
}
