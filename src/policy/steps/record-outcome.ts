import { breakerVerdict, type BreakerOutcome } from '../../decide/breaker-verdict.js';
import { RouterError, type ErrorKind } from '../../errors.js';
import { targetEvent } from '../../observe/event-refs.js';
import type { Call } from '../state/call.js';
import type { Attempt, Clock } from '../../types.js';
import type { NextStepPolicy } from '../../decide/next-step.js';
import type { EventHub } from '../../observe/events.js';
import type { Spend } from '../spend/spend-budgets.js';
import type { AttemptContext, StepResult, TargetOutcome } from './attempt-context.js';
import type { AttemptValue } from './call-kind.js';
import type { TargetRuntime } from '../state/target-runtime.js';

/** What recording a skip reads of the router. */
export interface SkipDeps {
  readonly clock: Clock;
  readonly events: EventHub;
}

/** What recording an outcome reads: the clock, the events, the prices, and what the retry budget allows. */
export interface RecordDeps extends SkipDeps {
  readonly spend: Pick<Spend, 'costOf'>;
  readonly retryPolicy: NextStepPolicy;
  readonly config: { readonly retry: { readonly budgetMinRetries: number } };
}

/** How an attempt counts for its breaker and throttle: an abort by the caller or the deadline is no verdict. */
function outcomeOf(a: AttemptContext<unknown, AttemptValue>): BreakerOutcome {
  if (!a.error) return 'success';
  if (a.cause === 'caller' || a.cause === 'deadline' || a.cause === 'closed') return 'neutral';
  return breakerVerdict(a.error.kind);
}

/**
 * Records how one sent attempt ended, in the one place that does: into the breaker and the adaptive
 * throttle (the slot's verdict), a pool member's outlier record, the call's attempts, the `attempt`
 * and `ratelimit` events, and the budget: the slot is ended, its lease reconciled against the usage
 * billed, unless a stream that committed keeps it until its end.
 */
export function recordOutcome<P, T extends AttemptValue>(a: AttemptContext<P, T, RecordDeps>): StepResult<T> | Promise<StepResult<T>> {
  const { deps: rt, call, target, value, error } = a;
  const slot = a.slot!;
  // Nothing left the process (an adapter refused a part it cannot carry, or the request could not be
  // encoded): a skip, not an attempt, and no verdict of the provider.
  if (error && (!a.sent || error.kind === 'unsupported')) return recordUnsent(a, error);
  const now = rt.clock.now();
  const latencyMs = now - a.sentAtMs;
  const verdict = outcomeOf(a as AttemptContext<unknown, AttemptValue>);
  slot.judge(verdict, now);
  // A latency pool's member learns how fast it answered (a stream: its first token), or how long it made the call wait before timing out.
  const timed = a.endpoint.latency;
  if (timed !== undefined && (!error || (error.kind === 'timeout' && (a.cause === undefined || a.cause === 'attempt_timeout')))) timed.observe(a.kind.name === 'stream', latencyMs, now);
  // A pool member's outlier record: a committed stream's verdict waits for its end (a cut is a failure).
  if (target.outlier !== undefined) {
    if (!error && a.kind.keepsAttempt) slot.deferOutlier(latencyMs);
    else target.outlier.record(verdict, error ? undefined : latencyMs, call, target);
  }
  const requestId = value?.requestId ?? error?.requestId;
  const rateLimit = value?.rateLimit ?? error?.rateLimit;
  if (rateLimit) {
    a.endpoint.load.reported = rateLimit;
    a.endpoint.load.reportedAtMs = now;
  }
  const queuedMs = a.sentAtMs - a.startedAtMs;
  // Whole milliseconds: a jittered backoff is a fraction, and no reader wants 212.83452 ms.
  const waitedMs = a.waitedMs !== undefined || queuedMs > 0 ? Math.round((a.waitedMs ?? 0) + queuedMs) : undefined;
  const attempt: Attempt = {
    provider: target.target.provider, model: target.target.model, ok: !error, kind: error?.kind, status: error?.status,
    waitedMs, latencyMs, requestId,
  };
  if (call.hedge) attempt.hedge = true;
  call.attempts.push(attempt);
  // The retry budget's deposits: a call's first attempt on this target (its retries are counted when let through).
  if (a.attempt === 1) target.retryWindow.first(now);
  const { events } = rt;
  if (events.has('attempt')) {
    // A server failure the budget would not retry says so here (the decision table then falls through).
    const budgetSpent = error !== undefined && verdict === 'failure' && a.attempt < target.target.maxAttempts
      && (error.kind !== 'timeout' || rt.retryPolicy.retryTimeouts)
      && !target.retryWindow.allows(now, target.target.budgetPercent, rt.config.retry.budgetMinRetries);
    events.emit('attempt', targetEvent(call, target, {
      attempt: a.attempt, ok: !error, kind: error?.kind, status: error?.status, code: error?.code,
      latencyMs, requestId, startedAtMs: a.sentAtMs, usage: value?.usage, costUsd: rt.spend.costOf(target, value?.usage),
      responseModel: (value as { model?: unknown } | undefined)?.model as string | undefined,
      ...(budgetSpent ? { retryBudgetSpent: true as const } : {}),
    }));
  }
  if (rateLimit && events.has('ratelimit')) events.emit('ratelimit', targetEvent(call, target, rateLimit));
  if (!error && a.kind.keepsAttempt) return undefined; // the stream ends its slot at its end
  const settled = slot.end({ sent: true, usage: value?.usage, rateLimit, rateLimited: error?.kind === 'rate_limited', failed: error?.kind });
  return settled ? settled.then(() => undefined) : undefined;
}

function recordUnsent<P, T extends AttemptValue>(a: AttemptContext<P, T, SkipDeps>, error: RouterError): StepResult<T> | Promise<StepResult<T>> {
  const { provider, model } = a.target.target;
  a.call.attempts.push({ provider, model, ok: false, kind: error.kind, skipped: true, latencyMs: 0, ...(error.code !== undefined ? { code: error.code } : {}) });
  if (a.deps.events.has('attempt')) a.deps.events.emit('attempt', targetEvent(a.call, a.target, { attempt: 0, ok: false, kind: error.kind, skipped: true, latencyMs: 0, code: error.code, startedAtMs: a.sentAtMs }));
  // Its permit goes back as no verdict, and its requests and tokens to the budgets.
  const released = a.slot!.end({ sent: false });
  return released ? released.then(() => undefined) : undefined;
}

/** Why a target was passed over without a request. */
export interface Skip {
  kind: ErrorKind;
  message: string;
  /** Milliseconds until the target is known to accept again. */
  availableInMs?: number;
  code?: string;
}

/** Records a target skipped without a request (`skipped: true`, latency 0) and says the call moves on. */
export function recordSkip<T>(rt: SkipDeps, call: Call, target: TargetRuntime, skip: Skip): TargetOutcome<T> {
  const { provider, model } = target.target;
  call.attempts.push({ provider, model, ok: false, kind: skip.kind, skipped: true, latencyMs: 0, ...(skip.code !== undefined ? { code: skip.code } : {}) });
  if (rt.events.has('attempt')) rt.events.emit('attempt', targetEvent(call, target, { attempt: 0, ok: false, kind: skip.kind, skipped: true, latencyMs: 0, code: skip.code, startedAtMs: rt.clock.now() }));
  const error = new RouterError(skip.kind, skip.message, { provider, model, code: skip.code, retryAfterMs: skip.availableInMs });
  return { ok: false, error, availableInMs: skip.availableInMs };
}
