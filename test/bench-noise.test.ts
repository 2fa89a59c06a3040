import { describe, expect, it } from 'vitest';
import {
  balancedOrder, compare, comparisonRow, formatInterval, normaliseRule, roundsBrief, pairedRatios, ratioInterval, roundsLine,
  roundsUntilTight, stopReason, t975, verdict, type RatioInterval, type StoppingRule,
} from '../bench/lib/noise.js';
import { mulberry32 as seeded } from '../providers/shared/answers/prng.js';

// The bench's statistics (bench/lib/noise.ts), on seeded random samples: no timing, no bench run.

/** A standard normal draw (Box-Muller). */
function normal(random: () => number): number {
  return Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
}

/**
 * One simulated bench run of `rounds` rounds: per round a shared machine effect (it moves every arm of
 * the round alike, which pairing by round cancels) and each arm's own noise; the candidate is `change`
 * times the baseline, the twin is the baseline again.
 */
function simulatedRun(random: () => number, rounds: number, change: number, noise: number) {
  const baseline: number[] = [];
  const twin: number[] = [];
  const candidate: number[] = [];
  for (let r = 0; r < rounds; r++) {
    const machine = Math.exp(0.2 * normal(random));
    baseline.push(1000 * machine * Math.exp(noise * normal(random)));
    twin.push(1000 * machine * Math.exp(noise * normal(random)));
    candidate.push(1000 * change * machine * Math.exp(noise * normal(random)));
  }
  return { baseline, twin, candidate };
}

const interval = (lo: number, hi: number, n = 10): RatioInterval => ({ n, ratio: Math.sqrt(lo * hi), lo, hi, width: hi / lo - 1 });

describe('t975', () => {
  it('is Student t\'s 0.975 quantile: the table to 30 degrees of freedom, then close to the normal\'s', () => {
    expect(t975(1)).toBe(12.706);
    expect(t975(9)).toBe(2.262);
    expect(t975(30)).toBe(2.042);
    expect(t975(40)).toBeCloseTo(2.021, 3);
    expect(t975(120)).toBeCloseTo(1.980, 3);
    expect(t975(1e6)).toBeCloseTo(1.96, 3);
    expect(t975(31)).toBeLessThan(t975(30));
    expect(t975(0)).toBeNaN();
  });
});

describe('ratioInterval', () => {
  it('is the geometric mean of the per-round ratios, with no width when every round agrees', () => {
    const i = ratioInterval([1.1, 1.1, 1.1, 1.1]);
    expect(i.n).toBe(4);
    expect(i.ratio).toBeCloseTo(1.1, 12);
    expect(i.lo).toBeCloseTo(1.1, 12);
    expect(i.width).toBeCloseTo(0, 12);
    expect(ratioInterval([2, 0.5]).ratio).toBeCloseTo(1, 12);
  });

  it('has no interval below two usable rounds, and leaves out ratios that are not finite and positive', () => {
    expect(ratioInterval([]).width).toBe(Number.POSITIVE_INFINITY);
    expect(ratioInterval([1.2]).ratio).toBeCloseTo(1.2, 12);
    expect(ratioInterval([1.2]).width).toBe(Number.POSITIVE_INFINITY);
    expect(ratioInterval([1.2, Number.NaN, 0, Number.POSITIVE_INFINITY]).n).toBe(1);
    expect(pairedRatios([2, 3, 4], [1, 0])).toEqual([2, Number.POSITIVE_INFINITY]);
  });

  it('covers the true ratio in about 95% of seeded runs of 8 rounds', () => {
    const random = seeded(41);
    let covered = 0;
    const runs = 2000;
    for (let k = 0; k < runs; k++) {
      const { baseline, candidate } = simulatedRun(random, 8, 1.05, 0.03);
      const i = ratioInterval(pairedRatios(candidate, baseline));
      if (i.lo <= 1.05 && 1.05 <= i.hi) covered++;
    }
    expect(covered / runs).toBeGreaterThan(0.93);
    expect(covered / runs).toBeLessThan(0.97);
  });

  it('narrows as rounds are added (about 1 / sqrt(rounds))', () => {
    const random = seeded(7);
    const { baseline, candidate } = simulatedRun(random, 64, 1, 0.03);
    const w8 = ratioInterval(pairedRatios(candidate.slice(0, 8), baseline.slice(0, 8))).width;
    const w64 = ratioInterval(pairedRatios(candidate, baseline)).width;
    expect(w64).toBeLessThan(w8 / 2);
  });
});

describe('balancedOrder', () => {
  const arms = ['direct', 'before', 'before-aa', 'router'];

  it('runs every two arms once in each order in every pair of rounds (ABBA)', () => {
    for (let pair = 0; pair < 6; pair++) {
      const a = balancedOrder(arms, 2 * pair);
      const b = balancedOrder(arms, 2 * pair + 1);
      expect([...b].reverse()).toEqual(a);
      for (const x of arms) for (const y of arms) {
        if (x === y) continue;
        const first = [a, b].filter((o) => o.indexOf(x) < o.indexOf(y)).length;
        expect(first, `${x} before ${y} in rounds ${2 * pair}, ${2 * pair + 1}`).toBe(1);
      }
    }
  });

  it('puts every arm in every position equally often over 2 x arms rounds, and keeps every arm each round', () => {
    const counts = new Map<string, number[]>(arms.map((a) => [a, arms.map(() => 0)]));
    for (let r = 0; r < 2 * arms.length; r++) {
      const order = balancedOrder(arms, r);
      expect([...order].sort()).toEqual([...arms].sort());
      order.forEach((a, pos) => counts.get(a)![pos]!++);
    }
    for (const [, byPos] of counts) expect(byPos).toEqual([2, 2, 2, 2]);
  });

  it('handles one arm and none', () => {
    expect(balancedOrder(['a'], 3)).toEqual(['a']);
    expect(balancedOrder([], 1)).toEqual([]);
  });
});

describe('the stopping rule', () => {
  const rule: StoppingRule = { width: 0.03, minRounds: 6, maxRounds: 20, maxMs: 60_000 };
  const tight = interval(0.99, 1.01);
  const wide = interval(0.9, 1.1);

  it('never stops below the floor, stops when every interval is tight, else at the round or time cap', () => {
    expect(stopReason(rule, 4, 0, [tight])).toBeUndefined();
    expect(stopReason(rule, 6, 0, [tight, tight])).toBe('tight');
    expect(stopReason(rule, 6, 0, [tight, wide])).toBeUndefined();
    expect(stopReason(rule, 20, 0, [tight, wide])).toBe('round cap');
    expect(stopReason(rule, 8, 60_000, [wide])).toBe('time cap');
    expect(stopReason(rule, 20, 60_000, [tight])).toBe('tight');
  });

  it('rounds the floor and cap up to whole ABBA pairs', () => {
    expect(normaliseRule({ width: 0.02, minRounds: 5, maxRounds: 3, maxMs: 1 })).toEqual({ width: 0.02, minRounds: 6, maxRounds: 6, maxMs: 1 });
    expect(normaliseRule({ width: 0.02, minRounds: 0, maxRounds: 9, maxMs: 1 })).toMatchObject({ minRounds: 2, maxRounds: 10 });
  });

  it('adds rounds two at a time until the seeded per-round ratios give a tight interval', async () => {
    const random = seeded(3);
    const baseline: number[] = [];
    const candidate: number[] = [];
    let clock = 0;
    const run = (round: number) => {
      clock += 1_000;
      const machine = Math.exp(0.2 * normal(random));
      baseline[round] = machine * Math.exp(0.02 * normal(random));
      candidate[round] = 1.02 * machine * Math.exp(0.02 * normal(random));
      return Promise.resolve();
    };
    const r = await roundsUntilTight({ width: 0.03, minRounds: 4, maxRounds: 200, maxMs: 1e9 }, run, () => [ratioInterval(pairedRatios(candidate, baseline))], () => clock);
    expect(r.stoppedBy).toBe('tight');
    expect(r.rounds % 2).toBe(0);
    expect(r.rounds).toBeGreaterThan(4);
    expect(r.rounds).toBeLessThan(200);
    expect(r.elapsedMs).toBe(r.rounds * 1_000);
    expect(ratioInterval(pairedRatios(candidate, baseline)).width).toBeLessThanOrEqual(0.03);
    expect(ratioInterval(pairedRatios(candidate.slice(0, r.rounds - 2), baseline.slice(0, r.rounds - 2))).width).toBeGreaterThan(0.03);
  });

  it('stops at the caps and says which', async () => {
    let clock = 0;
    const never = () => [wide];
    const tick = () => {
      clock += 10_000;
      return Promise.resolve();
    };
    expect(await roundsUntilTight({ width: 0.03, minRounds: 2, maxRounds: 8, maxMs: 1e9 }, tick, never, () => clock)).toMatchObject({ rounds: 8, stoppedBy: 'round cap' });
    clock = 0;
    expect(await roundsUntilTight({ width: 0.03, minRounds: 2, maxRounds: 100, maxMs: 25_000 }, tick, never, () => clock)).toEqual({ rounds: 4, stoppedBy: 'time cap', elapsedMs: 40_000 });
  });
});

describe('verdict', () => {
  const aa = interval(0.99, 1.01);

  it('is beyond noise only when the interval excludes 1 and lies outside the A/A interval', () => {
    expect(verdict(interval(1.05, 1.08), aa, 'lower')).toBe('worse beyond noise');
    expect(verdict(interval(1.05, 1.08), aa, 'higher')).toBe('better beyond noise');
    expect(verdict(interval(0.92, 0.95), aa, 'lower')).toBe('better beyond noise');
    expect(verdict(interval(0.92, 0.95), aa, 'higher')).toBe('worse beyond noise');
    // Excludes 1 but overlaps the A/A interval: the method's own noise reaches that far.
    expect(verdict(interval(1.005, 1.03), aa, 'lower')).toBe('within noise');
    expect(verdict(interval(1.02, 1.05), interval(1.0, 1.03), 'lower')).toBe('within noise');
    expect(verdict(interval(0.95, 1.05), aa, 'lower')).toBe('within noise');
    expect(verdict(interval(1.05, 1.08, 1), aa, 'lower')).toBe('within noise');
  });

  // 20 rounds at 2% noise an arm: each interval is about ±1.3% wide, so a 5% change clears the A/A's.
  it('calls seeded A/A runs within noise and a 5% change beyond it, where a bare interval against 1 flags more A/A runs', () => {
    const random = seeded(20261207);
    const runs = 1000;
    let aaFlagged = 0;
    let changeFound = 0;
    let aaAgainstOne = 0;
    for (let k = 0; k < runs; k++) {
      // An A/A run: the candidate is the baseline's code again.
      const same = simulatedRun(random, 20, 1, 0.02);
      const a = compare('p50', 'lower', same.candidate, same.baseline, same.twin, 0.03);
      if (a.verdict !== 'within noise') aaFlagged++;
      if (a.cmp.lo > 1 || a.cmp.hi < 1) aaAgainstOne++;
      // A real change: 5% slower.
      const slower = simulatedRun(random, 20, 1.05, 0.02);
      if (compare('p50', 'lower', slower.candidate, slower.baseline, slower.twin, 0.03).verdict === 'worse beyond noise') changeFound++;
    }
    expect(aaFlagged / runs).toBeLessThan(0.02);
    expect(aaAgainstOne / runs).toBeGreaterThan(aaFlagged / runs);
    expect(changeFound / runs).toBeGreaterThan(0.9);
  });
});

describe('the printed lines', () => {
  it('shows the ratio, its interval, the A/A beside it and the verdict', () => {
    const c = compare('c=20 throughput', 'higher', [900, 910, 905, 895], [1000, 1000, 1000, 1000], [1000, 1005, 995, 1000], 0.03);
    const row = comparisonRow(c);
    expect(row[0]).toBe('c=20 throughput (higher is better)');
    expect(row[1]).toMatch(/^0\.902x \[0\.8\d\d–0\.9\d\d\]$/);
    expect(row[2]).toMatch(/^1\.000x \[0\.99\d–1\.00\d\]$/);
    expect(row[3]).toBe('**worse beyond noise**');
    expect(formatInterval(ratioInterval([1.5]))).toBe('1.500x');
    const biased = comparisonRow(compare('x', 'lower', [1, 1, 1, 1], [1, 1, 1, 1], [1.1, 1.11, 1.1, 1.12], 0.03));
    expect(biased[3]).toContain('the A/A interval excludes 1');
  });

  it('says how many rounds it took and whether it hit a cap', () => {
    const rule = { width: 0.03, minRounds: 6, maxRounds: 30, maxMs: 360_000 };
    expect(roundsLine({ rounds: 12, stoppedBy: 'tight', elapsedMs: 186_000 }, rule)).toBe('12 rounds (ABBA order) in 3.1 min, stopped: every tracked interval within 3.0%; floor 6, cap 30 rounds or 6.0 min.');
    expect(roundsLine({ rounds: 30, stoppedBy: 'round cap', elapsedMs: 1 }, rule)).toContain('**hit the round cap** (30)');
    expect(roundsLine({ rounds: 8, stoppedBy: 'time cap', elapsedMs: 1 }, rule)).toContain('**hit the time cap** (6.0 min)');
    expect(roundsBrief({ rounds: 12, stoppedBy: 'tight', elapsedMs: 1 })).toBe('12 rounds, intervals tight');
    expect(roundsBrief({ rounds: 30, stoppedBy: 'round cap', elapsedMs: 1 })).toBe('30 rounds, stopped at the round cap');
  });
});
