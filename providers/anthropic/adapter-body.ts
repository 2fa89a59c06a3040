import type Anthropic from '@anthropic-ai/sdk';
import type { FinishReason } from '../../src/types.js';
import type { ProviderRequest } from '../types.js';
import { anthropicHistory } from './messages.js';
import { anthropicOutputConfig } from './output-config.js';
import { anthropicMaxTokens, anthropicParameters } from './parameters.js';
import { anthropicTools } from './tools.js';

const FINISH: Readonly<Record<string, FinishReason>> = {
  end_turn: 'stop', stop_sequence: 'stop', max_tokens: 'length', model_context_window_exceeded: 'length',
  tool_use: 'tool_calls', refusal: 'content_filter',
};

/** Anthropic requires `max_tokens`; this is what a call that sets none gets. */
export const DEFAULT_MAX_TOKENS = 4096;

/**
 * The Messages body for one request: system and developer messages go to `system`, `maxTokens` to
 * `max_tokens`; messages, tools, `output_config` and parameters are each mapped in their own module.
 * `temperature` and `top_p` are dropped: API version 2026-10-21 (the one SDK 1.x speaks) rejects
 * them with a 400. The request's `extraBody` is merged last, verbatim, so it wins.
 */
export function anthropicBody(request: ProviderRequest, provider = 'anthropic'): Anthropic.MessageCreateParamsNonStreaming {
  const where = { provider, model: request.model };
  const history = anthropicHistory(request.messages, where);
  const { output_config, instruction } = anthropicOutputConfig(request);
  const system = instruction ? [...history.system, { type: 'text' as const, text: instruction }] : history.system;
  const maxTokens = request.maxTokens ?? DEFAULT_MAX_TOKENS;
  const parameters = anthropicParameters(request, history, maxTokens);
  const body: Anthropic.MessageCreateParamsNonStreaming = {
    model: request.model,
    // The visible answer's budget, plus the thinking room when thinking is on (thinking counts toward max_tokens).
    max_tokens: anthropicMaxTokens(request, maxTokens, parameters.thinking),
    messages: history.messages,
    ...(system.length > 0 ? { system: systemField(system) } : {}),
    ...anthropicTools(request, history, where),
    ...(output_config ? { output_config } : {}),
    ...parameters,
  };
  return request.extraBody ? Object.assign({}, body, request.extraBody) : body;
}

/** One string, as before, unless a block carries a cache breakpoint: then the blocks, so each breakpoint stays where it was put. */
function systemField(blocks: Anthropic.TextBlockParam[]): string | Anthropic.TextBlockParam[] {
  return blocks.some((b) => b.cache_control) ? blocks : blocks.map((b) => b.text).join('\n\n');
}

/** Anthropic's `stop_reason` in the normalised vocabulary; null (not reported) reads as a normal stop. */
export function finishReasonOf(stopReason: string | null | undefined): FinishReason {
  if (!stopReason) return 'stop';
  return FINISH[stopReason] ?? 'other';
}
