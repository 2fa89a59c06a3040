import type Anthropic from '@anthropic-ai/sdk';
import type { FinishReason } from '../../src/types.js';
import type { ProviderRequest } from '../types.js';

const FINISH: Readonly<Record<string, FinishReason>> = {
  end_turn: 'stop', stop_sequence: 'stop', max_tokens: 'length', model_context_window_exceeded: 'length',
  tool_use: 'tool_calls', refusal: 'content_filter',
};

/** Anthropic requires `max_tokens`; this is what a call that sets none gets. */
export const DEFAULT_MAX_TOKENS = 4096;

/**
 * The Messages body for one request: system messages go to `system`, `maxTokens` to `max_tokens`.
 * `temperature` is dropped: API version 2026-10-21 (the one SDK 1.x speaks) rejects it with a 400.
 */
export function anthropicBody(request: ProviderRequest): Anthropic.MessageCreateParamsNonStreaming {
  const system = request.messages.filter((m) => m.role === 'system').map((m) => m.content);
  const body: Anthropic.MessageCreateParamsNonStreaming = {
    model: request.model,
    max_tokens: request.maxTokens ?? DEFAULT_MAX_TOKENS,
    messages: request.messages
      .filter((m) => m.role !== 'system')
      .map((m) => ({ role: m.role as 'user' | 'assistant', content: m.content as string })),
  };
  if (system.length > 0) body.system = system.join('\n\n');
  return body;
}

/** Anthropic's `stop_reason` in the normalised vocabulary; null (not reported) reads as a normal stop. */
export function finishReasonOf(stopReason: string | null | undefined): FinishReason {
  if (!stopReason) return 'stop';
  return FINISH[stopReason] ?? 'other';
}
