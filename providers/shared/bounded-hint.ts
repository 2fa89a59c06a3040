/**
 * The longest wait any hint may ask for: a day, the longest window a provider documents (a daily
 * request limit). A hint beyond it (`retry-after: 99999999`, 400 digits) is a broken header, not a
 * reason to cool a target for years; a hint that is not a finite, non-negative number is none.
 */
export const MAX_WAIT_HINT_MS = 24 * 60 * 60 * 1000;

/** A hint within bounds, or undefined when it is not a usable number. */
export function boundedHint(ms: number | undefined): number | undefined {
  if (ms === undefined || !Number.isFinite(ms) || ms < 0) return undefined;
  return Math.min(ms, MAX_WAIT_HINT_MS);
}
