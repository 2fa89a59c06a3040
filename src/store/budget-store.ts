import type { TokenDelta } from '../decide/token-reservation.js';
import type { MaybePromise } from './maybe-promise.js';
import type { RateLimitSnapshot } from '../types.js';

/** What a lease's settlement adds to or gives back from each token window: decided in src/decide, below the store. */
export type { TokenDelta };

/** The limits one budget enforces over a rolling window (60 s unless a test shrinks it). */
export interface BudgetLimits {
  rpm?: number;
  tpm?: number;
  /** Input tokens per window (Anthropic's ITPM): charged `BudgetRequest.inputTokens`. */
  itpm?: number;
  /** Output tokens per window (Anthropic's OTPM): charged `BudgetRequest.outputTokens`. */
  otpm?: number;
  concurrency?: number;
  /** @default 60000 */
  windowMs?: number;
  /**
   * Paces the budget: each limit is also a token bucket refilled evenly through the window (`limit /
   * windowMs` a ms) that starts with this many ms' worth of the limit and at most lets that much out
   * at once. The bucket learns the provider's: a 429 on a request it admitted halves it, the
   * provider's `remaining`/`reset` headers shrink it to the provider's own bucket, and it grows back
   * slowly. Unset: a plain rolling window.
   */
  burstMs?: number;
}

/** One attempt asking a budget for room: one request and `tokens` estimated tokens. */
export interface BudgetRequest {
  /** The budget: `provider`, `provider:model` (per-model limits) or `tenant:<name>`. */
  key: string;
  limits: BudgetLimits;
  /** Charged against TPM: the prompt estimate plus the output reservation. */
  tokens: number;
  /** Charged against ITPM: the prompt tokens the provider is expected to count. @default tokens */
  inputTokens?: number;
  /** Charged against OTPM: the output reservation (`maxTokens`). @default 0 */
  outputTokens?: number;
  /** Unique per attempt: names the request, token and concurrency entries it holds. */
  leaseId: string;
  /** A concurrency slot of a process that died is freed after this. */
  leaseTtlMs: number;
}


/** How a sent request ended, for its budget: one atomic operation. */
export interface BudgetSettlement {
  /**
   * The usage billed against the reservation: a positive amount is charged from now on (the
   * estimate missed it), a negative one is given back from the lease's own reservation (the
   * provider did not charge it: cached input, unused output).
   */
  charge?: TokenDelta;
  /** The provider's rate-limit headers on the answer: they correct the budget's model of its bucket. */
  snapshot?: RateLimitSnapshot;
  /** The provider answered 429 although the budget had admitted the request: its bucket is smaller than ours. */
  rateLimited?: boolean;
}

/** Why a budget refused an attempt, and when room is known to return. */
export type BudgetDenial =
  /** `retryInMs` undefined: room comes back when someone releases a slot, not at a known time. */
  | { ok: false; reason: 'rpm' | 'tpm' | 'itpm' | 'otpm' | 'concurrency' | 'provider'; retryInMs?: number }
  /** The request alone is larger than the whole token budget: it can never fit here. */
  | { ok: false; reason: 'too_large'; retryInMs?: undefined };

/** A budget's answer to `acquireBudget`: room taken, or why not. */
export type BudgetGrant = { ok: true } | BudgetDenial;

/**
 * The budgets role, played by every store: rate budgets (RPM, TPM, ITPM, OTPM, concurrency over a
 * rolling window, each paced as a token bucket when `burstMs` is set, and corrected by the
 * provider's own headers). Admission takes and settles a lease per attempt. Every operation is
 * atomic, so N processes sharing one store never exceed one budget together.
 */
export interface BudgetStore {
  /**
   * Takes one request, its tokens (TPM, ITPM, OTPM) and a concurrency slot from a budget if all fit
   * (the rolling windows, each limit's pace when `burstMs` is set, and the provider's bucket as its
   * headers last reported it), or says why not and when room is known to return.
   */
  acquireBudget(request: BudgetRequest, nowMs: number): MaybePromise<BudgetGrant>;
  /**
   * Frees the lease's concurrency slot. With `sent: false` (no request reached the provider) its
   * request and tokens are given back too; a sent request stays counted, as providers count it.
   */
  releaseBudget(key: string, leaseId: string, sent: boolean, nowMs: number): MaybePromise<void>;
  /**
   * Ends a lease whose request was sent, in one atomic operation: frees its slot (its request stays
   * counted), reconciles its tokens with `charge`, corrects the budget's model of the provider's
   * bucket with the answer's headers (as of when the request left, less what was admitted since;
   * as of now for a lease the store no longer holds), and learns the bucket's size from them and
   * from a 429 the budget did not foresee.
   */
  settleBudget(key: string, leaseId: string, settlement: BudgetSettlement, nowMs: number): MaybePromise<void>;
}
