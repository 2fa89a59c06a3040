/**
 * The retry budget's verdict (`retry.budgetPercent`): may one more retry go to a target, given what
 * was sent to it over the rolling window? Pure: the counts come from the window's bookkeeping
 * (src/policy/breaker/retry-window.ts).
 *
 * The references, and where this one differs:
 * - Finagle's RetryBudget (https://twitter.github.io/finagle/guide/Clients.html#retries, the
 *   `RetryBudget` scaladoc): every request deposits, every retry withdraws; a retry is allowed while
 *   withdrawals stay under `percentCanRetry` of deposits over a `ttl` (10 s), plus a floor of
 *   `minRetriesPerSec` (10 a second by default) so a quiet client can still retry. Its deposits
 *   expire after about `ttl` (the scaladoc, https://twitter.github.io/finagle/docs/com/twitter/finagle/service/RetryBudget$.html;
 *   the 2016 announcement, https://finagle.github.io/blog/2016/02/08/retry-budgets: "20% of requests
 *   ... on top of a minimum of 10 retries per second ... credits expire after 10 seconds").
 * - Envoy's retry_budget (https://www.envoyproxy.io/docs/envoy/latest/api-v3/config/cluster/v3/circuit_breaker.proto,
 *   `RetryBudget`): `budget_percent` (20% by default) of active requests may be retries, with
 *   `min_retry_concurrency` (3) as the floor: a limit on concurrent retries against active
 *   requests, so it has no history to spend at once.
 * Here: retries over the last 10 s stay under `budgetPercent` of the first attempts over the same
 * 10 s, plus a floor of `retry.budgetMinRetries` retries a window (50 by default: five a second, half
 * of Finagle's default). A quiet target (a few calls a second) retries nearly every failure on the
 * floor, where 20% of its handful of first attempts would allow none; a busy one barely feels it (at
 * 200 calls a second in a 50% brownout the floor adds 2.5% of load to the 20%). `budgetPercent: 0`
 * turns retries off altogether, floor included.
 *
 * One rule more than Finagle's, for Envoy's steadiness: the window's allowance is spent evenly, a tenth of it a second at
 * most (`newestRetries`, the retries of the newest second; the allowance of a whole 10 s at the
 * current rate of first attempts, `spanMs`), except that a second may always spend
 * what the earlier seconds left of the floor (a burst of failures on a quiet target). Without it a
 * brownout that follows 10 s of healthy traffic finds the window full of first attempts and no
 * retries, spends the whole allowance in its first two seconds, and 10 s later, when those retries
 * leave the window together, spends it again: a 15 s brownout at 200 calls a second measured 1.29
 * attempts a call (1.25 with no floor at all) where the budget says 1.225. Paced, it retries the
 * same share of its calls whatever its phase against the window.
 */

/** Retries a window allows on top of the percentage by default (`retry.budgetMinRetries`). */
export const RETRY_BUDGET_FLOOR = 50;
/** The window's length in one-second buckets: its allowance is spent at most a tenth of it a second. */
export const RETRY_BUDGET_BUCKETS = 10;
/** The rolling window the budget counts over (Finagle's `ttl`). */
export const RETRY_BUDGET_WINDOW_MS = 10_000;

/** The window's counts for one target. */
export interface RetryBudgetInput {
  /** First attempts sent to the target over the window (a call's attempt 1 on it). */
  firstAttempts: number;
  /** Retries already let through over the window (attempt 2 and later). */
  retries: number;
  /** The target's `budgetPercent` (0-100, or more: 100 lets each first attempt retry once on average). */
  budgetPercent: number;
  /** Retries the window allows whatever the percentage (`retry.budgetMinRetries`); RETRY_BUDGET_FLOOR when absent. */
  floor?: number;
  /**
   * Retries let through in the newest second of the window; with it, that second's retries stay
   * under a tenth of the window's allowance or what earlier seconds left of the floor, whichever is
   * more (spent evenly). Absent: not paced.
   */
  newestRetries?: number;
  /**
   * How much time the counts cover, in ms (nine whole seconds and the newest one so far): the pace
   * is a tenth of what a whole 10 s of first attempts at that rate allows. @default 10_000
   */
  spanMs?: number;
}

/** Whether one more retry fits the budget. */
export function retryBudgetAllows(input: RetryBudgetInput): boolean {
  if (input.budgetPercent <= 0) return false;
  const floor = input.floor ?? RETRY_BUDGET_FLOOR;
  const allowed = (input.firstAttempts * input.budgetPercent) / 100 + floor;
  if (input.retries + 1 > allowed) return false;
  if (input.newestRetries === undefined) return true;
  // This second: a tenth of a whole window's allowance at the current rate of first attempts (the
  // counts cover 9 to 10 s), or what the earlier seconds left of the floor.
  const scale = RETRY_BUDGET_WINDOW_MS / Math.min(RETRY_BUDGET_WINDOW_MS, Math.max(1, input.spanMs ?? RETRY_BUDGET_WINDOW_MS));
  const perSecond = ((input.firstAttempts * scale * input.budgetPercent) / 100 + floor) / RETRY_BUDGET_BUCKETS;
  const floorLeft = floor - (input.retries - input.newestRetries);
  return input.newestRetries + 1 <= Math.max(perSecond, floorLeft);
}
