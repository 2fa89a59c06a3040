import type { Usage } from '../../src/types.js';

/** The counters of Anthropic's `usage` (a response's, `message_start`'s, or the latest `message_delta`'s). */
export interface AnthropicUsageCounters {
  input_tokens?: number | null;
  cache_creation_input_tokens?: number | null;
  cache_read_input_tokens?: number | null;
  /** The writes by lifetime (`Usage.cache_creation` in the SDK types; a `message_delta` has none). */
  cache_creation?: { ephemeral_5m_input_tokens?: number | null; ephemeral_1h_input_tokens?: number | null } | null;
  output_tokens?: number | null;
  output_tokens_details?: { thinking_tokens?: number | null } | null;
}

/**
 * Anthropic usage, normalised: its `input_tokens` is only the uncached remainder, so the input total
 * is input + cache writes + cache reads (what OpenAI's `prompt_tokens` means). Cache reads, writes
 * and thinking tokens are added when more than zero; the writes' split by lifetime (`cache_creation`:
 * `ephemeral_5m_input_tokens`, `ephemeral_1h_input_tokens`) is added, both parts, when it reports
 * any (a split of zeros beside a write says nothing, and is left out). Undefined when the counters lack the input or
 * the output count (a stream whose `message_start` or `message_delta` carried none): unknown, never
 * a count made up as 0.
 */
export function anthropicUsage(usage: AnthropicUsageCounters | null | undefined): Usage | undefined {
  if (typeof usage?.input_tokens !== 'number' || typeof usage.output_tokens !== 'number') return undefined;
  const read = usage.cache_read_input_tokens ?? 0;
  const written = usage.cache_creation_input_tokens ?? 0;
  const out: Usage = { inputTokens: usage.input_tokens + written + read, outputTokens: usage.output_tokens };
  if (read) out.cachedInputTokens = read;
  if (written) {
    out.cacheWriteTokens = written;
    const m5 = usage.cache_creation?.ephemeral_5m_input_tokens ?? 0;
    const h1 = usage.cache_creation?.ephemeral_1h_input_tokens ?? 0;
    if (m5 + h1 > 0) {
      out.cacheWrite5mTokens = m5;
      out.cacheWrite1hTokens = h1;
    }
  }
  const thinking = usage.output_tokens_details?.thinking_tokens;
  if (thinking) out.reasoningTokens = thinking;
  return out;
}

/**
 * Folds a `message_delta`'s usage into the stream's running counters: its counters are cumulative
 * whole-message totals, present only when they apply, so they overwrite and never add.
 */
export function mergeUsageCounters(current: AnthropicUsageCounters, delta: AnthropicUsageCounters | null | undefined): AnthropicUsageCounters {
  if (!delta) return current;
  const next = { ...current };
  for (const key of ['input_tokens', 'cache_creation_input_tokens', 'cache_read_input_tokens', 'output_tokens'] as const) {
    if (typeof delta[key] === 'number') next[key] = delta[key];
  }
  if (delta.output_tokens_details) next.output_tokens_details = delta.output_tokens_details;
  if (delta.cache_creation) next.cache_creation = delta.cache_creation;
  return next;
}
