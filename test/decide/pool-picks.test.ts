import { describe, expect, it } from 'vitest';
import { idleDecayed, latencyScore, LATENCY_TAU_MS, peakEwma } from '../../src/decide/peak-ewma.js';
import { lowerMedian, p2cOrder } from '../../src/decide/p2c-order.js';
import { fnv1a, rendezvousScore, unitHash, weightedDraw } from '../../src/decide/weighted-order.js';

describe('peak EWMA', () => {
  it('takes a slower sample at once and blends a faster one by the time since the last', () => {
    expect(peakEwma(100, 1, 900)).toBe(900);
    expect(peakEwma(300, 0, 100)).toBe(300);
    expect(peakEwma(300, LATENCY_TAU_MS, 100)).toBeCloseTo(300 * Math.exp(-1) + 100 * (1 - Math.exp(-1)), 9);
  });

  it('decays towards the median while idle, and is the median once under 1% of its own weight', () => {
    expect(idleDecayed(300, 0, 100)).toBe(300);
    expect(idleDecayed(300, 3 * LATENCY_TAU_MS, 100)).toBeCloseTo(100 + 200 * Math.exp(-3), 9);
    expect(idleDecayed(300, 4.6 * LATENCY_TAU_MS, 100)).toBeGreaterThan(100);
    expect(idleDecayed(300, 4.7 * LATENCY_TAU_MS, 100)).toBe(100);
  });

  it('scores latency x (in flight + 1), counting at least 1 ms', () => {
    expect(latencyScore(100, 0)).toBe(100);
    expect(latencyScore(100, 2)).toBe(300);
    expect(latencyScore(0, 4)).toBe(5);
  });
});

describe('power of two choices', () => {
  const order = (scores: number[], stamps: number[], r1: number, r2: number) => {
    const out = new Int32Array(scores.length);
    p2cOrder(scores, stamps, scores.length, r1, r2, out);
    return [...out];
  };

  it('puts the better of the two drawn first and the rest in score order', () => {
    // Draws 0.99, 0.99 pick members 2 and 1: member 1 (20) beats 2 (30), member 0 (10) follows.
    expect(order([10, 20, 30], [0, 0, 0], 0.99, 0.99)).toEqual([1, 0, 2]);
    // Draws 0, 0 pick members 0 and 1.
    expect(order([10, 20, 30], [0, 0, 0], 0, 0)).toEqual([0, 1, 2]);
    // Two members: both drawn, whatever the draws.
    expect(order([20, 10], [0, 0], 0, 0)).toEqual([1, 0]);
  });

  it('breaks a tie for the member measured longer ago, then configured order', () => {
    expect(order([10, 10], [5, 1], 0, 0)).toEqual([1, 0]);
    expect(order([10, 10], [-Infinity, -Infinity], 0, 0)).toEqual([0, 1]);
  });

  it('reads the lower median', () => {
    expect(lowerMedian(new Float64Array([300, 100]), 2)).toBe(100);
    expect(lowerMedian(new Float64Array([5, 1, 3, 9]), 3)).toBe(3);
    expect(lowerMedian(new Float64Array(2), 0)).toBe(0);
  });
});

describe('weighted order', () => {
  it('draws by cumulative weight over the members given, skipping weight 0', () => {
    const weights = [70, 0, 20, 10];
    const all = [0, 1, 2, 3];
    expect([0, 0.69, 0.7, 0.89, 0.9, 0.999].map((r) => weightedDraw(weights, all, 4, r))).toEqual([0, 0, 2, 2, 3, 3]);
    // Member 0 not available: the draw is over 2 and 3 alone (positions in `members`).
    expect([0, 0.66, 0.67].map((r) => weightedDraw(weights, [2, 3], 2, r))).toEqual([0, 0, 1]);
    expect(weightedDraw([0, 0], [0, 1], 2, 0.5)).toBe(-1);
  });

  it('hashes a key and member as if joined, into (0, 1), and scores weight 0 lowest', () => {
    expect(fnv1a('member', fnv1a('key'))).toBe(fnv1a('keymember'));
    for (const s of ['', 'a', 'tenant-1']) {
      const u = unitHash(fnv1a(s));
      expect(u).toBeGreaterThan(0);
      expect(u).toBeLessThan(1);
    }
    expect(rendezvousScore(0.5, 0)).toBe(0);
    expect(rendezvousScore(0.5, 2)).toBeCloseTo(2 * rendezvousScore(0.5, 1), 12);
  });
});
