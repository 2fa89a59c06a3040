import type { Usage } from '../../src/types.js';
import type { GeminiUsage } from './wire-types.js';

/**
 * `usageMetadata`, normalised: `promptTokenCount` already counts the tokens served from the cache
 * (`cachedContentTokenCount`), so it is the input total as is; output is the answer's tokens plus the
 * thinking's (`candidatesTokenCount` leaves `thoughtsTokenCount` out, and both are billed as
 * output). Cache reads and thinking tokens are added when more than zero. `toolUsePromptTokenCount`
 * (Google's own tools: search, code execution) is not counted: this adapter sends none. Undefined
 * when there is no `usageMetadata` or it has no `promptTokenCount`: unknown, never 0 (an absent
 * output count is 0, as proto3 JSON leaves zeros out, but every prompt has tokens).
 */
export function geminiUsage(usage: GeminiUsage | undefined): Usage | undefined {
  if (typeof usage?.promptTokenCount !== 'number') return undefined;
  const thoughts = usage.thoughtsTokenCount ?? 0;
  const out: Usage = { inputTokens: usage.promptTokenCount, outputTokens: (usage.candidatesTokenCount ?? 0) + thoughts };
  const cached = usage.cachedContentTokenCount;
  if (cached) out.cachedInputTokens = cached;
  if (thoughts) out.reasoningTokens = thoughts;
  return out;
}
