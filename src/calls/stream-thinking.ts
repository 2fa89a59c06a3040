import type { ProviderStreamEvent } from '../../providers/types.js';

// The router's `thinking` stream event and the prompt counters a provider reports up front
// (`start.inputUsage`), and how streamCall makes them of the provider's events (src/calls/stream.ts).

/**
 * A piece of the model's reasoning (only with `streamThinking`): each carries at least one of
 * `delta`, `signature`, `redacted`. The answer's thinking blocks, verbatim with their signatures,
 * are also in `done`'s `result.message.providerParts`, to send back on the next turn.
 */
export interface StreamThinking {
  type: 'thinking';
  /** Numbers the thinking blocks of the turn: 0, 1, ... */
  index: number;
  /** A piece of the block's text. */
  delta?: string;
  /** The block's signature (Anthropic signature_delta, Bedrock reasoningContent signature, Gemini thoughtSignature), once known. */
  signature?: string;
  /** The opaque data of a redacted_thinking block, whole (Bedrock's redactedContent as base64). */
  redacted?: string;
}

/** The prompt's tokens as the provider reported them before the answer (Anthropic's `message_start`). */
export interface InputUsage {
  inputTokens: number;
  cachedInputTokens?: number;
  cacheWriteTokens?: number;
}

type ProviderThinking = Extract<ProviderStreamEvent, { type: 'thinking' }>;

/** A provider's thinking event that carries something to show (its text, signature or redacted data). */
export const showsThinking = (event: ProviderThinking): boolean => event.delta !== undefined || event.signature !== undefined || event.redacted !== undefined;

/** A provider's thinking event as the router's (adapters set `index` with any field; 0 stands in otherwise). */
export const thinkingEvent = (event: ProviderThinking): StreamThinking => (event.index === undefined ? Object.assign({ index: 0 }, event) : event as StreamThinking);

/** The counters of a provider's `usage` event, without its `type`. */
export function inputUsageOf(event: InputUsage): InputUsage {
  const out: InputUsage = { inputTokens: event.inputTokens };
  if (event.cachedInputTokens !== undefined) out.cachedInputTokens = event.cachedInputTokens;
  if (event.cacheWriteTokens !== undefined) out.cacheWriteTokens = event.cacheWriteTokens;
  return out;
}
