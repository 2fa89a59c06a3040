import { Tiktoken } from 'js-tiktoken/lite';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { heuristicTokens, promptTokenEstimate } from '../src/decide/token-estimate.js';
import type { Message } from '../src/types.js';
import { boundedCount, budgetedCount, ESTIMATE_BUDGET_CHARS, EXACT_CHARS, loadEncoding, tokenCounter } from '../src/policy/state/tokenizers.js';

describe('tokenCounter', () => {
  it('counts for an OpenAI model what its limiter charges (characters / 4), never less than the real tokens', async () => {
    const count = (text: string) => tokenCounter('gpt-4o-mini', 'auto', true)()(text);
    expect(count('The quick brown fox jumps over the lazy dog.')).toBe(11); // o200k says 10
    // Non-ASCII text: the heuristic (a token a character) stands in until tiktoken has loaded, then o200k counts.
    const cjk = '東京都の天気予報を教えて';
    expect(count(cjk)).toBe(12);
    await loadEncoding('o200k_base');
    expect(count(cjk)).toBeGreaterThan(3);
    expect(count(cjk)).toBeLessThan(12);
  });

  it('uses characters / 4 for an OpenAI-speaking model without a public encoding, or with tokenizer heuristic', () => {
    expect(tokenCounter('llama3:8b', 'auto', true)()('x'.repeat(40))).toBe(10);
    expect(tokenCounter('gpt-4o', 'heuristic', true)()('x'.repeat(40))).toBe(10);
  });

  it('uses the heuristic, which errs high, for providers that do not speak OpenAI', () => {
    expect(tokenCounter('claude-sonnet-4-6', 'auto', false)()).toBe(heuristicTokens);
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
    const count = tokenCounter('gpt-4o', 'auto', true)();
    const long = '東京都の天気予報を教えてください。'.repeat(600);
    const n = count(long);
    expect(n).toBeGreaterThan(long.length / 4);
    expect(n).toBeLessThanOrEqual(heuristicTokens(long));
  });
});

describe('one estimate, one sampling budget', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  const density = 0.75; // o200k's tokens a character on Chinese prose
  const spy = () => {
    const seen = { chars: 0 };
    const exact = (text: string) => {
      seen.chars += text.length;
      return Math.ceil(text.length * density);
    };
    return { seen, exact };
  };
  const cjkMessages = (n: number): Message[] => Array.from({ length: n }, (_, i) => ({ role: 'user' as const, content: `第${i}条消息：东京都的天气预报请告诉我` }));

  it('tokenizes at most one budget of characters across 2,000 CJK messages, and still errs high', () => {
    const { seen, exact } = spy();
    const messages = cjkMessages(2_000);
    const chars = messages.reduce((n, m) => n + (m.content as string).length, 0);
    const estimate = promptTokenEstimate(messages, budgetedCount(exact));
    expect(seen.chars).toBeLessThanOrEqual(ESTIMATE_BUDGET_CHARS);
    expect(estimate).toBeGreaterThanOrEqual(Math.ceil(chars * density));
  });

  it('counts a single text as boundedCount does, short or long', () => {
    const long = '这是一个用于测试分词器性能的中文句子没有空格'.repeat(500);
    for (const text of ['短文本', 'x'.repeat(EXACT_CHARS), 'é'.repeat(100), long]) {
      expect(budgetedCount(spy().exact)(text)).toBe(boundedCount(spy().exact, text));
    }
  });

  it('gives each estimate of a target its own budget, through the real tiktoken encoder', async () => {
    await loadEncoding('o200k_base');
    let tokenized = 0;
    const encode = Tiktoken.prototype.encode;
    vi.spyOn(Tiktoken.prototype, 'encode').mockImplementation(function (this: Tiktoken, text: string, ...rest) {
      tokenized += text.length;
      return encode.call(this, text, ...rest);
    });
    const counter = tokenCounter('gpt-4o', 'auto', true);
    const messages = cjkMessages(2_000);
    promptTokenEstimate(messages, counter());
    expect(tokenized).toBeGreaterThan(0);
    expect(tokenized).toBeLessThanOrEqual(ESTIMATE_BUDGET_CHARS);
    tokenized = 0;
    promptTokenEstimate(messages, counter());
    expect(tokenized).toBeGreaterThan(0);
    expect(tokenized).toBeLessThanOrEqual(ESTIMATE_BUDGET_CHARS);
  });
});
