import type OpenAI from 'openai';
import type { Usage } from '../../src/types.js';

/**
 * Chat Completions usage, normalised: `prompt_tokens` already counts cached tokens. Cache reads and
 * writes and reasoning tokens are added when the provider reports more than zero of them, so a plain
 * call's usage stays `{ inputTokens, outputTokens }`. Undefined when the response carries no usage
 * (`usage` is optional in the API, and OpenAI-compatible servers leave it out) or one without both
 * counts: unknown, never a count made up as 0.
 */
export function openAIUsage(usage: OpenAI.CompletionUsage | null | undefined): Usage | undefined {
  if (typeof usage?.prompt_tokens !== 'number' || typeof usage.completion_tokens !== 'number') return undefined;
  const out: Usage = { inputTokens: usage.prompt_tokens, outputTokens: usage.completion_tokens };
  const cached = usage.prompt_tokens_details?.cached_tokens;
  const written = usage.prompt_tokens_details?.cache_write_tokens;
  const reasoning = usage.completion_tokens_details?.reasoning_tokens;
  if (cached) out.cachedInputTokens = cached;
  if (written) out.cacheWriteTokens = written;
  if (reasoning) out.reasoningTokens = reasoning;
  return out;
}
