import type { FinishReason, ProviderParts, ToolCall } from '../../src/types.js';
import { malformedResponse } from '../shared/transport-error.js';
import { blockedPrompt, geminiFinishReason, malformedFunctionCall } from './finish-reason.js';
import { geminiToolCallId } from './tool-ids.js';
import type { GeminiPart, GeminiResponse } from './wire-types.js';

interface Where {
  provider: string;
  model: string;
}

/** The parts to replay on the next turn, when they carry what only Gemini understands (thought signatures, thoughts). */
export function replayParts(parts: readonly GeminiPart[]): ProviderParts | undefined {
  return parts.some((p) => p.thoughtSignature !== undefined || p.thought === true) ? { api: 'gemini', blocks: [...parts] } : undefined;
}

/** A function call as the router's `ToolCall`: its id (the API's, or a stable one of ours), name and arguments. */
export function toolCallOf(part: GeminiPart, ordinal: number, responseId: string | undefined): ToolCall {
  const call = part.functionCall!;
  const args = call.args;
  return { id: geminiToolCallId(call, ordinal, responseId), name: call.name, arguments: typeof args === 'object' && args !== null && !Array.isArray(args) ? args : {} };
}

/**
 * The answer of a `generateContent` response: the first candidate's text (thought summaries left
 * out), its function calls, why it finished, and its parts as provider parts when they carry thought
 * signatures. A prompt blocked before any candidate is `content_filter`; a candidate that stopped on
 * a malformed function call is `invalid_output`; calls of an answer cut at `length` are not returned.
 */
export function geminiAnswer(data: GeminiResponse, where: Where): { text: string; toolCalls: ToolCall[]; finishReason: FinishReason; providerParts?: ProviderParts } {
  if (!data || typeof data !== 'object') throw malformedResponse(where, 'not a JSON object');
  const candidate = data.candidates?.[0];
  if (!candidate) {
    if (data.promptFeedback?.blockReason) throw blockedPrompt(data.promptFeedback.blockReason, where);
    throw malformedResponse(where, 'no candidates');
  }
  if (candidate.finishReason === 'MALFORMED_FUNCTION_CALL') throw malformedFunctionCall(candidate.finishMessage, where);
  const parts = Array.isArray(candidate.content?.parts) ? candidate.content.parts : [];
  let text = '';
  const calls: ToolCall[] = [];
  for (const part of parts) {
    if (part.functionCall) calls.push(toolCallOf(part, calls.length, data.responseId));
    else if (typeof part.text === 'string' && part.thought !== true) text += part.text;
  }
  const finishReason = geminiFinishReason(candidate.finishReason, calls.length > 0);
  const providerParts = replayParts(parts);
  return { text, toolCalls: finishReason === 'length' ? [] : calls, finishReason, ...(providerParts ? { providerParts } : {}) };
}
