import { approxTokens, fakeAnswer, promptTokens, truncateToTokens } from '../../providers/fake/answer.js';
import type { Message } from '../types.js';

/** A chat request in one shape, whichever API it arrived through. */
export interface SimRequest {
  model: string;
  messages: Message[];
  maxTokens?: number;
  stream: boolean;
  /** OpenAI `stream_options.include_usage`: one extra chunk with the usage before `[DONE]`. */
  includeUsage: boolean;
}

/** The deterministic answer to one request, with honest token counts. */
export interface SimAnswer {
  text: string;
  /** The text in the pieces a stream sends, one delta each; joined they are `text`. */
  pieces: string[];
  finish: 'stop' | 'length';
  inputTokens: number;
  outputTokens: number;
}

/** A failure the simulator answers with; each wire renders it the way its API does. */
export type SimError =
  | { kind: 'server_error' | 'unavailable' | 'overloaded'; status?: number; retryAfterMs?: number }
  | { kind: 'insufficient_quota' }
  | { kind: 'unauthorized'; key: string }
  | { kind: 'missing_key' }
  | { kind: 'rate_limited'; window: 'requests' | 'tokens'; tooLarge: boolean; waitMs: number; limit: number; used: number; requested: number; model: string }
  | { kind: 'invalid_request'; message: string; param?: string | null; code?: string | null }
  | { kind: 'context_length'; limit: number; tokens: number }
  | { kind: 'model_not_found'; model: string }
  | { kind: 'invalid_url'; method: string; path: string }
  | { kind: 'too_large' };

/** True when parsing gave an error to answer with rather than a request. */
export function isSimError(x: SimRequest | SimError): x is SimError {
  return 'kind' in x;
}

/** The text of a message's content: a string, or the `text` of its text parts (both APIs allow parts). */
export function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((part) => (part && typeof part === 'object' && typeof (part as { text?: unknown }).text === 'string' ? (part as { text: string }).text : ''))
    .filter(Boolean)
    .join('\n');
}

/** Maps any API role onto the three the answer generator knows. */
export function roleOf(role: unknown): Message['role'] {
  return role === 'user' || role === 'assistant' ? role : 'system';
}

/** Word-sized pieces, each keeping its leading space, so the deltas join back into the text exactly. */
export function splitPieces(text: string): string[] {
  return text.match(/\s*\S+/g) ?? (text ? [text] : []);
}

/** Prompt tokens the way the simulator counts them (and charges them against TPM). */
export function inputTokensOf(request: SimRequest): number {
  return promptTokens(request.messages);
}

/** The answer a request gets: same prompt and model, same words; cut at `maxTokens` with finish `length`. */
export function answerFor(request: SimRequest): SimAnswer {
  const { text, truncated } = truncateToTokens(fakeAnswer(request.messages, request.model), request.maxTokens);
  return {
    text,
    pieces: splitPieces(text),
    finish: truncated ? 'length' : 'stop',
    inputTokens: inputTokensOf(request),
    outputTokens: text ? approxTokens(text) : 0,
  };
}

/** What a request reserves against TPM: its prompt plus `max_tokens` (or, without one, its answer). */
export function tokenCharge(request: SimRequest, answer: SimAnswer): number {
  return answer.inputTokens + (request.maxTokens ?? answer.outputTokens);
}
