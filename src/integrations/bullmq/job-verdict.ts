import { errorFacts, isErrorKind, isRouterError, type ErrorKind } from '../../errors.js';
import type { Attempt } from '../../types.js';

/**
 * What a queue should do with a job whose call failed: `snooze` (it will clear by itself: run it
 * again after `delayMs`, without spending an attempt), `cancel` (it never will: fail it now), or
 * `retry` (maybe: let the queue's own backoff decide).
 */
export type JobVerdict =
  | { action: 'snooze'; delayMs: number }
  | { action: 'cancel' }
  | { action: 'retry' };

/** Out of reach until someone acts (fixes the request or the config, pays): the kind is not `retryable`. */
const permanent = (kind: ErrorKind): boolean => !errorFacts(kind).retryable;

/** Capacity that comes back with time (`clearsWithTime`): a rate-limit window, a local budget, a breaker's next probe. */
const clearsByItself = (kind: ErrorKind): boolean => errorFacts(kind).clearsWithTime;

const known = (ms: number | undefined): ms is number => typeof ms === 'number' && Number.isFinite(ms) && ms >= 0;

/** A target out for good: a permanent kind, or a local budget the request is larger than (`too_large`: no wait makes it fit). */
const outForGood = (a: { kind?: ErrorKind; code?: string }): boolean => permanent(a.kind!) || (a.kind === 'local_limit' && a.code === 'too_large');

/** An exhausted chain: hopeless when every target was out for good, snoozed when one comes back with time. */
function exhaustedVerdict(attempts: readonly Attempt[], code: string | undefined, retryAfterMs: number | undefined): JobVerdict {
  const failed = attempts.filter((a) => a.kind !== undefined);
  if (failed.length > 0 ? failed.every(outForGood) : isErrorKind(code) && permanent(code)) return { action: 'cancel' };
  // The soonest moment is only a promise when it comes from capacity: a parked quota's end or a 5xx is not.
  if (known(retryAfterMs) && failed.some((a) => clearsByItself(a.kind!) && !outForGood(a))) return { action: 'snooze', delayMs: retryAfterMs };
  return { action: 'retry' };
}

/**
 * Decides a failed job's fate from the error alone (pure): a RouterError the router says clears by
 * itself snoozes; a spend budget that is full (`budget_exceeded`) snoozes until its blocking window
 * (the UTC day or month) turns, which its `retryAfterMs` says, and cancels without one; quota,
 * billing and caller faults cancel (an exhausted chain whose every target was
 * out of quota, could not carry the request or has a budget smaller than it, too); everything else
 * (5xx, timeouts, transport, aborts, invalid output, errors that are not the router's) is left to
 * the queue's retries. The kinds' facts come from ERROR_FACTS (src/errors.ts).
 */
export function jobVerdict(err: unknown): JobVerdict {
  if (!isRouterError(err)) return { action: 'retry' };
  // A full budget is no caller fault a job can fix, but its window turns: run the job again then.
  if (err.kind === 'budget_exceeded') return known(err.retryAfterMs) ? { action: 'snooze', delayMs: err.retryAfterMs } : { action: 'cancel' };
  if (outForGood(err)) return { action: 'cancel' };
  if (err.kind === 'exhausted') return exhaustedVerdict(err.attempts, err.code, err.retryAfterMs);
  if (clearsByItself(err.kind) && known(err.retryAfterMs)) return { action: 'snooze', delayMs: err.retryAfterMs };
  return { action: 'retry' };
}
