import { describe, expect, it } from 'vitest';
import { heuristicTokens } from '../src/decide/token-estimate.js';
import { boundedCount, EXACT_CHARS, loadEncoding, tokenCounter } from '../src/policy/tokenizers.js';

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

describe('boundedCount', () => {
  it('tokenizes at most two samples of a long text, whatever its length, and errs high', () => {
    let tokenized = 0;
    const exact = (text: string) => {
      tokenized += text.length;
      return Math.ceil(text.length * 0.75); // o200k's density on Chinese prose
    };
    const long = '这是一个用于测试分词器性能的中文句子没有空格'.repeat(500); // 11,000 characters
    const estimate = boundedCount(exact, long);
    expect(tokenized).toBeLessThanOrEqual(2 * EXACT_CHARS);
    expect(estimate).toBeGreaterThanOrEqual(Math.ceil(long.length * 0.75));
    expect(estimate).toBeLessThanOrEqual(Math.ceil(long.length * 0.75 * 1.15));
  });

  it('counts a short text exactly', () => {
    expect(boundedCount((t) => t.length, 'x'.repeat(EXACT_CHARS))).toBe(EXACT_CHARS);
  });

  it('keeps a real tiktoken count of 10,000 CJK characters within what the heuristic allows', async () => {
    await loadEncoding('o200k_base');
    const count = tokenCounter('gpt-4o', 'auto', true);
    const long = '東京都の天気予報を教えてください。'.repeat(600);
    const n = count(long);
    expect(n).toBeGreaterThan(long.length / 4);
    expect(n).toBeLessThanOrEqual(heuristicTokens(long));
  });
});
