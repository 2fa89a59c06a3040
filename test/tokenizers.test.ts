import { describe, expect, it } from 'vitest';
import { heuristicTokens } from '../src/decide/token-estimate.js';
import { loadEncoding, tokenCounter } from '../src/policy/tokenizers.js';

describe('tokenCounter', () => {
  it('counts for an OpenAI model what its limiter charges (characters / 4), never less than the real tokens', async () => {
    const count = tokenCounter('gpt-4o-mini', 'auto', true);
    expect(count('The quick brown fox jumps over the lazy dog.')).toBe(11); // o200k says 10
    // Non-ASCII text: the heuristic (a token a character) stands in until tiktoken has loaded, then o200k counts.
    const cjk = '東京都の天気予報を教えて';
    expect(count(cjk)).toBe(12);
    await loadEncoding('o200k_base');
    expect(count(cjk)).toBeGreaterThan(3);
    expect(count(cjk)).toBeLessThan(12);
  });

  it('uses characters / 4 for an OpenAI-speaking model without a public encoding, or with tokenizer heuristic', () => {
    expect((tokenCounter('llama3:8b', 'auto', true) as (t: string) => number)('x'.repeat(40))).toBe(10);
    expect((tokenCounter('gpt-4o', 'heuristic', true) as (t: string) => number)('x'.repeat(40))).toBe(10);
  });

  it('uses the heuristic, which errs high, for providers that do not speak OpenAI', () => {
    expect(tokenCounter('claude-sonnet-4-6', 'auto', false)).toBe(heuristicTokens);
  });
});
