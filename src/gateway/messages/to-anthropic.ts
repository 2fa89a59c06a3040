import { randomUUID } from 'node:crypto';
import type Anthropic from '@anthropic-ai/sdk';
import type { ChatResult, FinishReason, Usage } from '../../types.js';

const STOP: Readonly<Record<FinishReason, Anthropic.StopReason>> = {
  stop: 'end_turn', length: 'max_tokens', tool_calls: 'tool_use', content_filter: 'refusal', other: 'end_turn',
};

/** A finish reason as Anthropic names it. */
export function anthropicStopReason(reason: FinishReason): Anthropic.StopReason {
  return STOP[reason] ?? 'end_turn';
}

/** A fresh message id, `msg_` like Anthropic's. */
export function messageId(): string {
  return `msg_${randomUUID().replace(/-/g, '')}`;
}

/** The usage counters of the Messages wire: numbers, never null (the SDK's and Claude Code's sums read them as numbers). */
export interface AnthropicUsage {
  input_tokens: number;
  output_tokens: number;
  cache_creation_input_tokens: number;
  cache_read_input_tokens: number;
}

/**
 * Usage as Anthropic reports it: `input_tokens` without the cache reads and writes (Switchyard's
 * `inputTokens` counts them, as OpenAI does). The wire has no "unknown": a provider that reported
 * none reads as zeros here (the `x-switchyard-usage: unknown` header says so on a JSON answer).
 */
export function anthropicUsageOf(usage: Pick<Usage, 'inputTokens' | 'outputTokens' | 'cachedInputTokens' | 'cacheWriteTokens'> | undefined): AnthropicUsage {
  if (!usage) return { input_tokens: 0, output_tokens: 0, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 };
  const read = usage.cachedInputTokens ?? 0;
  const written = usage.cacheWriteTokens ?? 0;
  return {
    input_tokens: Math.max(0, usage.inputTokens - read - written),
    output_tokens: usage.outputTokens,
    cache_creation_input_tokens: written,
    cache_read_input_tokens: read,
  };
}

/**
 * The writes by lifetime, as Anthropic's `Message.usage.cache_creation` (the SDK's `CacheCreation`):
 * the provider's split when it reported one, else every write a 5-minute one (the default lifetime).
 * Null when usage is unknown. A `message_delta`'s usage has no such field (`MessageDeltaUsage`).
 */
export function anthropicCacheCreationOf(usage: Usage | undefined): { ephemeral_5m_input_tokens: number; ephemeral_1h_input_tokens: number } | null {
  if (!usage) return null;
  const h1 = usage.cacheWrite1hTokens ?? 0;
  return { ephemeral_5m_input_tokens: usage.cacheWrite5mTokens ?? Math.max(0, (usage.cacheWriteTokens ?? 0) - h1), ephemeral_1h_input_tokens: h1 };
}

/** The content blocks of an answer: Anthropic's own blocks when an Anthropic target answered with thinking (they must round-trip verbatim), else text then tool_use. */
export function contentOf(result: ChatResult): unknown[] {
  const parts = result.message.providerParts;
  if (parts?.api === 'anthropic' && Array.isArray(parts.blocks) && parts.blocks.length > 0) return parts.blocks;
  const blocks: unknown[] = [];
  if (result.text !== '') blocks.push({ type: 'text', text: result.text });
  for (const call of result.toolCalls) blocks.push({ type: 'tool_use', id: call.id, name: call.name, input: call.arguments });
  return blocks;
}

/**
 * A `ChatResult` as an Anthropic `Message`, whichever provider answered: content blocks, the stop
 * reason in Anthropic's words, usage with cache reads and writes apart from `input_tokens` (writes
 * split by lifetime in `cache_creation`).
 */
export function toAnthropic(result: ChatResult, model = result.model): Record<string, unknown> {
  return {
    id: messageId(),
    type: 'message',
    role: 'assistant',
    model,
    content: contentOf(result),
    stop_reason: anthropicStopReason(result.finishReason),
    stop_sequence: null,
    usage: Object.assign(anthropicUsageOf(result.usage), { cache_creation: anthropicCacheCreationOf(result.usage) }),
  };
}
