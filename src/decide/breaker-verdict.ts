import type { ErrorKind } from '../errors.js';

/** How an outcome counts for a circuit breaker: only a sick server counts; a 429 or a caller's bug never does. */
export type BreakerVerdict = 'failure' | 'ignore';

const COUNTS: ReadonlySet<ErrorKind> = new Set<ErrorKind>(['server', 'transport', 'timeout']);

/** The breaker column of the decision table. */
export function breakerVerdict(kind: ErrorKind): BreakerVerdict {
  return COUNTS.has(kind) ? 'failure' : 'ignore';
}
