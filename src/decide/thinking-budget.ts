import type { ThinkingPlan, ThinkingTraits } from '../../providers/types.js';
import type { ReasoningOptions } from '../types.js';

type Effort = NonNullable<ReasoningOptions['effort']>;

/**
 * Thinking budgets sent as tokens, by effort (docs/providers.md, "maxTokens and thinking"):
 * - Gemini 2.5 `thinkingBudget`: 0 (off) for minimal, 1024, 8192, 24576 (Flash's most). Clamped to the
 *   model's range (https://ai.google.dev/gemini-api/docs/thinking#set-budget: Pro 128-32768 and never
 *   off, Flash 0-24576, Flash-Lite 512-24576 or 0).
 * - Claude 3.7 to 4.5 `budget_tokens`: 1024 (the API's floor) for minimal and low, 2048, 4096: LiteLLM's
 *   defaults, which the adapters sent before (reference/provider-wire-formats-wave2.md §5.1).
 */
const GEMINI_BUDGET: Readonly<Record<Effort, number>> = { minimal: 0, low: 1024, medium: 8192, high: 24576 };
const CLAUDE_BUDGET: Readonly<Record<Effort, number>> = { minimal: 1024, low: 1024, medium: 2048, high: 4096 };

/**
 * What an effort-only model (OpenAI reasoning models, Claude 4.6+ adaptive thinking, Gemini 3
 * levels) is given on top of `maxTokens` for its thinking: these APIs take no budget, only a cap on
 * thinking and answer together. The numbers follow Gemini 2.5's budget ceilings per level, with
 * `high` at OpenAI's advice to leave about 25,000 tokens for reasoning and answer
 * (https://platform.openai.com/docs/guides/reasoning#allocating-space-for-reasoning) and `minimal`
 * at Claude's least budget. A model that thinks longer still stops at the cap (`finishReason: 'length'`).
 */
const EFFORT_ALLOWANCE: Readonly<Record<Effort, number>> = { minimal: 1024, low: 4096, medium: 8192, high: 24576 };
const EFFORTS: readonly Effort[] = ['minimal', 'low', 'medium', 'high'];

/**
 * Thinking when the request asks none, on a model that thinks anyway: Gemini 2.5 Pro and Flash get an
 * explicit `thinkingBudget` of 8192 (their dynamic default has no cap but the model's most, so no
 * answer budget could be kept); Gemini 3 thinks at its default level (high), OpenAI reasoning models
 * at their default effort (medium): each gets that effort's allowance.
 */
const DEFAULT_GEMINI_BUDGET = GEMINI_BUDGET.medium;
const DEFAULT_EFFORT: Readonly<Record<'gemini-level' | 'openai-effort', Effort>> = { 'gemini-level': 'high', 'openai-effort': 'medium' };

/** A budget within the model's range: 0 stays 0 where thinking can be off, else it is raised to the least. */
function clamp(budget: number, traits: ThinkingTraits): number {
  if (budget === 0 && traits.canDisable) return 0;
  const least = Math.max(budget, traits.minBudget);
  return traits.maxBudget === undefined ? least : Math.min(least, traits.maxBudget);
}

/** The least effort whose allowance covers `budget` (high when none does). */
function effortFor(budget: number): Effort {
  return EFFORTS.find((e) => EFFORT_ALLOWANCE[e] >= budget) ?? 'high';
}

/**
 * What a thinking model is sent so `maxTokens` stays the visible answer's budget: the thinking budget
 * (budget-style models) and the tokens added to the provider's output limit. `reasoning.budgetTokens`
 * is taken as given, clamped to the model's range, and wins over `effort`; on an effort-only model it
 * is the allowance, with the least effort that covers it when no effort was given. Undefined when
 * nothing is added: a model that does not think unless asked, asked nothing. `included`: the
 * request's `maxTokens` already counts this model's thinking (src/convert/max-tokens-meaning.ts),
 * so the budget or effort is sent but nothing is added.
 */
export function thinkingPlan(traits: ThinkingTraits, reasoning: ReasoningOptions | undefined, included = false): ThinkingPlan | undefined {
  const plan = planFor(traits, reasoning);
  // The client's number already counts this family's thinking (a gateway wire): nothing is added.
  if (plan && included) plan.addTokens = 0;
  return plan;
}

function planFor(traits: ThinkingTraits, reasoning: ReasoningOptions | undefined): ThinkingPlan | undefined {
  const budget = reasoning?.budgetTokens;
  const effort = reasoning?.effort;
  switch (traits.style) {
    case 'gemini-budget': {
      if (!reasoning && !traits.byDefault) return undefined;
      const tokens = clamp(budget ?? (effort ? GEMINI_BUDGET[effort] : DEFAULT_GEMINI_BUDGET), traits);
      return { addTokens: tokens, budgetTokens: tokens };
    }
    case 'claude-budget': {
      if (!reasoning) return undefined;
      const tokens = budget === 0 ? 0 : clamp(budget ?? CLAUDE_BUDGET[effort ?? 'low'], traits);
      return { addTokens: tokens, budgetTokens: tokens };
    }
    case 'claude-adaptive':
      if (!reasoning) return undefined;
      return allowance(budget, effort, 'medium');
    case 'gemini-level':
    case 'openai-effort':
      if (!reasoning && !traits.byDefault) return undefined;
      return allowance(budget, effort, DEFAULT_EFFORT[traits.style]);
  }
}

function allowance(budget: number | undefined, effort: Effort | undefined, fallback: Effort): ThinkingPlan {
  if (budget === undefined) return { addTokens: EFFORT_ALLOWANCE[effort ?? fallback] };
  return effort ? { addTokens: budget } : { addTokens: budget, effort: effortFor(budget) };
}
