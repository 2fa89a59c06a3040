import { describe, expect, it } from 'vitest';
import { claudeThinkingTraits } from '../../providers/anthropic/model-traits.js';
import { bedrockThinkingTraits } from '../../providers/bedrock/model-family.js';
import { geminiModelTraits } from '../../providers/gemini/model-traits.js';
import { geminiThinkingTraits } from '../../providers/gemini/thinking.js';
import { openAIThinkingTraits } from '../../providers/openai/parameters.js';
import type { ThinkingTraits } from '../../providers/types.js';
import { thinkingPlan } from '../../src/decide/thinking-budget.js';

const gemini = (model: string) => geminiThinkingTraits(model, geminiModelTraits(model))!;
const FLASH = gemini('gemini-2.5-flash');
const PRO = gemini('gemini-2.5-pro');
const LITE = gemini('gemini-2.5-flash-lite');
const GEMINI_3 = gemini('gemini-3-pro-preview');
const CLAUDE_BUDGET = claudeThinkingTraits('budget')!;
const CLAUDE_ADAPTIVE = claudeThinkingTraits('adaptive')!;
const OPENAI = openAIThinkingTraits('gpt-5')!;

describe('thinkingPlan: what a thinking model is sent so maxTokens stays the visible answer', () => {
  it('reads each family\'s traits from the model name, and none for models that do not think', () => {
    expect(FLASH).toMatchObject({ style: 'gemini-budget', byDefault: true, minBudget: 0, maxBudget: 24_576, canDisable: true });
    expect(PRO).toMatchObject({ style: 'gemini-budget', byDefault: true, minBudget: 128, maxBudget: 32_768, canDisable: false });
    expect(LITE).toMatchObject({ style: 'gemini-budget', byDefault: false, minBudget: 512, canDisable: true });
    expect(GEMINI_3).toMatchObject({ style: 'gemini-level', byDefault: true });
    expect(geminiThinkingTraits('gemini-2.0-flash', geminiModelTraits('gemini-2.0-flash'))).toBeUndefined();
    expect(bedrockThinkingTraits('us.anthropic.claude-sonnet-4-5-20250929-v1:0')).toEqual(CLAUDE_BUDGET);
    expect(bedrockThinkingTraits('anthropic.claude-opus-4-6-v1')).toEqual(CLAUDE_ADAPTIVE);
    expect(bedrockThinkingTraits('amazon.nova-pro-v1:0')).toBeUndefined();
    expect(openAIThinkingTraits('gpt-4o-mini')).toBeUndefined();
    expect(openAIThinkingTraits('o4-mini')).toEqual(OPENAI);
  });

  it('gives Gemini 2.5 Pro and Flash an explicit 8192 budget when nothing is asked, and Flash-Lite (off by default) nothing', () => {
    expect(thinkingPlan(FLASH, undefined)).toEqual({ addTokens: 8192, budgetTokens: 8192 });
    expect(thinkingPlan(PRO, undefined)).toEqual({ addTokens: 8192, budgetTokens: 8192 });
    expect(thinkingPlan(LITE, undefined)).toBeUndefined();
  });

  it.each([
    ['minimal', FLASH, 0], ['low', FLASH, 1024], ['medium', FLASH, 8192], ['high', FLASH, 24_576],
    ['minimal', PRO, 128], ['high', PRO, 24_576], ['minimal', LITE, 0], ['low', LITE, 1024],
  ] as const)('maps effort %s on Gemini 2.5 to its budget (%#), within the model\'s range', (effort, traits, budget) => {
    expect(thinkingPlan(traits, { effort })).toEqual({ addTokens: budget, budgetTokens: budget });
  });

  it('takes budgetTokens as given, clamped to the model\'s range, over the effort', () => {
    expect(thinkingPlan(FLASH, { effort: 'high', budgetTokens: 300 })).toEqual({ addTokens: 300, budgetTokens: 300 });
    expect(thinkingPlan(FLASH, { budgetTokens: 100_000 })).toEqual({ addTokens: 24_576, budgetTokens: 24_576 });
    expect(thinkingPlan(PRO, { budgetTokens: 0 })).toEqual({ addTokens: 128, budgetTokens: 128 });
    expect(thinkingPlan(LITE, { budgetTokens: 100 })).toEqual({ addTokens: 512, budgetTokens: 512 });
    expect(thinkingPlan(LITE, { budgetTokens: 0 })).toEqual({ addTokens: 0, budgetTokens: 0 });
    expect(thinkingPlan(CLAUDE_BUDGET, { budgetTokens: 500 })).toEqual({ addTokens: 1024, budgetTokens: 1024 });
    expect(thinkingPlan(CLAUDE_BUDGET, { budgetTokens: 10_000 })).toEqual({ addTokens: 10_000, budgetTokens: 10_000 });
    expect(thinkingPlan(CLAUDE_BUDGET, { budgetTokens: 0 })).toEqual({ addTokens: 0, budgetTokens: 0 });
  });

  it('gives Claude 3.7-4.5 the budget per effort (1024, 1024, 2048, 4096) and nothing without reasoning', () => {
    expect(['minimal', 'low', 'medium', 'high'].map((effort) => thinkingPlan(CLAUDE_BUDGET, { effort: effort as 'low' })!.budgetTokens)).toEqual([1024, 1024, 2048, 4096]);
    expect(thinkingPlan(CLAUDE_BUDGET, undefined)).toBeUndefined();
    expect(thinkingPlan(CLAUDE_ADAPTIVE, undefined)).toBeUndefined();
  });

  it('gives effort-only models an allowance per effort (1024, 4096, 8192, 24576), their default effort\'s when nothing is asked', () => {
    const allowances = (traits: ThinkingTraits) => ['minimal', 'low', 'medium', 'high'].map((effort) => thinkingPlan(traits, { effort: effort as 'low' }));
    for (const traits of [OPENAI, CLAUDE_ADAPTIVE, GEMINI_3]) {
      expect(allowances(traits)).toEqual([{ addTokens: 1024 }, { addTokens: 4096 }, { addTokens: 8192 }, { addTokens: 24_576 }]);
    }
    expect(thinkingPlan(OPENAI, undefined)).toEqual({ addTokens: 8192 });
    expect(thinkingPlan(GEMINI_3, undefined)).toEqual({ addTokens: 24_576 });
  });

  it('takes budgetTokens as the allowance of an effort-only model, naming the least effort that covers it when none was given', () => {
    expect(thinkingPlan(OPENAI, { budgetTokens: 3000 })).toEqual({ addTokens: 3000, effort: 'low' });
    expect(thinkingPlan(OPENAI, { budgetTokens: 50_000 })).toEqual({ addTokens: 50_000, effort: 'high' });
    expect(thinkingPlan(CLAUDE_ADAPTIVE, { budgetTokens: 1024, effort: 'high' })).toEqual({ addTokens: 1024 });
  });

  it('adds nothing when the number already counts the thinking (a gateway wire), the budget still sent', () => {
    expect(thinkingPlan(OPENAI, { effort: 'high' }, true)).toEqual({ addTokens: 0 });
    expect(thinkingPlan(CLAUDE_BUDGET, { effort: 'low' }, true)).toEqual({ addTokens: 0, budgetTokens: 1024 });
  });
});
