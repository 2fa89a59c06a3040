import type { MaybePromise } from './maybe-promise.js';

/** What a finished idempotent call left behind. */
export type IdempotencyState =
  | { state: 'claimed' }
  /** Another call (maybe in another process) with the same key is running. */
  | { state: 'pending' }
  | { state: 'done'; value: string }
  /** The key was used before with a different request. */
  | { state: 'mismatch' };

/** What reading a key without claiming it finds: a claim's state, or nothing at all. */
export type IdempotencyRead = IdempotencyState | { state: 'missing' };

/**
 * The idempotency role: records of calls made with an `idempotencyKey`, so concurrent calls with
 * one key share one upstream request and a finished result is replayed. Needed only by calls that
 * pass `idempotencyKey`; a store without it answers them with a `config` error.
 */
export interface IdempotencyStore {
  /** Claims an idempotency key for a request `fingerprint`, or reports who has it. */
  claimIdempotency(key: string, fingerprint: string, pendingTtlMs: number, nowMs: number): MaybePromise<IdempotencyState>;
  /** Stores the result of a claimed key for `ttlMs`. */
  completeIdempotency(key: string, fingerprint: string, value: string, ttlMs: number, nowMs: number): MaybePromise<void>;
  /** Drops a claim whose call failed: failures are not stored. */
  abandonIdempotency(key: string): MaybePromise<void>;
  /** Reads a key without claiming it (a waiter polling for the leader's result). */
  readIdempotency(key: string, fingerprint: string, nowMs: number): MaybePromise<IdempotencyRead>;
}
