import { describe, expect, it } from 'vitest';
import { parseCase } from '../../src/eval/case-schema.js';
import { costUsd, priceFor } from '../../src/eval/cost.js';
import { summariseCase } from '../../src/eval/summarise-case.js';
import { summariseTarget } from '../../src/eval/summarise-target.js';
import { mostCommon, modalShare, normaliseAnswer, percentile } from '../../src/eval/stats.js';
import { PRICE, answered, errored } from './helpers.js';

const target = { key: 'p:m', provider: 'p', model: 'm' };

describe('stats', () => {
  it.each([
    [[5], 50, 5], [[5], 95, 5],
    [[1, 2, 3, 4], 50, 2], [[4, 3, 2, 1], 95, 4],
    [Array.from({ length: 20 }, (_, i) => i + 1), 95, 19],
    [Array.from({ length: 20 }, (_, i) => i + 1), 50, 10],
    [Array.from({ length: 100 }, (_, i) => 100 - i), 95, 95],
    [[10, 1000], 50, 10],
  ])('takes the nearest-rank percentile of %j at p%i as %i', (values, p, expected) => {
    expect(percentile(values, p)).toBe(expected);
  });

  it('has no percentile for no values', () => {
    expect(percentile([], 50)).toBeNaN();
  });

  it('compares answers trimmed with whitespace collapsed, keeping case', () => {
    expect(normaliseAnswer('  Paris \n\n is  big ')).toBe('Paris is big');
    expect(normaliseAnswer('Paris')).not.toBe(normaliseAnswer('paris'));
  });

  it('measures the share of the most common value, ties going to the first seen', () => {
    expect(modalShare(['a', 'a', 'a'])).toBe(1);
    expect(modalShare(['a', 'b', 'a', 'c'])).toBe(0.5);
    expect(mostCommon(['b', 'a', 'a', 'b'])).toEqual({ value: 'b', count: 2 });
  });
});

describe('cost', () => {
  it('prices a target by provider:model first, then by model alone', () => {
    const prices = { 'p:m': PRICE, m: { inputPerMTok: 9, outputPerMTok: 9 }, other: { inputPerMTok: 1, outputPerMTok: 1 } };
    expect(priceFor(prices, target)).toBe(PRICE);
    expect(priceFor({ m: PRICE }, target)).toBe(PRICE);
    expect(priceFor({ other: PRICE }, target)).toBeUndefined();
  });

  it('estimates USD from tokens at a price per million', () => {
    expect(costUsd({ inputTokens: 1_000_000, outputTokens: 500_000 }, PRICE)).toBeCloseTo(7, 10);
    expect(costUsd({ inputTokens: 100, outputTokens: 20 }, PRICE)).toBeCloseTo(0.0004, 12);
  });
});

describe('summariseTarget', () => {
  const runs = [
    answered('a', 'p:m', 'yes', { latencyMs: 40, costUsd: 0.001 }),
    answered('b', 'p:m', 'no', { latencyMs: 10, costUsd: 0.002, failed: ['contains', 'maxLength'] }),
    answered('c', 'p:m', 'maybe', { latencyMs: 30, costUsd: 0.003, failed: ['contains'] }),
    errored('d', 'p:m', 'quota_exhausted', { latencyMs: 1 }),
    errored('e', 'p:m', 'server', { latencyMs: 9_999 }),
  ];
  const s = summariseTarget(target, runs, 1, PRICE);

  it('counts errors as not passed in the pass rate', () => {
    expect(s).toMatchObject({ runs: 5, passed: 1, failed: 2, errored: 2, passRate: 0.2 });
  });

  it('counts failures per expectation and errors per kind', () => {
    expect(s.failuresByExpectation).toEqual({ contains: 2, maxLength: 1 });
    const ordered = summariseTarget(target, [answered('a', 'p:m', 'x', { failed: ['score', 'maxLength', 'contains'] })], 1, undefined);
    expect(Object.keys(ordered.failuresByExpectation)).toEqual(['contains', 'maxLength', 'score']);
    expect(s.errorKinds).toEqual({ quota_exhausted: 1, server: 1 });
  });

  it('takes latency percentiles over answered runs only', () => {
    expect(s.latencyMs).toEqual({ p50: 30, p95: 40 });
  });

  it('sums tokens and cost over answered runs', () => {
    expect(s.tokens).toEqual({ input: 300, output: 60 });
    expect(s.costUsd).toBeCloseTo(0.006, 12);
    expect(s.price).toEqual(PRICE);
  });

  it('reports cost as unknown, not zero, when the target has no price', () => {
    const unpriced = summariseTarget(target, runs, 1, undefined);
    expect(unpriced.costUsd).toBeNull();
    expect(unpriced.price).toBeNull();
  });

  it('has no latency when the target never answered, and no stability without repeats', () => {
    const down = summariseTarget(target, [errored('a', 'p:m', 'auth'), errored('b', 'p:m', 'auth')], 1, PRICE);
    expect(down).toMatchObject({ passRate: 0, latencyMs: null, costUsd: 0, stability: null, flakyCases: null, errorKinds: { auth: 2 } });
  });

  it('measures stability as the mean share of each case\'s answers equal to its most common one', () => {
    const repeated = [
      // case a: 3 identical answers (whitespace aside) -> 1
      answered('a', 'p:m', 'Paris'), answered('a', 'p:m', ' Paris ', { repeat: 1 }), answered('a', 'p:m', 'Paris', { repeat: 2 }),
      // case b: two of three agree -> 2/3, and the verdicts differ -> flaky
      answered('b', 'p:m', 'yes'), answered('b', 'p:m', 'no', { repeat: 1, failed: ['equals'] }), answered('b', 'p:m', 'yes', { repeat: 2 }),
      // case c: one answer only (two errors): not enough answers to say, left out
      answered('c', 'p:m', 'x'), errored('c', 'p:m', 'server', { repeat: 1 }), errored('c', 'p:m', 'server', { repeat: 2 }),
    ];
    const r = summariseTarget(target, repeated, 3, undefined);
    expect(r.stability).toBeCloseTo((1 + 2 / 3) / 2, 10);
    expect(r.flakyCases).toBe(2);
  });

  it('has no stability for a target that never answered, even with repeats', () => {
    expect(summariseTarget(target, [errored('a', 'p:m', 'auth'), errored('a', 'p:m', 'auth', { repeat: 1 })], 2, undefined).stability).toBeNull();
  });
});

describe('summariseCase', () => {
  const parsed = parseCase({ id: 'a', prompt: 'Capital of France?', expect: { equals: 'Paris', maxLength: 10 } });
  const evalCase = parsed.ok ? parsed.value : undefined!;
  const targets = ['x:1', 'y:2', 'z:3'];

  it('finds no disagreement when every target gets the same verdict', () => {
    const c = summariseCase(evalCase, targets, [answered('a', 'x:1', 'Paris'), answered('a', 'y:2', 'Paris'), answered('a', 'z:3', 'Paris ')]);
    expect(c).toMatchObject({ disagree: false, passing: targets, notPassing: [], expectations: ['equals', 'maxLength'] });
    expect(c.answerGroups).toEqual([{ answer: 'Paris', targets }]);
  });

  it('names the targets that pass and those that do not when verdicts split', () => {
    const c = summariseCase(evalCase, targets, [
      answered('a', 'x:1', 'Paris'), answered('a', 'y:2', 'Lyon', { failed: ['equals'] }), answered('a', 'z:3', 'Paris'),
    ]);
    expect(c).toMatchObject({ disagree: true, passing: ['x:1', 'z:3'], notPassing: ['y:2'] });
    expect(c.cells.map((cell) => cell.status)).toEqual(['pass', 'fail', 'pass']);
    expect(c.cells[1]!.failures).toEqual(['equals: equals failed']);
    expect(c.answerGroups).toEqual([{ answer: 'Paris', targets: ['x:1', 'z:3'] }, { answer: 'Lyon', targets: ['y:2'] }]);
  });

  it('treats a target that passes only some repeats as disagreeing with one that always passes', () => {
    const c = summariseCase(evalCase, ['x:1', 'y:2'], [
      answered('a', 'x:1', 'Paris'), answered('a', 'x:1', 'Paris', { repeat: 1 }),
      answered('a', 'y:2', 'Paris'), answered('a', 'y:2', 'paris', { repeat: 1, failed: ['equals'] }),
    ]);
    expect(c.disagree).toBe(true);
    expect(c.cells[1]).toMatchObject({ status: 'mixed', runs: 2, passed: 1 });
  });

  it('reports a target that never answered as an error, not as a disagreement', () => {
    const c = summariseCase(evalCase, targets, [answered('a', 'x:1', 'Paris'), answered('a', 'y:2', 'Paris'), errored('a', 'z:3', 'quota_exhausted')]);
    expect(c).toMatchObject({ disagree: false, passing: ['x:1', 'y:2'], notPassing: ['z:3'] });
    expect(c.cells[2]).toMatchObject({ status: 'error', errorKinds: ['quota_exhausted'] });
    expect(c.cells[2]!.answer).toBeUndefined();
  });
});
