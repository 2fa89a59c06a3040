import type { MaybePromise } from './maybe-promise.js';

/**
 * The fleet's view of one circuit breaker (`breaker.shared: true`). Half-open is not stored: an open
 * breaker whose `untilMs` has passed is half-open, and then exactly one process may hold the probe.
 */
export interface SharedBreakerState {
  state: 'open' | 'closed';
  /** Open: when the fleet may send its one half-open probe (epoch ms). */
  untilMs?: number;
  /** The process that holds the half-open probe, and until when its lease runs. */
  prober?: string;
  probeUntilMs?: number;
}

/**
 * The breaker-state role: where shared breakers live (`breaker.shared: true`, on a shared store; a
 * store without it leaves each process's breakers alone). The Redis store plays it, and the memory
 * store, the reference both pass test/store/contracts/breaker-contract.ts against. Every write
 * answers with the state it left, so the writer adopts the fleet's state at once. `by` names the
 * writing process.
 */
export interface BreakerStateStore {
  readBreaker(key: string, nowMs: number): MaybePromise<SharedBreakerState>;
  /**
   * Opens the breaker until `untilMs`, unless the fleet's breaker is already open (it joins that one
   * and keeps its time) or half-open with another process's probe still out (that probe decides).
   */
  openBreaker(key: string, by: string, untilMs: number, nowMs: number): MaybePromise<SharedBreakerState>;
  /** Closes the breaker after `by`'s probe succeeded; a process that does not hold the probe changes nothing. */
  closeBreaker(key: string, by: string, nowMs: number): MaybePromise<SharedBreakerState>;
  /** Takes (or extends) the half-open probe for `leaseMs` if the breaker is half-open and nobody else holds it. */
  takeProbe(key: string, by: string, leaseMs: number, nowMs: number): MaybePromise<SharedBreakerState>;
}

/** How long a breaker record outlives its last write: idle records vanish, a quiet half-open survives. */
export const BREAKER_RECORD_TTL_MS = 3_600_000;

export const CLOSED: SharedBreakerState = Object.freeze({ state: 'closed' });

// The transitions, as pure functions: the memory store applies them, redis-breaker-scripts.ts repeats them in Lua.

export function openTransition(s: SharedBreakerState, by: string, untilMs: number, nowMs: number): SharedBreakerState {
  if (s.state === 'open') {
    if ((s.untilMs ?? 0) > nowMs) return s;
    if (s.prober !== undefined && s.prober !== by && (s.probeUntilMs ?? 0) > nowMs) return s;
  }
  return { state: 'open', untilMs };
}

export function closeTransition(s: SharedBreakerState, by: string): SharedBreakerState {
  return s.state === 'open' && s.prober === by ? CLOSED : s;
}

export function probeTransition(s: SharedBreakerState, by: string, leaseMs: number, nowMs: number): SharedBreakerState {
  if (s.state !== 'open' || (s.untilMs ?? 0) > nowMs) return s;
  if (s.prober !== undefined && s.prober !== by && (s.probeUntilMs ?? 0) > nowMs) return s;
  return Object.assign({}, s, { prober: by, probeUntilMs: nowMs + leaseMs });
}
