import type { FinishReason, ToolCall } from '../../src/types.js';
import { truncatedStream } from '../shared/stream-errors.js';
import { malformedResponse } from '../shared/transport-error.js';
import type { ProviderCallOptions, ProviderRequest, ProviderStreamEvent } from '../types.js';
import type { GeminiClient } from './client.js';
import { blockedPrompt, geminiFinishReason, malformedFunctionCall } from './finish-reason.js';
import { mapGeminiError } from './map-error.js';
import { geminiBody } from './request-body.js';
import { replayParts, toolCallOf } from './response.js';
import { sseData } from './sse.js';
import { geminiUsage } from './usage.js';
import type { GeminiPart, GeminiResponse } from './wire-types.js';

export interface GeminiStreamContext {
  client: GeminiClient;
  where: { provider: string; model: string };
  now: () => number;
}

/** A stream's parts as they will be replayed: text pieces without a signature merged, every other part kept whole. */
function keep(parts: GeminiPart[], part: GeminiPart): void {
  const last = parts.at(-1);
  const plain = (p: GeminiPart | undefined) => p !== undefined && typeof p.text === 'string' && p.thought !== true && p.thoughtSignature === undefined && Object.keys(p).length === 1;
  if (plain(part) && plain(last)) last!.text += part.text!;
  else parts.push({ ...part });
}

/**
 * `streamGenerateContent?alt=sse`: every `data:` event is a whole `GenerateContentResponse` holding
 * the next pieces of the first candidate's parts, with `usageMetadata` as running totals. Text pieces
 * yield `delta`s, thought summaries (`thought: true`) `thinking` deltas, and a `thoughtSignature` (on
 * any part: a thought, text, a function call) a `thinking` signature, after the part's own events
 * (https://ai.google.dev/gemini-api/docs/thinking#signatures; @google/genai's Part type). A run of
 * thought parts is one thinking block; its signature, or one on the parts after it, is that block's
 * (0 before any thought). A function call arrives whole in one
 * part and yields its start, its arguments and its end at once. The terminal signal is a candidate's
 * `finishReason`; `finish` follows when the body ends (a cut after it loses nothing), and a body that
 * ends before one is a cut stream. A `data: {"error": ...}` frame is thrown as its `RouterError`.
 */
export async function* streamGemini(ctx: GeminiStreamContext, request: ProviderRequest, options: ProviderCallOptions): AsyncGenerator<ProviderStreamEvent> {
  const { client, where } = ctx;
  const { res, signal, release } = await ctx.client.stream(request.model, geminiBody(request, where.provider), options);
  try {
    yield { type: 'open' };
    if (!res.body) throw malformedResponse(where, 'no event stream');
    const parts: GeminiPart[] = [];
    const calls: ToolCall[] = [];
    let reason: string | undefined;
    let finishMessage: string | undefined;
    let last: GeminiResponse | undefined;
    // Thinking blocks: the current one's index (-1 before any), and whether the last part was a thought.
    let thought = -1;
    let inThought = false;
    try {
      for await (const data of sseData(res.body)) {
        let chunk: GeminiResponse & { error?: unknown };
        try {
          chunk = JSON.parse(data);
        } catch {
          throw malformedResponse(where, 'an event that is not JSON');
        }
        if (chunk.error) throw mapGeminiError({ body: chunk }, Object.assign({}, where, { nowMs: ctx.now(), redact: client.redact }));
        last = chunk;
        const candidate = chunk.candidates?.[0];
        if (!candidate) {
          if (chunk.promptFeedback?.blockReason) throw blockedPrompt(chunk.promptFeedback.blockReason, where);
          continue;
        }
        for (const part of candidate.content?.parts ?? []) {
          keep(parts, part);
          if (part.functionCall) {
            const call = toolCallOf(part, calls.length, chunk.responseId);
            const index = calls.push(call) - 1;
            yield { type: 'tool_call_start', index, id: call.id, name: call.name };
            yield { type: 'tool_call_delta', index, argumentsDelta: JSON.stringify(call.arguments) };
            yield { type: 'tool_call_end', index };
          } else if (part.thought === true) {
            if (!inThought) thought++;
            yield typeof part.text === 'string' && part.text !== '' ? { type: 'thinking', index: thought, delta: part.text } : { type: 'thinking' };
          } else if (typeof part.text === 'string' && part.text !== '') {
            yield { type: 'delta', text: part.text };
          }
          inThought = part.thought === true;
          if (part.thoughtSignature) yield { type: 'thinking', index: Math.max(thought, 0), signature: part.thoughtSignature };
        }
        if (candidate.finishReason) {
          reason = candidate.finishReason;
          finishMessage = candidate.finishMessage;
        }
      }
    } catch (err) {
      // A cut after the finish reason loses nothing of the answer; any other failure is the stream's.
      if (!reason) throw client.failure(err, where, signal);
    }
    if (!reason) throw truncatedStream(where, 'a finishReason');
    if (reason === 'MALFORMED_FUNCTION_CALL') throw malformedFunctionCall(finishMessage, where);
    const finishReason: FinishReason = geminiFinishReason(reason, calls.length > 0);
    const providerParts = replayParts(parts);
    const usage = geminiUsage(last?.usageMetadata);
    yield {
      type: 'finish',
      finishReason,
      ...(usage ? { usage } : {}),
      ...(last?.modelVersion ? { model: last.modelVersion } : {}),
      ...(providerParts ? { providerParts } : {}),
    };
  } finally {
    release();
  }
}
