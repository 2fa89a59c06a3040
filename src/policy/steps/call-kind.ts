import type { ProviderAdapter } from '../../../providers/types.js';
import type { Call } from '../state/call.js';
import type { RateLimitSnapshot } from '../../types.js';
import type { BilledUsage } from '../../decide/token-reservation.js';
import type { AttemptScope } from '../abort/attempt-scope.js';
import type { AttemptSlot } from './attempt-slot.js';
import type { TokenEstimate } from '../admission/budget.js';
import type { Endpoint, TargetRuntime } from '../state/target-runtime.js';

/** Anything an attempt returns that the pipeline reads facts from. */
export interface AttemptValue {
  requestId?: string;
  rateLimit?: RateLimitSnapshot;
  /** What the provider billed, to reconcile the token estimate (a stream reports it at its end). */
  usage?: BilledUsage;
}

/**
 * What one attempt runs under. A stream (or a call whose caller passed a signal) gets a scope: one
 * AbortController of ours. A plain call without a signal on the wall clock gets none: the SDK's own
 * per-request `timeoutMs` bounds it, which spares a controller, a timer and a listener per call.
 */
export interface AttemptHandle {
  signal?: AbortSignal;
  timeoutMs?: number;
  scope?: AttemptScope;
  /** Handed to the adapter (`ProviderCallOptions.onSend`): its request's bytes are leaving now. */
  onSend?: () => void;
}

/**
 * How one kind of call (chat, stream, embed) uses the shared per-target pipeline: what it sends,
 * which endpoint's budget it takes, how long an attempt may run, and whether a success keeps the
 * attempt open (a stream holds its scope and budget slot until its last chunk).
 */
export interface CallKind<P, T extends AttemptValue> {
  readonly name: 'chat' | 'stream' | 'embed';
  /** The success value owns the attempt's scope and lease from then on (streams). */
  readonly keepsAttempt: boolean;
  /** The provider request for one target (built once per target of a call). */
  payload(call: Call, target: TargetRuntime): P;
  /** The target endpoint this call is counted on. */
  endpoint(target: TargetRuntime): Endpoint;
  /** Tokens the provider's limiter will charge, reserved against TPM (and ITPM, OTPM) before the attempt is sent. */
  estimateTokens(call: Call, target: TargetRuntime, payload: P): TokenEstimate;
  /** Sends one attempt; never retries. */
  send(adapter: ProviderAdapter, payload: P, handle: AttemptHandle, call: Call): Promise<T>;
  /**
   * Checks (and completes) an answer once it came, inside the attempt, so the decision table sees a
   * throw here (`invalid_output`) as the attempt's failure; synchronous, so no promise per call.
   */
  accept?(value: T, call: Call, target: TargetRuntime): T;
  /** This kind's bound on one attempt (a stream's first-token timeout), within the target's `timeoutMs`. */
  attemptTimeoutMs(call: Call, target: TargetRuntime): number;
  /** What to call an attempt that ran out of that time. */
  timeoutLabel(ms: number): string;
  /** How long a concurrency slot of this kind outlives a process that died holding it. */
  leaseTtlMs(target: TargetRuntime): number;
  /** After a failure before anything was sent: the part of the caller's request to blame, if one is. */
  unsendableParam?(call: Call): string | undefined;
  /**
   * Frees a success nobody will read (a hedge's loser that answered after the winner): a kind that
   * keeps its attempt closes the stream and ends its slot. Kinds that keep nothing need none.
   */
  discard?(value: T, slot: AttemptSlot | undefined): Promise<void>;
}
