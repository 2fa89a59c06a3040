import { RouterError } from '../../src/errors.js';
import type { FinishReason } from '../../src/types.js';

/** Every reason the output was withheld by a filter: safety, policy, block lists, personal data, recitation. */
const FILTERED = new Set([
  'SAFETY', 'RECITATION', 'BLOCKLIST', 'PROHIBITED_CONTENT', 'SPII', 'IMAGE_SAFETY', 'IMAGE_PROHIBITED_CONTENT', 'IMAGE_RECITATION',
]);

/**
 * A candidate's `finishReason` in the normalised vocabulary, given whether it called functions:
 * `STOP` with function calls is `tool_calls` (Gemini has no reason of its own for them), `MAX_TOKENS`
 * is `length`, a filter's reason is `content_filter`; the rest (`LANGUAGE`, `OTHER`,
 * `UNEXPECTED_TOOL_CALL`, `TOO_MANY_TOOL_CALLS`, unknown ones) are `other`.
 */
export function geminiFinishReason(reason: string | undefined, toolCalls: boolean): FinishReason {
  if (reason === 'MAX_TOKENS') return 'length';
  if (reason && FILTERED.has(reason)) return 'content_filter';
  if (toolCalls) return 'tool_calls';
  if (reason === 'STOP' || reason === undefined) return 'stop';
  return 'other';
}

/**
 * `MALFORMED_FUNCTION_CALL`: the model wrote a call that is not valid. Like a tool call whose
 * arguments are not JSON, it is `invalid_output`, with the call as the model wrote it (Gemini puts it
 * in `finishMessage`) as the raw text.
 */
export function malformedFunctionCall(finishMessage: string | undefined, where: { provider: string; model: string }): RouterError {
  return new RouterError('invalid_output', `${where.provider} answered a function call that is not valid (MALFORMED_FUNCTION_CALL)`, Object.assign({}, where, { code: 'malformed_function_call', raw: finishMessage ?? '' }));
}

/** A prompt Gemini refused to answer at all (`promptFeedback.blockReason`): `content_filter`, thrown. */
export function blockedPrompt(blockReason: string, where: { provider: string; model: string }): RouterError {
  return new RouterError('content_filter', `${where.provider} blocked the prompt (${blockReason})`, Object.assign({}, where, { code: `prompt_blocked_${blockReason.toLowerCase()}` }));
}
