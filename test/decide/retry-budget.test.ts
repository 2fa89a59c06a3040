import { describe, expect, it } from 'vitest';
import { RETRY_BUDGET_FLOOR, retryBudgetAllows } from '../../src/decide/retry-budget.js';
import { RetryWindow } from '../../src/policy/retry-window.js';

describe('retryBudgetAllows', () => {
  it('allows retries up to budgetPercent of first attempts plus the floor', () => {
    const at = (retries: number) => retryBudgetAllows({ firstAttempts: 1000, retries, budgetPercent: 20 });
    expect(at(200 + RETRY_BUDGET_FLOOR - 1)).toBe(true);
    expect(at(200 + RETRY_BUDGET_FLOOR)).toBe(false);
  });

  it('lets a quiet target retry on the floor alone', () => {
    expect(retryBudgetAllows({ firstAttempts: 1, retries: 0, budgetPercent: 20 })).toBe(true);
    expect(retryBudgetAllows({ firstAttempts: 1, retries: 0, budgetPercent: 20, floor: 0 })).toBe(false);
  });

  it('allows nothing at budgetPercent 0, floor included', () => {
    expect(retryBudgetAllows({ firstAttempts: 1000, retries: 0, budgetPercent: 0 })).toBe(false);
  });
});

describe('RetryWindow', () => {
  it('counts over ten one-second buckets and forgets what left the window', () => {
    const w = new RetryWindow();
    const t0 = 1_700_000_000_000;
    for (let i = 0; i < 100; i++) w.first(t0);
    w.retried(t0);
    w.first(t0 + 5_000);
    expect(w.counts(t0 + 9_999)).toEqual({ firstAttempts: 101, retries: 1 });
    expect(w.counts(t0 + 10_000)).toEqual({ firstAttempts: 1, retries: 0 });
    expect(w.counts(t0 + 60_000)).toEqual({ firstAttempts: 0, retries: 0 });
  });

  it('allows and counts against budgetPercent', () => {
    const w = new RetryWindow();
    for (let i = 0; i < 50; i++) w.first(0);
    let granted = 0;
    while (w.allows(0, 20)) {
      w.retried(0);
      granted++;
    }
    expect(granted).toBe(10 + RETRY_BUDGET_FLOOR);
  });
});
