/** Small, dependency-free statistics for benchmark samples. */

/** The q-quantile (0..1) of unsorted samples, by linear interpolation; NaN for none. */
export function quantile(samples: readonly number[], q: number): number {
  if (samples.length === 0) return Number.NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  return quantileSorted(sorted, q);
}

/** The q-quantile of samples already sorted ascending. */
export function quantileSorted(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return Number.NaN;
  const pos = (sorted.length - 1) * q;
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  return sorted[lo]! + (sorted[hi]! - sorted[lo]!) * (pos - lo);
}

/** The 0.5 quantile. */
export const median = (samples: readonly number[]): number => quantile(samples, 0.5);

/** Median with its interquartile range and extremes: what every repeated figure is reported as. */
export interface Spread {
  median: number;
  q1: number;
  q3: number;
  min: number;
  max: number;
  n: number;
}

/** Median, quartiles and extremes of unsorted samples. */
export function spread(samples: readonly number[]): Spread {
  const sorted = [...samples].sort((a, b) => a - b);
  return {
    median: quantileSorted(sorted, 0.5),
    q1: quantileSorted(sorted, 0.25),
    q3: quantileSorted(sorted, 0.75),
    min: sorted[0] ?? Number.NaN,
    max: sorted[sorted.length - 1] ?? Number.NaN,
    n: sorted.length,
  };
}

/** Least-squares slope and intercept of y over x. */
export function linearFit(xs: readonly number[], ys: readonly number[]): { slope: number; intercept: number } {
  const n = Math.min(xs.length, ys.length);
  if (n < 2) return { slope: Number.NaN, intercept: Number.NaN };
  let sx = 0, sy = 0, sxx = 0, sxy = 0;
  for (let i = 0; i < n; i++) {
    sx += xs[i]!;
    sy += ys[i]!;
    sxx += xs[i]! * xs[i]!;
    sxy += xs[i]! * ys[i]!;
  }
  const slope = (n * sxy - sx * sy) / (n * sxx - sx * sx);
  return { slope, intercept: (sy - slope * sx) / n };
}

/** The sum of the samples. */
export function sum(samples: readonly number[]): number {
  let s = 0;
  for (const x of samples) s += x;
  return s;
}

/** The arithmetic mean; NaN for none. */
export function mean(samples: readonly number[]): number {
  return samples.length === 0 ? Number.NaN : sum(samples) / samples.length;
}
