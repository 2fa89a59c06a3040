import type Anthropic from '@anthropic-ai/sdk';
import type { ProviderRequest } from '../types.js';
import { usesJsonTool } from './json-tool.js';
import type { AnthropicHistory } from './messages.js';
import { anthropicModelTraits } from './model-traits.js';
import { forcesToolUse } from './tools.js';

type Parameters = Pick<Anthropic.MessageCreateParamsNonStreaming, 'stop_sequences' | 'metadata' | 'thinking'>;

/** `budget_tokens` for models before 4.6, by effort (LiteLLM's defaults); the API's floor is 1024. */
const BUDGET: Readonly<Record<string, number>> = { minimal: 1024, low: 1024, medium: 2048, high: 4096 };
const MIN_BUDGET = 1024;

/**
 * The thinking setting for this model: adaptive from 4.6, a token budget before (the router's
 * `plan`, which `max_tokens` already has room for, else the effort's, kept below `max_tokens`), none
 * before 3.7. A plan's budget of 0 is thinking off.
 */
function thinkingFor(request: ProviderRequest, maxTokens: number): Anthropic.ThinkingConfigParam | undefined {
  const { thinking } = anthropicModelTraits(request.model);
  if (thinking === 'adaptive') return { type: 'adaptive' };
  if (thinking === 'none') return undefined;
  const wanted = request.thinking?.budgetTokens ?? request.reasoning?.budgetTokens ?? BUDGET[request.reasoning?.effort ?? 'low'] ?? MIN_BUDGET;
  if (wanted === 0) return undefined;
  const budget = Math.min(wanted, maxTokens - 1);
  return budget >= MIN_BUDGET ? { type: 'enabled', budget_tokens: budget } : undefined;
}

/** `max_tokens`: the visible answer's `maxTokens`, plus the thinking room the router sized when thinking is on. */
export function anthropicMaxTokens(request: ProviderRequest, maxTokens: number, thinking: Anthropic.ThinkingConfigParam | undefined): number {
  return thinking && thinking.type !== 'disabled' && request.thinking ? maxTokens + request.thinking.addTokens : maxTokens;
}

/**
 * `stop` as `stop_sequences` (whitespace-only sequences dropped: the API refuses them), `user` as
 * `metadata.user_id`, and reasoning as thinking: adaptive on Claude 4.6 and newer (its effort goes
 * in `output_config`), `{type: 'enabled', budget_tokens}` on 3.7 to 4.5 (the router's budget, on
 * top of `maxTokens`; without one 1024 for minimal and low, 2048 medium, 4096 high, or
 * `budgetTokens`, kept below `max_tokens`; off when that leaves less than 1024), none on
 * older models. Thinking is left off when the request forces a tool (the API refuses the two
 * together; the `json` tool of a structured answer on an older model is one) and when the last
 * tool-calling turn of the history has no thinking blocks (it came from another provider; the API
 * requires that turn to open with one). `temperature`, `top_p` and `seed` are dropped: API version
 * 2026-10-21 rejects the first two, and there is no seed.
 */
export function anthropicParameters(request: ProviderRequest, history: AnthropicHistory, maxTokens: number): Parameters {
  // With the router's plan, max_tokens is maxTokens plus the budget: the budget fits below it.
  const limit = request.thinking ? maxTokens + request.thinking.addTokens : maxTokens;
  const out: Parameters = {};
  const stops = (request.stop ?? []).filter((s) => s.trim() !== '');
  if (stops.length > 0) out.stop_sequences = stops;
  if (request.user !== undefined) out.metadata = { user_id: request.user };
  if (request.reasoning && !history.toolTurnWithoutThinking
    && !forcesToolUse(request.tools?.length ? request.toolChoice : undefined) && !usesJsonTool(request)) {
    const thinking = thinkingFor(request, limit);
    if (thinking) out.thinking = thinking;
  }
  return out;
}
