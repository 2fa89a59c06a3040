import { describe, expect, it } from 'vitest';
import { embedBatches, TOKEN_CEILING_FILL } from '../../src/decide/embed-batches.js';

/** Each input counts as many tokens as its length. */
const length = (text: string) => text.length;
const texts = (...sizes: number[]) => sizes.map((n, i) => String(i).padEnd(n, '.'));
const sizes = (batches: string[][]) => batches.map((b) => b.map((t) => t.length));

describe('embedBatches', () => {
  it.each([
    ['splits by count alone when tokens are unbounded', { maxInputs: 2, maxTokens: Infinity }, [1, 1, 1, 1, 1], [[1, 1], [1, 1], [1]]],
    ['splits by summed tokens, filled to the ceiling share', { maxInputs: 100, maxTokens: 40 / TOKEN_CEILING_FILL }, [20, 20, 20, 10, 10, 5], [[20, 20], [20, 10, 10], [5]]],
    ['splits by whichever ceiling comes first', { maxInputs: 2, maxTokens: 40 / TOKEN_CEILING_FILL }, [30, 5, 5, 5, 30], [[30, 5], [5, 5], [30]]],
    ['puts an input above the ceiling alone in its batch', { maxInputs: 100, maxTokens: 40 / TOKEN_CEILING_FILL }, [10, 50, 10], [[10], [50], [10]]],
  ])('%s', (_name, ceiling, input, expected) => {
    expect(sizes(embedBatches(texts(...input), ceiling, length))).toEqual(expected);
  });

  it('keeps every input once, in input order', () => {
    const input = texts(...Array.from({ length: 50 }, (_, i) => (i * 7) % 13 + 1));
    expect(embedBatches(input, { maxInputs: 4, maxTokens: 20 }, length).flat()).toEqual(input);
  });
});
