import { percentile as nearestRank } from '../report/percentile.js';

/** The nearest-rank percentile (see src/report/percentile.ts); NaN for no values. */
export function percentile(values: readonly number[], p: number): number {
  return nearestRank(values, p) ?? Number.NaN;
}

/** How answers are compared for stability and disagreement: trimmed, whitespace runs collapsed, case kept. */
export function normaliseAnswer(text: string): string {
  return text.trim().replace(/\s+/g, ' ');
}

/** The most common value and how often it occurs; ties go to the value seen first. */
export function mostCommon<T>(values: readonly T[]): { value: T; count: number } | undefined {
  const counts = new Map<T, number>();
  for (const v of values) counts.set(v, (counts.get(v) ?? 0) + 1);
  let best: { value: T; count: number } | undefined;
  // Map keeps insertion order, so on a tie the value seen first stays the best.
  for (const [value, count] of counts) if (!best || count > best.count) best = { value, count };
  return best;
}

/** The share of values equal to the most common one: 1 when all agree, 1/n when all differ. */
export function modalShare(values: readonly unknown[]): number {
  const top = mostCommon(values);
  return top ? top.count / values.length : Number.NaN;
}

/** The arithmetic mean; NaN for no values. */
export function mean(values: readonly number[]): number {
  return values.length === 0 ? Number.NaN : values.reduce((a, b) => a + b, 0) / values.length;
}
