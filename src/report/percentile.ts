/**
 * The nearest-rank percentile: the smallest value with at least `p`% of the values at or below it
 * (p50 of [1, 2, 3, 4] is 2; p95 of 20 values is the 19th). Undefined for no values.
 */
export function percentile(values: readonly number[], p: number): number | undefined {
  if (values.length === 0) return undefined;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.max(1, Math.ceil((p / 100) * sorted.length));
  return sorted[Math.min(rank, sorted.length) - 1];
}
