import { errorFacts, isErrorKind, proxyStatusOf, type RouterError } from '../errors.js';
import type { Attempt } from '../types.js';

/** What an exhausted chain's failures say, and the status a proxy answers for it. */
export interface ExhaustedCause {
  /** 429 `capacity`: every failure was a rate limit, a quota or a full budget. 504 `timeout`: every one timed out. 503 `upstream` otherwise. */
  status: 429 | 503 | 504;
  cause: 'capacity' | 'timeout' | 'upstream';
}

/** A failure that says nothing about capacity or health: the target could not carry the request (a 4xx kind other than a 429). */
function neutral(status: number): boolean {
  return status >= 400 && status < 500 && status !== 429;
}

/**
 * The status of an exhausted chain, by the cause of its failures (pure): 429 only when every
 * failure was a rate limit or quota (its kind's own proxy status, ERROR_FACTS, is 429), 504 when
 * every one timed out, 503 otherwise: a chain down with 5xx, transport errors or open breakers is
 * an outage, not throttling. Attempts that answered, and targets that could not carry the request
 * (`unsupported`), say nothing either way. With no failed attempt to read, the kind of the last
 * failure (`exhausted`'s `code`) decides; with neither, 503.
 * @example exhaustedStatus([{ ok: false, kind: 'rate_limited' }, { ok: false, kind: 'server' }]) // { status: 503, cause: 'upstream' }
 */
export function exhaustedStatus(attempts: ReadonlyArray<Pick<Attempt, 'ok' | 'kind'>>, lastKind?: string): ExhaustedCause {
  let statuses = attempts.filter((a) => !a.ok && a.kind !== undefined).map((a) => errorFacts(a.kind!).proxyStatus).filter((s) => !neutral(s));
  if (statuses.length === 0 && isErrorKind(lastKind) && lastKind !== 'exhausted') statuses = [errorFacts(lastKind).proxyStatus].filter((s) => !neutral(s));
  if (statuses.length > 0 && statuses.every((s) => s === 429)) return { status: 429, cause: 'capacity' };
  if (statuses.length > 0 && statuses.every((s) => s === 504)) return { status: 504, cause: 'timeout' };
  return { status: 503, cause: 'upstream' };
}

/** The status a proxy answers for any RouterError: an exhausted chain's by its cause, any other kind's by its facts (`proxyStatusOf`). */
export function answerStatus(err: RouterError): number {
  return err.kind === 'exhausted' ? exhaustedStatus(err.attempts, err.code).status : proxyStatusOf(err);
}
