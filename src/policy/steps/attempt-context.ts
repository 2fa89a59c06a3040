import type { RouterError } from '../../errors.js';
import type { MaybePromise } from '../../store/maybe-promise.js';
import type { Call } from '../state/call.js';
import type { AbortCause } from '../abort/attempt-scope.js';
import type { AttemptSlot } from './attempt-slot.js';
import type { TokenEstimate } from '../admission/budget.js';
import type { AttemptValue, CallKind } from './call-kind.js';
import type { Endpoint, TargetRuntime } from '../state/target-runtime.js';

/** How a target ended when it did not answer: the call moves on, knowing when this target may accept again. */
export interface FallThrough {
  error: RouterError;
  /** Milliseconds until this target is known to accept again (cooling, parked, circuit open). */
  availableInMs?: number;
  /** A retry was due but the target's retry budget had no room (`retry.budgetPercent`). */
  retryBudgetSpent?: boolean;
}

/** How a target ended. On success with `keepsAttempt`, the caller owns the attempt's slot and must end it. */
export type TargetOutcome<T> = { ok: true; value: T; slot?: AttemptSlot } | ({ ok: false } & FallThrough);

/** What a pipeline step says: go on to the next step (undefined), try this target again, or this target is done. */
export type StepResult<T> = undefined | 'retry' | TargetOutcome<T>;

/**
 * One step of the per-target pipeline; every step has this shape. `D` is what the step reads of the
 * router (its own interface, in its own file): the pipeline hands every step the same object, built
 * once per router, and each step's type lets it read only its part.
 */
export type Step<D> = <P, T extends AttemptValue>(a: AttemptContext<P, T, D>) => MaybePromise<StepResult<T>>;

/**
 * One target's run within one call, handed from step to step: what is fixed for the target (the
 * payload, the endpoint) and what each attempt learns (its slot, what came back).
 */
export interface AttemptContext<P, T extends AttemptValue, D = unknown> {
  /** What the step reads of the router: its services and settings, never the call's own state. */
  readonly deps: D;
  readonly call: Call;
  readonly target: TargetRuntime;
  readonly kind: CallKind<P, T>;
  readonly payload: P;
  readonly endpoint: Endpoint;
  /** One attempt past an open breaker, as adaptive throttling allowed (set by the chain, never by callers). */
  readonly lastResort: boolean;
  /** The chain waits for this target: a cooling endpoint queues the call (admission's hold) instead of skipping it. */
  readonly waitsOutCooling?: boolean;
  /** The bound on one attempt: the target's `timeoutMs`, or tighter for this kind. */
  readonly attemptTimeoutMs: number;
  /** 1-based number of the attempt on this target. */
  attempt: number;
  /** When this attempt began (time queued for budget counts from here). */
  startedAtMs: number;
  /** The retry delay waited before this attempt. */
  waitedMs?: number;
  /** Estimated tokens, computed on the first admission. */
  tokens?: TokenEstimate;
  /** What this attempt holds once admitted (lease, in-flight count, breaker pass); ended exactly once. */
  slot?: AttemptSlot;
  sentAtMs: number;
  /**
   * Whether this attempt's request left the process (the adapter's `onSend`, or an answer). An
   * attempt that failed unsent was the request's fault: no breaker, throttle or cooling hears of it.
   */
  sent: boolean;
  value?: T;
  error?: RouterError;
  /** Why the attempt was cut short by the router or the caller, if it was. */
  cause?: AbortCause;
}
