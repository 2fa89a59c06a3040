import { errorFacts, type ErrorKind } from '../errors.js';
import { backoffMs, jitteredHintMs } from './backoff.js';
import { breakerVerdict } from './breaker-verdict.js';

/** The retry and quota settings the decision reads (the resolved config's `retry` and `quota`). */
export interface NextStepPolicy {
  baseDelayMs: number;
  maxDelayMs: number;
  maxInlineWaitMs: number;
  retryTimeouts: boolean;
  /** How long a target that ran out of 429 retries without any reset hint cools. */
  cooldownMs: number;
  parkMs: number;
  /** `invalid_output`: thrown, or the next target is tried. */
  onInvalidOutput: 'throw' | 'next';
}

/** One failed attempt, as the decision sees it. */
export interface NextStepInput {
  kind: ErrorKind;
  code?: string;
  /** The provider's wait hint for this failure, if it gave one. */
  retryAfterMs?: number;
  /** 1-based number of the attempt that just failed on this target. */
  attempt: number;
  maxAttempts: number;
  /** Time left before the caller's deadline, if it set one. */
  remainingMs?: number;
  /**
   * Whether the target's retry budget (`retryBudgetAllows`) has room for one more retry after a
   * server failure; false falls through instead. 429s wait on their hint and are not budgeted.
   * Absent: room.
   */
  retryBudget?: boolean;
  policy: NextStepPolicy;
  random?: () => number;
}

/** Keeps a target out of rotation: `cooling` until a rate-limit reset, `parked` after a quota error. */
export interface BlockOrder {
  reason: 'cooling' | 'parked';
  forMs: number;
  /** Rate limits are per model (a target); quota and billing are per account (the whole provider). */
  scope: 'target' | 'provider';
}

export type NextStep =
  | { action: 'retry'; delayMs: number; breaker: 'failure' | 'neutral' }
  | { action: 'fall_through'; breaker: 'failure' | 'neutral'; block?: BlockOrder; refused?: 'retry_budget' }
  | { action: 'throw'; breaker: 'failure' | 'neutral' };

/**
 * The decision table: given one failed attempt, retry the same target (and after how long), fall
 * through to the next target (and whether to keep this one out of rotation), or throw.
 * Pure: no clock, no IO; `random` is injected for the jitter.
 */
export function nextStep(input: NextStepInput): NextStep {
  const { kind, policy, attempt, maxAttempts, remainingMs } = input;
  const random = input.random ?? Math.random;
  const breaker = breakerVerdict(kind);
  const attemptsLeft = attempt < maxAttempts;
  const hint = input.retryAfterMs;

  // A caller's fault fails the same way everywhere; after an abort (the caller gave up, the router
  // is closing) nothing more is sent; `exhausted` is the chain's own end, never one attempt's.
  if (errorFacts(kind).callerFault || kind === 'aborted' || kind === 'exhausted') return { action: 'throw', breaker };

  if (kind === 'quota_exhausted') {
    return { action: 'fall_through', breaker, block: { reason: 'parked', forMs: policy.parkMs, scope: 'provider' } };
  }
  if (kind === 'circuit_open' || kind === 'local_limit' || kind === 'unsupported') return { action: 'fall_through', breaker };
  // An answer that does not parse or validate: another model may answer in shape, if the caller opted in.
  if (kind === 'invalid_output') return { action: policy.onInvalidOutput === 'next' ? 'fall_through' : 'throw', breaker };

  const fits = (delayMs: number) => remainingMs === undefined || delayMs < remainingMs;
  const cooling = (forMs: number): BlockOrder => ({ reason: 'cooling', forMs, scope: 'target' });

  if (kind === 'rate_limited') {
    // A request larger than the whole per-minute budget never fits here; another target may take it.
    if (input.code === 'request_too_large') return { action: 'fall_through', breaker };
    if (hint !== undefined && hint > policy.maxInlineWaitMs) {
      return { action: 'fall_through', breaker, block: cooling(hint) };
    }
    const delayMs = hint !== undefined ? jitteredHintMs(hint, random) : backoffMs(attempt - 1, policy, random);
    if (attemptsLeft && fits(delayMs)) return { action: 'retry', delayMs, breaker };
    return { action: 'fall_through', breaker, block: cooling(hint ?? policy.cooldownMs) };
  }

  if (kind === 'timeout' && !policy.retryTimeouts) return { action: 'fall_through', breaker };

  // server, transport, timeout (when allowed): capped exponential backoff, or the server's own hint.
  if (hint !== undefined && hint > policy.maxInlineWaitMs) {
    return { action: 'fall_through', breaker, block: cooling(hint) };
  }
  const delayMs = hint !== undefined ? jitteredHintMs(hint, random) : backoffMs(attempt - 1, policy, random);
  if (attemptsLeft && fits(delayMs)) {
    // Past the retry budget a retry would add load to a target that is already failing: move on.
    if (input.retryBudget === false) return { action: 'fall_through', breaker, refused: 'retry_budget' };
    return { action: 'retry', delayMs, breaker };
  }
  return { action: 'fall_through', breaker };
}
