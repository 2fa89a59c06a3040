import { errorFacts, type ErrorKind } from '../errors.js';

/**
 * How an attempt's outcome counts for a circuit breaker, the one vocabulary every layer uses:
 * `failure` (a sick server), `success`, or `neutral` (a 429, a caller's bug, an abort: it stays out
 * of the statistics entirely).
 */
export type BreakerOutcome = 'success' | 'failure' | 'neutral';

/** The breaker column of the decision table: only a sick server counts (the kind's `breakerCounts`, src/errors.ts); a 429 or a caller's bug never does. */
export function breakerVerdict(kind: ErrorKind): 'failure' | 'neutral' {
  return errorFacts(kind).breakerCounts ? 'failure' : 'neutral';
}
