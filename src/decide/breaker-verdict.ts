import type { ErrorKind } from '../errors.js';

/**
 * How an attempt's outcome counts for a circuit breaker, the one vocabulary every layer uses:
 * `failure` (a sick server), `success`, or `neutral` (a 429, a caller's bug, an abort: it stays out
 * of the statistics entirely).
 */
export type BreakerOutcome = 'success' | 'failure' | 'neutral';

const COUNTS: ReadonlySet<ErrorKind> = new Set<ErrorKind>(['server', 'transport', 'timeout']);

/** The breaker column of the decision table: only a sick server counts; a 429 or a caller's bug never does. */
export function breakerVerdict(kind: ErrorKind): 'failure' | 'neutral' {
  return COUNTS.has(kind) ? 'failure' : 'neutral';
}
