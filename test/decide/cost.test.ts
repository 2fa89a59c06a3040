import { describe, expect, it } from 'vitest';
import { costUsd, dayWindowsBetween, reachedThresholds, spendWindows, worstCaseUsd } from '../../src/decide/cost.js';
import { bedrockModelId, priceOf, PRICES_AS_OF, SHIPPED_PRICES } from '../../src/spend/prices.js';

describe('costUsd', () => {
  const price = { inputPerMTok: 2, cachedInputPerMTok: 0.5, outputPerMTok: 8 };
  it('prices uncached input, cached input at its own price, and output', () => {
    expect(costUsd({ inputTokens: 1_000_000, outputTokens: 0 }, price)).toBe(2);
    expect(costUsd({ inputTokens: 1_000_000, cachedInputTokens: 600_000, outputTokens: 100_000 }, price)).toBeCloseTo(0.8 + 0.3 + 0.8, 12);
    // No cached price known: cached input at the input price. An embedding has no output.
    expect(costUsd({ inputTokens: 1_000, cachedInputTokens: 1_000 }, { inputPerMTok: 2, outputPerMTok: 8 })).toBeCloseTo(0.002, 12);
    // A report of more cached tokens than input tokens is capped at the input.
    expect(costUsd({ inputTokens: 10, cachedInputTokens: 50, outputTokens: 0 }, price)).toBeCloseTo(10 * 0.5 / 1e6, 15);
  });

  it('prices cache writes at their own rates: 1-hour writes apart from 5-minute ones and from writes of unreported lifetime', () => {
    const sonnet = SHIPPED_PRICES.anthropic!['claude-sonnet-4-6']!;
    expect(sonnet).toEqual({ inputPerMTok: 3, cachedInputPerMTok: 0.3, outputPerMTok: 15, cacheWritePerMTok: 3.75, cacheWrite1hPerMTok: 6 });
    // 100k fresh, 300k read, 200k written for 5 minutes, 400k for an hour, 10k out.
    const usage = { inputTokens: 1_000_000, cachedInputTokens: 300_000, cacheWriteTokens: 600_000, cacheWrite5mTokens: 200_000, cacheWrite1hTokens: 400_000, outputTokens: 10_000 };
    expect(costUsd(usage, sonnet)).toBeCloseTo(0.1 * 3 + 0.3 * 0.3 + 0.2 * 3.75 + 0.4 * 6 + 0.01 * 15, 12);
    // A write with no lifetime reported is a 5-minute one (Anthropic's default ttl).
    expect(costUsd({ inputTokens: 1_000_000, cacheWriteTokens: 1_000_000, outputTokens: 0 }, sonnet)).toBeCloseTo(3.75, 12);
    // No write price: writes at the input price, as before (OpenAI: no surcharge); no 1-hour price: the 5-minute one.
    expect(costUsd({ inputTokens: 1_000_000, cacheWriteTokens: 1_000_000, outputTokens: 0 }, price)).toBeCloseTo(2, 12);
    expect(costUsd({ inputTokens: 1_000, cacheWriteTokens: 1_000, cacheWrite1hTokens: 1_000 }, { inputPerMTok: 2, outputPerMTok: 8, cacheWritePerMTok: 2.5 })).toBeCloseTo(0.0025, 12);
    // Reads and writes are parts of the input: a report of more is capped at what is left of it.
    expect(costUsd({ inputTokens: 100, cachedInputTokens: 80, cacheWriteTokens: 50, cacheWrite1hTokens: 50 }, sonnet)).toBeCloseTo((80 * 0.3 + 20 * 6) / 1e6, 15);
  });

  it('ships Anthropic and Bedrock Claude cache prices at 0.1x reads, 1.25x 5-minute and 2x 1-hour writes of input (Haiku 3 as listed)', () => {
    const tables = [SHIPPED_PRICES.anthropic!, SHIPPED_PRICES.bedrock!];
    for (const table of tables) {
      for (const [model, p] of Object.entries(table)) {
        if (!model.includes('claude') || p.cachedInputPerMTok === undefined || model.includes('claude-3-haiku')) continue;
        expect([p.cachedInputPerMTok, p.cacheWritePerMTok, p.cacheWrite1hPerMTok], model).toEqual([p.inputPerMTok * 0.1, p.inputPerMTok * 1.25, p.inputPerMTok * 2].map((x) => Number(x.toFixed(6))));
      }
    }
    expect(SHIPPED_PRICES.anthropic!['claude-3-haiku-20240307']).toMatchObject({ cacheWritePerMTok: 0.3, cacheWrite1hPerMTok: 0.5 });
    // OpenAI and Gemini bill no write surcharge: no write price, so writes cost input.
    expect(SHIPPED_PRICES.openai!['gpt-4o']!.cacheWritePerMTok).toBeUndefined();
    expect(SHIPPED_PRICES.gemini!['gemini-2.5-flash']!.cacheWritePerMTok).toBeUndefined();
  });

  it('takes the worst case at the uncached price, every reserved output token included', () => {
    expect(worstCaseUsd(1_000, 500, price)).toBeCloseTo((1_000 * 2 + 500 * 8) / 1e6, 15);
  });
});

describe('spend windows', () => {
  it('are UTC calendar days and months, each ending at the next one\'s start', () => {
    expect(spendWindows(Date.parse('2026-12-31T23:59:59.999Z'))).toEqual({
      day: { name: 'day:2026-12-31', period: 'day', endsAtMs: Date.parse('2027-01-01T00:00:00Z') },
      month: { name: 'month:2026-12', period: 'month', endsAtMs: Date.parse('2027-01-01T00:00:00Z') },
    });
    expect(spendWindows(Date.parse('2027-01-01T00:00:00Z')).day.name).toBe('day:2027-01-01');
    expect(spendWindows(Date.parse('2028-02-29T12:00:00Z')).month.endsAtMs).toBe(Date.parse('2028-03-01T00:00:00Z'));
  });

  it('lists the days of a report, both ends included', () => {
    expect(dayWindowsBetween(Date.parse('2026-11-29T18:00:00Z'), Date.parse('2026-12-01T01:00:00Z'))).toEqual(['day:2026-11-29', 'day:2026-11-30', 'day:2026-12-01']);
    expect(dayWindowsBetween(Date.parse('2026-12-01T01:00:00Z'), Date.parse('2026-12-01T02:00:00Z'))).toEqual(['day:2026-12-01']);
  });

  it('names the thresholds a spend reached', () => {
    expect(reachedThresholds(8, 10, [0.9, 0.5, 0.8])).toEqual([0.5, 0.8]);
  });
});

describe('the price table', () => {
  const providers = {
    oa: { type: 'openai' }, br: { type: 'bedrock' }, gq: { type: 'openai-compatible', preset: 'groq' },
    local: { type: 'openai-compatible', preset: 'ollama' }, own: { type: 'openai-compatible' }, f: { type: 'fake' },
  };
  const t = (provider: string, model: string) => ({ key: `${provider}:${model}`, provider, model });

  it('is dated, and prices every provider type and every paid preset', () => {
    expect(PRICES_AS_OF).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    for (const name of ['openai', 'anthropic', 'gemini', 'bedrock', 'groq', 'mistral', 'deepseek', 'openrouter', 'together', 'fireworks', 'xai', 'ollama', 'vllm']) {
      expect(Object.keys(SHIPPED_PRICES[name] ?? {}).length, name).toBeGreaterThan(0);
    }
  });

  it('looks up the config by provider:model, then by model, then the shipped table by type or preset', () => {
    const mine = { inputPerMTok: 1, outputPerMTok: 1 };
    expect(priceOf({}, providers, t('oa', 'gpt-4o-mini'))).toBe(SHIPPED_PRICES.openai!['gpt-4o-mini']);
    expect(priceOf({ 'gpt-4o-mini': mine }, providers, t('oa', 'gpt-4o-mini'))).toBe(mine);
    expect(priceOf({ 'oa:gpt-4o-mini': mine, 'gpt-4o-mini': { inputPerMTok: 9, outputPerMTok: 9 } }, providers, t('oa', 'gpt-4o-mini'))).toBe(mine);
    expect(priceOf({}, providers, t('gq', 'llama-3.3-70b-versatile'))).toBe(SHIPPED_PRICES.groq!['llama-3.3-70b-versatile']);
    expect(priceOf({}, providers, t('local', 'llama3:8b'))).toEqual({ inputPerMTok: 0, outputPerMTok: 0 });
    // No preset, no type table, an unknown model, an inherited name: no price.
    expect(priceOf({}, providers, t('own', 'gpt-4o-mini'))).toBeUndefined();
    expect(priceOf({}, providers, t('f', 'gpt-4o-mini'))).toBeUndefined();
    expect(priceOf({}, providers, t('oa', 'my-finetune'))).toBeUndefined();
    expect(priceOf({}, providers, t('oa', 'constructor'))).toBeUndefined();
  });

  it('prices a Bedrock model by its bare id: no cross-region prefix, no ARN path', () => {
    expect(bedrockModelId('us.anthropic.claude-haiku-4-5-20251001-v1:0')).toBe('anthropic.claude-haiku-4-5-20251001-v1:0');
    expect(bedrockModelId('arn:aws:bedrock:us-east-1:123456789012:inference-profile/eu.anthropic.claude-sonnet-4-5-20250929-v1:0')).toBe('anthropic.claude-sonnet-4-5-20250929-v1:0');
    expect(priceOf({}, providers, t('br', 'us.anthropic.claude-haiku-4-5-20251001-v1:0'))).toBe(SHIPPED_PRICES.bedrock!['anthropic.claude-haiku-4-5-20251001-v1:0']);
  });
});
