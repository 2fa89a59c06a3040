import type { ReasoningOptions } from '../../src/types.js';
import type { ThinkingPlan, ThinkingTraits } from '../types.js';
import type { GeminiModelTraits } from './model-traits.js';
import type { GeminiThinkingConfig } from './wire-types.js';

type Effort = NonNullable<ReasoningOptions['effort']>;

/** Gemini 2.5 thinking budgets, in tokens (Flash takes 0-24576, Flash-Lite 512-24576 or 0, Pro 128-32768). */
const BUDGETS: Readonly<Record<Effort, number>> = { minimal: 0, low: 1024, medium: 8192, high: 24576 };
/** 2.5 Pro cannot turn thinking off: its smallest budget. */
const PRO_MIN_BUDGET = 128;

const LEVELS: Readonly<Record<Effort, GeminiThinkingConfig['thinkingLevel']>> = { minimal: 'MINIMAL', low: 'LOW', medium: 'MEDIUM', high: 'HIGH' };
/** Gemini 3 Pro takes LOW and HIGH only. */
const PRO_LEVELS: Readonly<Record<Effort, GeminiThinkingConfig['thinkingLevel']>> = { minimal: 'LOW', low: 'LOW', medium: 'HIGH', high: 'HIGH' };

// The 2.5 budget ranges, per https://ai.google.dev/gemini-api/docs/thinking#set-budget: Pro thinks
// always (128-32768), Flash by default (0-24576, 0 off), Flash-Lite only when asked (512-24576, 0 off).
const PRO_25: ThinkingTraits = Object.freeze({ style: 'gemini-budget', byDefault: true, minBudget: PRO_MIN_BUDGET, maxBudget: 32_768, canDisable: false });
const FLASH_25: ThinkingTraits = Object.freeze({ style: 'gemini-budget', byDefault: true, minBudget: 0, maxBudget: 24_576, canDisable: true });
const FLASH_LITE_25: ThinkingTraits = Object.freeze({ style: 'gemini-budget', byDefault: false, minBudget: 512, maxBudget: 24_576, canDisable: true });
// Gemini 3 thinks by default (dynamically, at its high level) and takes levels, not budgets.
const LEVEL_3: ThinkingTraits = Object.freeze({ style: 'gemini-level', byDefault: true, minBudget: 0, canDisable: false });

/** How a Gemini model thinks, for the router's thinking budget (src/decide/thinking-budget.ts); undefined before 2.5. */
export function geminiThinkingTraits(model: string, traits: GeminiModelTraits): ThinkingTraits | undefined {
  if (traits.thinking === 'level') return LEVEL_3;
  if (traits.thinking !== 'budget') return undefined;
  if (traits.pro) return PRO_25;
  return /-flash-lite\b/.test(model) ? FLASH_LITE_25 : FLASH_25;
}

/**
 * `thinkingConfig` for the request: Gemini 3 a `thinkingLevel` for `reasoning.effort` (Pro rounds to
 * LOW or HIGH; the router's plan names the effort when only `budgetTokens` was given), 2.5 a
 * `thinkingBudget`: the router's (`plan`, when it sized one), else the effort's (minimal turns
 * thinking off, but on 2.5 Pro, which cannot: its least). Models before 2.5 have no thinking:
 * undefined, the effort is dropped. Never both fields: the API answers 400 to a request with both.
 */
export function geminiThinking(reasoning: ReasoningOptions | undefined, traits: GeminiModelTraits, plan?: ThinkingPlan): GeminiThinkingConfig | undefined {
  if (traits.thinking === 'budget' && plan?.budgetTokens !== undefined) return { thinkingBudget: plan.budgetTokens };
  if (!reasoning) return undefined;
  const effort = plan?.effort ?? reasoning.effort;
  if (traits.thinking === 'level') return effort ? { thinkingLevel: (traits.pro ? PRO_LEVELS : LEVELS)[effort] } : undefined;
  if (traits.thinking === 'budget') {
    const budget = reasoning.budgetTokens ?? BUDGETS[effort ?? 'medium'];
    return { thinkingBudget: traits.pro ? Math.max(PRO_MIN_BUDGET, budget) : budget };
  }
  return undefined;
}
