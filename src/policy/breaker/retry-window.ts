import { RETRY_BUDGET_BUCKETS, RETRY_BUDGET_WINDOW_MS, retryBudgetAllows } from '../../decide/retry-budget.js';

/** The rolling window a retry budget counts over (Finagle's `ttl`). */
export const RETRY_WINDOW_MS = RETRY_BUDGET_WINDOW_MS;
const BUCKETS = RETRY_BUDGET_BUCKETS;
const BUCKET_MS = RETRY_WINDOW_MS / BUCKETS;

/**
 * One target's retry budget bookkeeping: first attempts and retries over the last 10 s, in ten
 * one-second buckets (a count leaves the window whole, at most one second late). Time comes from
 * the caller (the router's clock), never from here; targets of one `provider:model` share one window,
 * each step with its own percentage; the verdict is `retryBudgetAllows` (src/decide).
 */
export class RetryWindow {
  private readonly firsts = new Array<number>(BUCKETS).fill(0);
  private readonly retries = new Array<number>(BUCKETS).fill(0);
  /** The bucket number (time / bucket length) of the newest bucket. */
  private head = 0;

  /** A call's first attempt on this target was sent. */
  first(nowMs: number): void {
    this.firsts[this.advance(nowMs)]!++;
  }

  /** Whether one more retry fits under `budgetPercent` (plus `floor` retries a window), spent evenly, now; takes nothing. */
  allows(nowMs: number, budgetPercent: number, floor?: number): boolean {
    const head = this.advance(nowMs);
    // Nine whole buckets and the newest one so far (a clock that stepped back counts as its start).
    const spanMs = RETRY_WINDOW_MS - BUCKET_MS + Math.max(0, nowMs - this.head * BUCKET_MS);
    return retryBudgetAllows({ firstAttempts: sum(this.firsts), retries: sum(this.retries), budgetPercent, floor, newestRetries: this.retries[head]!, spanMs });
  }

  /** A retry was let through: it counts against the budget. */
  retried(nowMs: number): void {
    this.retries[this.advance(nowMs)]!++;
  }

  /** The window's counts now (for tests and the bench). */
  counts(nowMs: number): { firstAttempts: number; retries: number } {
    this.advance(nowMs);
    return { firstAttempts: sum(this.firsts), retries: sum(this.retries) };
  }

  private advance(nowMs: number): number {
    const bucket = Math.floor(nowMs / BUCKET_MS);
    if (bucket > this.head) {
      // Empties the buckets that left the window (all of them after a long quiet spell).
      for (let b = Math.max(this.head + 1, bucket - BUCKETS + 1); b <= bucket; b++) {
        this.firsts[b % BUCKETS] = 0;
        this.retries[b % BUCKETS] = 0;
      }
      this.head = bucket;
    }
    // A time before the head (a clock that stepped back) counts into the newest bucket.
    return this.head % BUCKETS;
  }
}

function sum(xs: readonly number[]): number {
  let s = 0;
  for (const x of xs) s += x;
  return s;
}
