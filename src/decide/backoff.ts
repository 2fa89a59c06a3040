/** Bounds for capped exponential backoff. */
export interface BackoffOptions {
  baseDelayMs: number;
  maxDelayMs: number;
}

/**
 * Capped exponential backoff with "equal jitter": the n-th retry (0-based) waits between half and all
 * of `min(maxDelayMs, baseDelayMs * 2^n)`, so retries spread out but never collapse to zero.
 */
export function backoffMs(retryIndex: number, opts: BackoffOptions, random: () => number = Math.random): number {
  const ceiling = Math.min(opts.maxDelayMs, opts.baseDelayMs * 2 ** Math.max(0, retryIndex));
  return ceiling / 2 + random() * (ceiling / 2);
}

/**
 * A provider's wait hint with jitter on top: never earlier than the provider said (that request would
 * fail again), spread by up to 10% (at most a second) plus 10 ms so callers released together do not
 * all arrive in the same millisecond.
 */
export function jitteredHintMs(hintMs: number, random: () => number = Math.random): number {
  return hintMs + random() * (Math.min(1000, hintMs * 0.1) + 10);
}
