import { randomUUID } from 'node:crypto';
import type OpenAI from 'openai';
import type { ChatResult, FinishReason, ToolCall, Usage } from '../types.js';

/** Options of `toOpenAI` and the stream-chunk converter: what the OpenAI envelope needs that a result does not hold. */
export interface ToOpenAIOptions {
  /** @default 'chatcmpl-' and a random id */
  id?: string;
  /** Unix seconds. @default now */
  created?: number;
  /** The `model` to report (a gateway may report the chain's name). @default the model that answered */
  model?: string;
}

const FINISH: Readonly<Record<FinishReason, OpenAI.ChatCompletion.Choice['finish_reason']>> = {
  stop: 'stop', length: 'length', tool_calls: 'tool_calls', content_filter: 'content_filter', other: 'stop',
};

/** A finish reason as OpenAI names it (`other`, which OpenAI has no word for, reads as `stop`). */
export function openAIFinishReasonOf(reason: FinishReason): OpenAI.ChatCompletion.Choice['finish_reason'] {
  return FINISH[reason] ?? 'stop';
}

/** A tool call as OpenAI sends it: arguments as a JSON string. */
export function openAIToolCallOf(call: ToolCall): OpenAI.ChatCompletionMessageFunctionToolCall {
  return { id: call.id, type: 'function', function: { name: call.name, arguments: JSON.stringify(call.arguments) } };
}

/** Usage as OpenAI reports it: cached prompt tokens and reasoning tokens in their details (0 when not reported). */
export function openAIUsageOf(usage: Usage): OpenAI.CompletionUsage {
  return {
    prompt_tokens: usage.inputTokens,
    completion_tokens: usage.outputTokens,
    total_tokens: usage.inputTokens + usage.outputTokens,
    prompt_tokens_details: { cached_tokens: usage.cachedInputTokens ?? 0, ...(usage.cacheWriteTokens ? { cache_write_tokens: usage.cacheWriteTokens } : {}) },
    completion_tokens_details: { reasoning_tokens: usage.reasoningTokens ?? 0 },
  };
}

/** A fresh completion id, `chatcmpl-` like OpenAI's. */
export function completionId(): string {
  return `chatcmpl-${randomUUID().replace(/-/g, '')}`;
}

/**
 * A `ChatResult` as an OpenAI `ChatCompletion`, whichever provider answered: the text as `content`
 * (null when the answer is only tool calls), tool calls with JSON-string arguments, the finish
 * reason, and usage with `cached_tokens` and `reasoning_tokens` (no `usage` when the result has none).
 * A refusal (`content_filter`) puts
 * its text in `refusal`, with `content` null, as OpenAI does.
 * @example res.json(toOpenAI(await router.chat(fromOpenAI(req.body))));
 */
export function toOpenAI(result: ChatResult, options: ToOpenAIOptions = {}): OpenAI.ChatCompletion {
  const refused = result.finishReason === 'content_filter' && result.text !== '';
  const message: OpenAI.ChatCompletionMessage = {
    role: 'assistant',
    content: refused || (result.text === '' && result.toolCalls.length > 0) ? null : result.text,
    refusal: refused ? result.text : null,
    annotations: [],
    ...(result.toolCalls.length > 0 ? { tool_calls: result.toolCalls.map(openAIToolCallOf) } : {}),
  };
  return {
    id: options.id ?? completionId(),
    object: 'chat.completion',
    created: options.created ?? Math.floor(Date.now() / 1000),
    model: options.model ?? result.model,
    choices: [{ index: 0, message, logprobs: null, finish_reason: openAIFinishReasonOf(result.finishReason) }],
    // Usage the provider never reported stays unreported (the field is optional): unknown, not 0.
    ...(result.usage ? { usage: openAIUsageOf(result.usage) } : {}),
  };
}
