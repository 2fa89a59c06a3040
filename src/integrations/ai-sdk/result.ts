import type {
  JSONValue, LanguageModelV3Content, LanguageModelV3FinishReason, LanguageModelV3Usage, SharedV3ProviderMetadata,
} from '@ai-sdk/provider';
import type { ChatResult, FinishReason, Usage } from '../../types.js';
import { PROVIDER_KEY } from './prompt.js';

const FINISH: Readonly<Record<FinishReason, LanguageModelV3FinishReason['unified']>> = {
  stop: 'stop', length: 'length', tool_calls: 'tool-calls', content_filter: 'content-filter', other: 'other',
};

/** Switchyard's finish reason in the AI SDK's terms (`raw`: Switchyard's own name). */
export const finishReasonOf = (reason: FinishReason): LanguageModelV3FinishReason => ({ unified: FINISH[reason] ?? 'other', raw: reason });

/** Usage in the AI SDK's shape: cached prompt tokens are part of the input, reasoning part of the output. */
export function usageOf(usage: Usage | undefined): LanguageModelV3Usage {
  if (!usage) {
    return { inputTokens: { total: undefined, noCache: undefined, cacheRead: undefined, cacheWrite: undefined }, outputTokens: { total: undefined, text: undefined, reasoning: undefined } };
  }
  const cached = (usage.cachedInputTokens ?? 0) + (usage.cacheWriteTokens ?? 0);
  return {
    inputTokens: { total: usage.inputTokens, noCache: usage.inputTokens - cached, cacheRead: usage.cachedInputTokens, cacheWrite: usage.cacheWriteTokens },
    outputTokens: { total: usage.outputTokens, text: usage.outputTokens - (usage.reasoningTokens ?? 0), reasoning: usage.reasoningTokens },
    raw: JSON.parse(JSON.stringify(usage)) as Record<string, JSONValue>,
  };
}

/**
 * What Switchyard knows about the answer, under `providerMetadata.switchyard`: the target that
 * answered, every attempt, the latency, and the assistant turn's provider parts (Anthropic thinking
 * blocks), which the AI SDK hands back on the next step so they round-trip.
 */
export function metadataOf(result: ChatResult): SharedV3ProviderMetadata {
  const facts = {
    provider: result.provider, model: result.model, attempts: result.attempts, latencyMs: result.latencyMs,
    requestId: result.requestId, timeToFirstTokenMs: result.timeToFirstTokenMs, replayed: result.replayed, cached: result.cached,
  };
  return { [PROVIDER_KEY]: JSON.parse(JSON.stringify(facts)) as Record<string, JSONValue> };
}

/** Provider parts of the answer as the metadata of its first content part (where the AI SDK keeps them for the next turn). */
function partsMetadata(result: ChatResult): SharedV3ProviderMetadata | undefined {
  const parts = result.message.providerParts;
  return parts ? { [PROVIDER_KEY]: { providerParts: JSON.parse(JSON.stringify(parts)) as JSONValue } } : undefined;
}

/**
 * The answer as AI SDK content: its text, then its tool calls (input as JSON text). `hasText`: whether
 * the answer had text, for a streamed result that does not carry it (`keepText: false`).
 */
export function contentOf(result: ChatResult, hasText = result.text !== ''): LanguageModelV3Content[] {
  const content: LanguageModelV3Content[] = [];
  const meta = partsMetadata(result);
  if (hasText) content.push({ type: 'text', text: result.text, ...(meta ? { providerMetadata: meta } : {}) });
  result.toolCalls.forEach((call, i) => {
    const first = i === 0 && !hasText && meta;
    content.push({ type: 'tool-call', toolCallId: call.id, toolName: call.name, input: JSON.stringify(call.arguments), ...(first ? { providerMetadata: meta } : {}) });
  });
  return content;
}
