import { answerChunks, planAnswer, requestPromptTokens, type Answer, type AnswerChunk, type AnswerFormat, type AnswerTool } from '../../providers/shared/answers/index.js';
import type { Message, ToolChoice } from '../types.js';
import type { CachePoint } from './cache-points.js';

export { splitPieces } from '../../providers/shared/answers/index.js';

/** A chat request in one shape, whichever API it arrived through. */
export interface SimRequest {
  model: string;
  /** The conversation in the router's own message shape (parts, tool calls, tool results). */
  messages: Message[];
  maxTokens?: number;
  stream: boolean;
  /** OpenAI `stream_options.include_usage`: one extra chunk with the usage before `[DONE]`. */
  includeUsage: boolean;
  tools?: AnswerTool[];
  toolChoice?: ToolChoice;
  parallelToolCalls?: boolean;
  responseFormat?: AnswerFormat;
  /**
   * OpenAI `reasoning_effort`; Anthropic `output_config.effort` when thinking is on (default `high`);
   * Gemini's level or budget. `spendTokens` (Gemini `thinkingBudget`): the model thinks its whole budget.
   */
  reasoning?: { effort: string; spendTokens?: number };
  /** Anthropic extended thinking: the answer starts with a thinking block. */
  thinking?: { display: 'summarized' | 'omitted' };
  /** OpenAI Responses `include: ['reasoning.encrypted_content']` with a reasoning effort: the output opens with a `reasoning` item. */
  encryptedReasoning?: boolean;
  /** Anthropic `cache_control`, Bedrock `cachePoint`: where the request asked for its prompt to be cached. */
  cachePoints?: CachePoint[];
}

/** The deterministic answer to one request, with honest token counts. */
export interface SimAnswer extends Answer {
  /** The answer in the chunks a stream sends (text deltas, tool-call starts, argument fragments). */
  chunks: AnswerChunk[];
  /** Every prompt token, cached ones included (OpenAI's `prompt_tokens`). */
  inputTokens: number;
  /** Of `inputTokens`, read from the prompt cache. */
  cachedInputTokens: number;
  /** Of `inputTokens`, written to the prompt cache. */
  cacheWriteTokens: number;
  /** Of `cacheWriteTokens`, written with a 1-hour lifetime (the rest: 5 minutes). */
  cacheWrite1hTokens: number;
}

/** The window of a rate limit that ran out. */
export type LimitWindow = 'requests' | 'tokens' | 'input_tokens' | 'output_tokens';

/** A failure the simulator answers with; each wire renders it the way its API does. */
export type SimError =
  | { kind: 'server_error' | 'unavailable' | 'overloaded'; status?: number; retryAfterMs?: number }
  | { kind: 'insufficient_quota' }
  | { kind: 'unauthorized'; key: string }
  | { kind: 'missing_key' }
  | { kind: 'rate_limited'; window: LimitWindow; tooLarge: boolean; waitMs: number; limit: number; used: number; requested: number; model: string }
  | { kind: 'invalid_request'; message: string; param?: string | null; code?: string | null }
  | { kind: 'context_length'; limit: number; tokens: number }
  | { kind: 'model_not_found'; model: string }
  | { kind: 'invalid_url'; method: string; path: string }
  | { kind: 'too_large' };

/** True when parsing gave an error to answer with rather than a request. */
export function isSimError<T extends object>(x: T | SimError): x is SimError {
  return 'kind' in x;
}

/** The text of a content value: a string, or the `text` of its text parts (both APIs allow parts). */
export function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((part) => (part && typeof part === 'object' && typeof (part as { text?: unknown }).text === 'string' ? (part as { text: string }).text : ''))
    .filter(Boolean)
    .join('\n');
}

/** Prompt tokens the way the simulator counts them (and charges them against TPM): `requestPromptTokens`. */
export function inputTokensOf(request: SimRequest): number {
  return requestPromptTokens(request);
}

/** How much of a prompt the prompt cache serves: shares of the prompt read from it and written to it. */
export interface CacheSplit {
  readShare: number;
  writeShare: number;
  minTokens: number;
}

/**
 * The answer a request gets (`planAnswer`): same request, same answer. With a prompt cache, the
 * first `floor(readShare × prompt)` tokens were read from it and the next `floor(writeShare × prompt)`
 * written to it, for prompts of at least `minTokens`.
 */
export function answerFor(request: SimRequest, options: { invalidJson?: boolean; textBeforeToolCalls?: boolean; cache?: CacheSplit } = {}): SimAnswer {
  const answer = planAnswer(request, options);
  const inputTokens = inputTokensOf(request);
  const cache = options.cache;
  const cached = cache && inputTokens >= cache.minTokens ? Math.floor(inputTokens * cache.readShare) : 0;
  const written = cache && inputTokens >= cache.minTokens ? Math.min(inputTokens - cached, Math.floor(inputTokens * cache.writeShare)) : 0;
  return { ...answer, chunks: answerChunks(answer), inputTokens, cachedInputTokens: cached, cacheWriteTokens: written, cacheWrite1hTokens: 0 };
}
