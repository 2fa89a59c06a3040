import type { ReasoningOptions } from '../../src/types.js';
import type { GeminiModelTraits } from './model-traits.js';
import type { GeminiThinkingConfig } from './wire-types.js';

type Effort = ReasoningOptions['effort'];

/** Gemini 2.5 thinking budgets, in tokens (Flash takes 0-24576, Flash-Lite 512-24576 or 0, Pro 128-32768). */
const BUDGETS: Readonly<Record<Effort, number>> = { minimal: 0, low: 1024, medium: 8192, high: 24576 };
/** 2.5 Pro cannot turn thinking off: its smallest budget. */
const PRO_MIN_BUDGET = 128;

const LEVELS: Readonly<Record<Effort, GeminiThinkingConfig['thinkingLevel']>> = { minimal: 'MINIMAL', low: 'LOW', medium: 'MEDIUM', high: 'HIGH' };
/** Gemini 3 Pro takes LOW and HIGH only. */
const PRO_LEVELS: Readonly<Record<Effort, GeminiThinkingConfig['thinkingLevel']>> = { minimal: 'LOW', low: 'LOW', medium: 'HIGH', high: 'HIGH' };

/**
 * `thinkingConfig` for `reasoning.effort`: Gemini 3 a `thinkingLevel` (Pro rounds to LOW or HIGH),
 * 2.5 a `thinkingBudget` (minimal turns thinking off, but on 2.5 Pro, which cannot: its least).
 * Models before 2.5 have no thinking: undefined, the effort is dropped. Never both fields: the API
 * answers 400 to a request with both.
 */
export function geminiThinking(reasoning: ReasoningOptions | undefined, traits: GeminiModelTraits): GeminiThinkingConfig | undefined {
  if (!reasoning) return undefined;
  if (traits.thinking === 'level') return { thinkingLevel: (traits.pro ? PRO_LEVELS : LEVELS)[reasoning.effort] };
  if (traits.thinking === 'budget') {
    const budget = BUDGETS[reasoning.effort];
    return { thinkingBudget: traits.pro ? Math.max(PRO_MIN_BUDGET, budget) : budget };
  }
  return undefined;
}
