import { describe, expect, it } from 'vitest';
import { AdaptiveThrottle } from '../src/policy/breaker/adaptive-throttle.js';

describe('AdaptiveThrottle', () => {
  const T0 = 1_000_000;

  it('refuses nothing while the server accepts at least half its requests (K = 2)', () => {
    const t = new AdaptiveThrottle(10_000);
    for (let i = 0; i < 100; i++) t.record(i % 2 === 0, T0);
    expect(t.rejectProbability(T0)).toBe(0);
  });

  it('refuses almost everything for a server that answers nothing', () => {
    const t = new AdaptiveThrottle(10_000);
    for (let i = 0; i < 100; i++) t.record(false, T0);
    expect(t.rejectProbability(T0)).toBeCloseTo(100 / 101, 6);
    expect(t.allows(() => 0.5, T0)).toBe(false);
    expect(t.allows(() => 0.999, T0)).toBe(true);
  });

  it('refuses in proportion in between: 20% accepted refuses about 60%', () => {
    const t = new AdaptiveThrottle(10_000);
    for (let i = 0; i < 1000; i++) t.record(i % 5 === 0, T0);
    expect(t.rejectProbability(T0)).toBeCloseTo((1000 - 400) / 1001, 6);
  });

  it('forgets: failures from several windows ago hardly count', () => {
    const t = new AdaptiveThrottle(1_000);
    for (let i = 0; i < 100; i++) t.record(false, T0);
    expect(t.rejectProbability(T0 + 5_000)).toBeLessThan(0.5);
    expect(t.rejectProbability(T0 + 10_000)).toBeLessThan(0.01);
  });
});
