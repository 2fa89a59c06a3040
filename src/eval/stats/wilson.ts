import { zFor } from './normal-quantile.js';

/**
 * The Wilson score interval for `passed` of `n`, as rates in 0..1 (95% unless `confidence` says
 * otherwise). Unlike the normal approximation it stays inside [0, 1] and is not zero-width at 0 of n
 * or n of n. No runs: [0, 1] (nothing is known).
 * @example wilson(81, 263) // [0.2553, 0.3662] (Newcombe 1998, method 3)
 */
export function wilson(passed: number, n: number, confidence = 0.95): [number, number] {
  if (n <= 0) return [0, 1];
  const z = zFor(confidence);
  const p = passed / n;
  const z2 = z * z;
  const denominator = 1 + z2 / n;
  const centre = (p + z2 / (2 * n)) / denominator;
  const half = (z / denominator) * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n));
  return [Math.max(0, centre - half), Math.min(1, centre + half)];
}
