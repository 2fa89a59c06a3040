import { describe, expect, it } from 'vitest';
import { parseGoDurationMs } from '../../providers/shared/reset-value.js';
import { formatGoDuration, formatRfc3339 } from '../../src/sim/go-duration.js';

describe('formatGoDuration', () => {
  it.each([
    [0, '0s'], [0.0005, '500ns'], [0.0125, '12.5µs'], [9, '9ms'], [12, '12ms'], [644, '644ms'], [1.5, '1.5ms'],
    [1000, '1s'], [1500, '1.5s'], [18_642, '18.642s'], [26_604, '26.604s'], [20_000, '20s'],
    [60_000, '1m0s'], [360_000, '6m0s'], [61_500, '1m1.5s'], [3_600_000, '1h0m0s'], [3_723_000, '1h2m3s'],
  ])('prints %d ms as Go does: %s', (ms, text) => {
    expect(formatGoDuration(ms)).toBe(text);
  });

  it.each([1, 7, 999, 1000, 1234, 59_999, 60_001, 86_400_000, 3_723_456])('round-trips %d ms through the router\'s parser', (ms) => {
    expect(parseGoDurationMs(formatGoDuration(ms))).toBe(ms);
  });
});

describe('formatRfc3339', () => {
  it('prints whole seconds, rounded up, like Anthropic\'s reset headers', () => {
    expect(formatRfc3339(Date.parse('2025-08-21T12:40:59Z'))).toBe('2025-08-21T12:40:59Z');
    expect(formatRfc3339(Date.parse('2025-08-21T12:40:59.001Z'))).toBe('2025-08-21T12:41:00Z');
  });
});
