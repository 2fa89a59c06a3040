import { describe, expect, it } from 'vitest';
import { backoffMs, jitteredHintMs } from '../../src/decide/backoff.js';

const opts = { baseDelayMs: 250, maxDelayMs: 8000 };

describe('backoffMs', () => {
  it.each([
    [0, 125, 250], [1, 250, 500], [2, 500, 1000], [3, 1000, 2000], [5, 4000, 8000], [10, 4000, 8000],
  ])('retry %d waits between %d and %d ms (capped, equal jitter)', (n, low, high) => {
    expect(backoffMs(n, opts, () => 0)).toBe(low);
    expect(backoffMs(n, opts, () => 0.999999)).toBeCloseTo(high, 0);
  });

  it('spreads retries released together', () => {
    let seed = 1;
    const random = () => ((seed = (seed * 16807) % 2147483647) / 2147483647);
    const waits = new Set(Array.from({ length: 50 }, () => Math.round(backoffMs(2, opts, random))));
    expect(waits.size).toBeGreaterThan(40);
  });
});

describe('jitteredHintMs', () => {
  it.each([[0, 0, 10], [300, 300, 340], [20_000, 20_000, 21_010], [60_000, 60_000, 61_010]])(
    'never waits less than the hint of %d ms, at most a little more', (hint, low, high) => {
      expect(jitteredHintMs(hint, () => 0)).toBe(low);
      expect(jitteredHintMs(hint, () => 1)).toBe(high);
    });
});
