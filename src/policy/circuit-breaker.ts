import type { EventEmitter } from 'node:events';
import Opossum from 'opossum';
import type { BreakerPolicy } from '../config/index.js';

export type BreakerState = 'closed' | 'open' | 'halfOpen';
/** What `permit()` hands out: a normal pass, or the one half-open probe; `bypass` is a last resort past it. */
export type BreakerPermit = 'closed' | 'probe' | 'bypass';
/** How an outcome is recorded: `neutral` (a 429, a 4xx, an abort) stays out of the statistics entirely. */
export type BreakerOutcome = 'success' | 'failure' | 'neutral';

const SUCCEED = () => Promise.resolve();
const FAIL = () => Promise.reject(new Error('upstream failure'));
const ignore = () => {};

export interface CircuitBreakerOptions {
  /** One emitter that rotates every breaker's buckets, instead of a timer per breaker. */
  rotate: EventEmitter;
  onStateChange: (key: string, state: BreakerState) => void;
}

/**
 * One opossum breaker, fed outcomes rather than wrapping the call. opossum's `errorFilter` counts a
 * filtered error as a success (and a filtered 429 would close a half-open breaker), so requests run
 * outside it and only server failures and successes are fed in; 429s and caller errors never reach
 * its statistics. It opens on opossum's rule (failures over `errorThresholdPercentage` of the window)
 * or after `consecutiveFailures` in a row. Half-open admits exactly one probe; results from before the
 * breaker opened are dropped rather than read as a verdict on the recovered provider.
 */
export class CircuitBreaker {
  private readonly breaker: Opossum<[() => Promise<void>], void>;
  private probeOut = false;
  private openedAtMs = 0;
  private failuresInARow = 0;

  constructor(readonly key: string, private readonly policy: BreakerPolicy, options: CircuitBreakerOptions) {
    this.breaker = new Opossum((outcome: () => Promise<void>) => outcome(), {
      name: key,
      timeout: false, // never wedges: fed outcomes settle at once, and the router times out every request
      resetTimeout: policy.resetTimeoutMs,
      errorThresholdPercentage: policy.errorThresholdPercentage,
      volumeThreshold: policy.volumeThreshold,
      rollingCountTimeout: policy.windowMs,
      rollingCountBuckets: 10,
      rollingPercentilesEnabled: false,
      enableSnapshots: false,
      rotateBucketController: options.rotate,
    });
    this.breaker.on('open', () => {
      this.probeOut = false;
      this.openedAtMs = Date.now();
      options.onStateChange(key, 'open');
    });
    this.breaker.on('halfOpen', () => {
      this.probeOut = false;
      options.onStateChange(key, 'halfOpen');
    });
    this.breaker.on('close', () => {
      this.probeOut = false;
      this.failuresInARow = 0;
      options.onStateChange(key, 'closed');
    });
  }

  get state(): BreakerState {
    if (this.breaker.opened) return 'open';
    return this.breaker.halfOpen ? 'halfOpen' : 'closed';
  }

  /** Whether `permit()` would hand out a pass now, without taking it (checked before queueing for budgets). */
  admits(): boolean {
    return this.breaker.closed || (this.breaker.halfOpen && !this.probeOut);
  }

  /** A pass to send one request, or undefined: open, or half-open with its probe already out. */
  permit(): BreakerPermit | undefined {
    if (this.breaker.closed) return 'closed';
    if (!this.breaker.halfOpen || this.probeOut) return undefined;
    this.probeOut = true;
    return 'probe';
  }

  /** Records how a permitted request ended. */
  record(permit: BreakerPermit, outcome: BreakerOutcome): void {
    if (permit === 'bypass') return; // no verdict: the breaker decides with its own probe
    if (permit === 'probe') {
      if (outcome === 'neutral') this.probeOut = false; // no verdict: let the next call probe
      else if (this.breaker.halfOpen) this.feed(outcome);
      return;
    }
    if (outcome === 'neutral' || !this.breaker.closed) return;
    if (outcome === 'success') this.countSuccess();
    else this.feed(outcome);
    // A provider that went down hard fails every request: open after a short run of failures rather
    // than wait for them to outweigh a window full of earlier successes (Envoy's consecutive_5xx).
    this.failuresInARow = outcome === 'failure' ? this.failuresInARow + 1 : 0;
    if (this.failuresInARow >= this.policy.consecutiveFailures) this.breaker.open();
  }

  /** Milliseconds until an open breaker lets a probe through; 0 when it is not open. */
  reopensInMs(nowMs = Date.now()): number {
    if (!this.breaker.opened) return 0;
    return Math.max(0, this.openedAtMs + this.policy.resetTimeoutMs - nowMs);
  }

  shutdown(): void {
    this.breaker.shutdown();
  }

  /**
   * A success while closed changes no state, so it is counted straight into opossum's window (the
   * counters `fire()` would bump) without fire()'s promise chain and events: it is on every call.
   */
  private countSuccess(): void {
    const status = this.breaker.status as unknown as { increment(property: 'fires' | 'successes', latencyMs?: number): void };
    status.increment('fires');
    status.increment('successes', 0);
  }

  private feed(outcome: 'success' | 'failure'): void {
    this.breaker.fire(outcome === 'success' ? SUCCEED : FAIL).catch(ignore);
  }
}
