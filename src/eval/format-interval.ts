import { formatRate } from './format.js';

/** `[0.676, 1]` → `[67.6%, 100.0%]`; absent → `-`. */
export function formatInterval(interval: readonly [number, number] | undefined): string {
  return interval ? `[${formatRate(interval[0])}, ${formatRate(interval[1])}]` : '-';
}
