import type { ProviderAdapter, ProviderRequest } from '../../providers/types.js';
import { RouterError } from '../errors.js';
import { attemptScope, type AbortCause, type AttemptScope } from './attempt-scope.js';
import { stallGuard } from './stall-guard.js';

/**
 * What one attempt runs under. A stream (or a call whose caller passed a signal) gets a scope: one
 * AbortController of ours. A plain call without a signal gets none: the SDK's own per-request
 * `timeoutMs` bounds it, which spares a controller, a timer and a listener per call.
 */
export interface AttemptHandle {
  signal?: AbortSignal;
  timeoutMs?: number;
  scope?: AttemptScope;
}

/** Sends one request to one target; `chat` and `stream` each bring their own. */
export type Execute<T> = (adapter: ProviderAdapter, request: ProviderRequest, attempt: AttemptHandle) => Promise<T>;

export interface SendOptions {
  callerSignal?: AbortSignal;
  attemptTimeoutMs: number;
  deadlineInMs?: number;
  /** The successful value takes the scope over (a stream keeps it until its last chunk). */
  keepScope: boolean;
  /** What to call an attempt that ran out of time ("no first token in time"). */
  timeoutLabel: string;
  where: { provider: string; model: string };
}

export interface Sent<T> {
  value?: T;
  error?: RouterError;
  /** Why the attempt was cut short by the router or the caller, if it was. */
  cause?: AbortCause;
}

/**
 * A body that stalls after its headers is outside the SDK's timeout (it covers connect and headers),
 * so the light path also has a stall guard this much later; the request itself then ends at
 * undici's body timeout.
 */
const BODY_GRACE_MS = 1_000;

/** Runs one attempt and says how it ended; never throws. */
export async function sendAttempt<T>(adapter: ProviderAdapter, request: ProviderRequest, execute: Execute<T>, o: SendOptions): Promise<Sent<T>> {
  const byDeadline = o.deadlineInMs !== undefined && o.deadlineInMs <= o.attemptTimeoutMs;
  const timeoutMs = byDeadline ? Math.max(1, o.deadlineInMs!) : o.attemptTimeoutMs;
  const scope = o.keepScope || o.callerSignal
    ? attemptScope({ callerSignal: o.callerSignal, attemptTimeoutMs: o.attemptTimeoutMs, deadlineInMs: o.deadlineInMs })
    : undefined;
  try {
    const pending = scope ? execute(adapter, request, { signal: scope.signal, scope }) : execute(adapter, request, { timeoutMs });
    const value = await (scope ? pending : stallGuard(pending, timeoutMs + BODY_GRACE_MS, o.where));
    if (!o.keepScope) scope?.dispose();
    return { value };
  } catch (err) {
    scope?.dispose();
    let error = err instanceof RouterError ? err : new RouterError('transport', String(err), { ...o.where, cause: err });
    let cause = scope?.cause;
    if (!scope && error.kind === 'timeout') cause = byDeadline ? 'deadline' : 'attempt_timeout';
    if (cause === 'attempt_timeout') error = new RouterError('timeout', `${o.where.provider}:${o.where.model}: ${o.timeoutLabel}`, { ...o.where, cause: error });
    return { error, cause };
  }
}
