import { describe, expect, it } from 'vitest';
import { RETRY_BUDGET_FLOOR, retryBudgetAllows } from '../../src/decide/retry-budget.js';
import { RetryWindow } from '../../src/policy/breaker/retry-window.js';

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

  it('lets a burst within one second spend the floor, not the whole window', () => {
    const w = new RetryWindow();
    for (let i = 0; i < 50; i++) w.first(0);
    let granted = 0;
    while (w.allows(0, 20)) {
      w.retried(0);
      granted++;
    }
    // The window allows 10 + 50 = 60; one second spends a tenth of that (6) or the floor (50).
    expect(granted).toBe(RETRY_BUDGET_FLOOR);
  });

  it('spends a tenth of the window\'s allowance a second once the floor is spent, never more than the window over ten seconds', () => {
    const w = new RetryWindow();
    // Ten healthy seconds at 100 first attempts a second, no retries: then a brownout.
    for (let s = 0; s < 10; s++) for (let i = 0; i < 100; i++) w.first(s * 1_000);
    const take = (now: number) => {
      let n = 0;
      while (w.allows(now, 20)) {
        w.retried(now);
        n++;
      }
      return n;
    };
    // Second 9: 1,000 first attempts, room for 200 + 50; the floor (50) goes at once, not the 250.
    const perSecond: number[] = [];
    expect(take(9_999)).toBe(RETRY_BUDGET_FLOOR);
    // Each later second: 100 new first attempts (the oldest second's left), a tenth of 250 = 25;
    // second 18 finds the window's 250 spent (50 + 8 × 25), second 19 has second 9's 50 back.
    for (let s = 10; s < 20; s++) {
      for (let i = 0; i < 100; i++) w.first(s * 1_000);
      perSecond.push(take(s * 1_000 + 999)); // at the end of the second: the counts cover 10 s
    }
    expect(perSecond).toEqual([...new Array(8).fill(25), 0, 25]);
  });

  it('paced: a second with retries of its own still gets its tenth, without pacing it would take the window', () => {
    expect(retryBudgetAllows({ firstAttempts: 1000, retries: 100, budgetPercent: 20, newestRetries: 24 })).toBe(true);
    expect(retryBudgetAllows({ firstAttempts: 1000, retries: 100, budgetPercent: 20, newestRetries: 25 })).toBe(false);
    expect(retryBudgetAllows({ firstAttempts: 1000, retries: 100, budgetPercent: 20 })).toBe(true);
    // Counts over 9 s are scaled to a whole window: 900 first attempts in 9 s pace like 1,000 in 10
    // (25 a second), not like 900 in 10 (23).
    expect(retryBudgetAllows({ firstAttempts: 900, retries: 100, budgetPercent: 20, newestRetries: 24, spanMs: 9_000 })).toBe(true);
    expect(retryBudgetAllows({ firstAttempts: 900, retries: 100, budgetPercent: 20, newestRetries: 25, spanMs: 9_000 })).toBe(false);
    expect(retryBudgetAllows({ firstAttempts: 900, retries: 100, budgetPercent: 20, newestRetries: 22 })).toBe(true);
    expect(retryBudgetAllows({ firstAttempts: 900, retries: 100, budgetPercent: 20, newestRetries: 23 })).toBe(false);
    // What earlier seconds left of the floor may go at once: 30 of it used before this second.
    expect(retryBudgetAllows({ firstAttempts: 10, retries: 30 + 19, budgetPercent: 20, newestRetries: 19 })).toBe(true);
    expect(retryBudgetAllows({ firstAttempts: 10, retries: 30 + 20, budgetPercent: 20, newestRetries: 20 })).toBe(false);
  });
});
