import { describe, expect, it } from 'vitest';
import { MIN_SAMPLES, hedgeAllowed, hedgeDelayMs } from '../../src/decide/hedge-delay.js';

describe('hedgeDelayMs', () => {
  it('is afterMs until the first target has MIN_SAMPLES answers, then their percentile', () => {
    const few = Array.from({ length: MIN_SAMPLES - 1 }, (_, i) => i + 1);
    expect(hedgeDelayMs({ afterMs: 300, percentile: 95 }, few)).toBe(300);
    const enough = Array.from({ length: 100 }, (_, i) => i + 1); // 1..100 ms
    expect(hedgeDelayMs({ afterMs: 300, percentile: 95 }, enough)).toBe(95);
    expect(hedgeDelayMs({ afterMs: 300, percentile: 50 }, enough)).toBe(50);
  });

  it('is undefined (no hedge) for a percentile-only chain that has too few answers', () => {
    expect(hedgeDelayMs({ percentile: 95 }, [10, 20])).toBeUndefined();
  });

  it('never hedges at 0 ms: a percentile of instant answers is 1 ms', () => {
    expect(hedgeDelayMs({ percentile: 99 }, Array.from({ length: 30 }, () => 0))).toBe(1);
  });
});

describe('hedgeAllowed', () => {
  it('keeps hedges at or under maxExtraPercent of calls, this call counted', () => {
    expect(hedgeAllowed(19, 0, 5)).toBe(false);
    expect(hedgeAllowed(20, 0, 5)).toBe(true);
    expect(hedgeAllowed(39, 1, 5)).toBe(false);
    expect(hedgeAllowed(40, 1, 5)).toBe(true);
    expect(hedgeAllowed(1, 0, 100)).toBe(true);
    expect(hedgeAllowed(1, 1, 100)).toBe(false);
  });
});
