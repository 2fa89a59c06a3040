import type Anthropic from '@anthropic-ai/sdk';
import type { ProviderRequest } from '../types.js';
import type { AnthropicHistory } from './messages.js';
import { forcesToolUse } from './tools.js';

type Parameters = Pick<Anthropic.MessageCreateParamsNonStreaming, 'stop_sequences' | 'metadata' | 'thinking'>;

/**
 * `stop` as `stop_sequences` (whitespace-only sequences dropped: the API refuses them), `user` as
 * `metadata.user_id`, and reasoning as adaptive thinking (its effort goes in `output_config`).
 * Thinking is left off when the request forces a tool (the API refuses the two together) and when
 * the last tool-calling turn of the history has no thinking blocks (it came from another provider;
 * the API requires that turn to open with one). `temperature`, `top_p` and `seed` are dropped: API
 * version 2026-10-21 rejects the first two, and there is no seed.
 */
export function anthropicParameters(request: ProviderRequest, history: AnthropicHistory): Parameters {
  const out: Parameters = {};
  const stops = (request.stop ?? []).filter((s) => s.trim() !== '');
  if (stops.length > 0) out.stop_sequences = stops;
  if (request.user !== undefined) out.metadata = { user_id: request.user };
  if (request.reasoning && !forcesToolUse(request.tools?.length ? request.toolChoice : undefined) && !history.toolTurnWithoutThinking) {
    out.thinking = { type: 'adaptive' };
  }
  return out;
}
