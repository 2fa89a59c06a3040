import { describe, expect, it } from 'vitest';
import { encodingFor, heuristicTokens, promptTokenEstimate } from '../../src/decide/token-estimate.js';

describe('encodingFor', () => {
  it.each([
    ['gpt-4o-mini', 'o200k_base'], ['gpt-4o-2024-08-06', 'o200k_base'], ['gpt-4.1', 'o200k_base'], ['gpt-5', 'o200k_base'],
    ['o3-mini', 'o200k_base'], ['gpt-4-turbo', 'cl100k_base'], ['gpt-3.5-turbo', 'cl100k_base'],
    ['claude-sonnet-4-6', undefined], ['llama3:8b', undefined], ['mistral-large', undefined],
  ])('%s uses %s', (model, encoding) => {
    expect(encodingFor(model)).toBe(encoding);
  });
});

describe('heuristicTokens', () => {
  it.each([
    ['', 0], ['hello', 2], ['The quick brown fox jumps over the lazy dog.', 13], ['日本語のテキスト', 8], ['café', 2],
  ])('counts %j as %d', (text, tokens) => {
    expect(heuristicTokens(text)).toBe(tokens);
  });

  it('errs high against a real OpenAI count for English text (1001 tokens for this 4.5 KB)', () => {
    expect(heuristicTokens('The quick brown fox jumps over the lazy dog. '.repeat(100))).toBeGreaterThan(1001);
  });
});

describe('promptTokenEstimate', () => {
  it('adds 4 tokens of framing a message and 3 to prime the reply', () => {
    const count = (t: string) => t.length;
    expect(promptTokenEstimate([{ role: 'system', content: 'abc' }, { role: 'user', content: 'de' }], count)).toBe(3 + 4 + 3 + 4 + 2);
  });
});
