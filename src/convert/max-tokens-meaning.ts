import type { ThinkingTraits } from '../../providers/types.js';
import type { ChatRequest } from '../types.js';

/**
 * The gateway's wires count `max_tokens` their own provider's way, the thinking included: Anthropic's
 * `/v1/messages` (adaptive thinking, which has no budget to take off) and OpenAI's
 * `max_completion_tokens` / `max_output_tokens`. A request converted from such a body says so under
 * this key, symbol-keyed so it is no part of the public request: a target of that family then gets
 * the client's number as it is (no thinking added on top), every other target the router's meaning
 * (the number is the visible answer's, its own thinking added). docs/gateway.md, "max_tokens and thinking".
 */
export const MAX_TOKENS_MEANING: unique symbol = Symbol.for('switchyard.maxTokensMeaning') as never;

/** Whose meaning a request's `maxTokens` has when it is not the router's. */
export type MaxTokensMeaning = 'anthropic' | 'openai';

type Carrying = { [MAX_TOKENS_MEANING]?: MaxTokensMeaning };

/** Marks `request`'s `maxTokens` as counting the thinking of `family`'s targets (the gateway, once per request). */
export function setMaxTokensMeaning(request: ChatRequest, family: MaxTokensMeaning): void {
  (request as Carrying)[MAX_TOKENS_MEANING] = family;
}

/** True when `request`'s `maxTokens` already counts the thinking of a target that thinks the `traits` way. */
export function maxTokensIncludeThinking(request: ChatRequest, traits: ThinkingTraits): boolean {
  const meaning = (request as Carrying)[MAX_TOKENS_MEANING];
  if (meaning === undefined) return false;
  return meaning === 'openai' ? traits.style === 'openai-effort' : traits.style === 'claude-adaptive' || traits.style === 'claude-budget';
}
