/**
 * When to hedge, and whether the chain may: pure rules over what the hedge book recorded.
 *
 * The delay is the first target's recent latency at `percentile` once there are MIN_SAMPLES answers
 * to read it from, else `afterMs`; with neither there is no hedge yet (a percentile-only chain starts
 * hedging once its first target has answered MIN_SAMPLES times). The cap is a budget in the manner
 * of Finagle's and Envoy's retry budgets: over the rolling window, hedges stay at or under
 * `maxExtraPercent` of the chain's calls, this call included, so a chain at 5% needs 20 calls before
 * its first hedge and never sends more than 1 extra request per 20.
 */

/** Answers needed before a percentile is trusted over `afterMs`. */
export const MIN_SAMPLES = 20;
/** Answers kept per target for the percentile. */
export const MAX_SAMPLES = 100;
/** The rolling window the cap counts calls and hedges over. */
export const HEDGE_WINDOW_MS = 10_000;

export interface HedgeTiming {
  afterMs?: number;
  percentile?: number;
}

/** The q-quantile (0..1) of `values`, nearest rank; NaN when empty. */
function nearestRank(values: readonly number[], q: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]!;
}

/** How long to wait for the first attempt before hedging; undefined: no hedge for this call. */
export function hedgeDelayMs(timing: HedgeTiming, samples: readonly number[]): number | undefined {
  if (timing.percentile !== undefined && samples.length >= MIN_SAMPLES) {
    return Math.max(1, Math.round(nearestRank(samples, timing.percentile / 100)));
  }
  return timing.afterMs;
}

/** True when one more hedge keeps the chain's hedges within `maxExtraPercent` of its `calls` (this call counted). */
export function hedgeAllowed(calls: number, hedges: number, maxExtraPercent: number): boolean {
  return (hedges + 1) * 100 <= calls * maxExtraPercent;
}
