import type { EventEmitter } from 'node:events';
import Opossum from 'opossum';
import { MAX_TIMER_MS } from '../../time/system-clock.js';
import type { Clock, Timer } from '../../types.js';
import type { BreakerPolicy } from '../../config/index.js';
import type { BreakerOutcome } from '../../decide/breaker-verdict.js';
import type { SharedBreakerState } from '../../store/breaker-state.js';
import { FailureTenants } from './failure-tenants.js';
import { SharedBreakerLink, type SharedBreakerOptions } from './shared-breaker.js';

export type { BreakerOutcome } from '../../decide/breaker-verdict.js';

export type BreakerState = 'closed' | 'open' | 'halfOpen';
/** What `permit()` hands out: a normal pass, or the one half-open probe; `bypass` is a last resort past it. */
export type BreakerPermit = 'closed' | 'probe' | 'bypass';

const FAIL = () => Promise.reject(new Error('upstream failure'));
const ignore = () => {};

export interface CircuitBreakerOptions {
  clock: Clock;
  /** One emitter that rotates every breaker's buckets, instead of a timer per breaker. */
  rotate: EventEmitter;
  /** `openedBy`, on an opening of this process's own verdict: the failures per tenant in the window that opened it. */
  onStateChange: (key: string, state: BreakerState, by?: BreakerCause, openedBy?: Record<string, number>) => void;
  /** `breaker.shared: true`: one state and one half-open probe for every process on the store. */
  shared?: SharedBreakerOptions;
}

/** The call whose outcome changed a breaker's state (a `Call` is one). */
export interface BreakerCause {
  id: string;
  tenant: { name: string };
  chain: string;
  operation: 'chat' | 'stream' | 'embed';
}

/**
 * One opossum breaker, fed outcomes rather than wrapping the call. opossum's `errorFilter` counts a
 * filtered error as a success (and a filtered 429 would close a half-open breaker), so requests run
 * outside it and only server failures and successes are fed in; 429s and caller errors never reach
 * its statistics. opossum keeps the rolling window and decides when to open (failures over
 * `errorThresholdPercentage`); this class also opens after `consecutiveFailures` in a row, and times
 * the open and half-open states on the router's clock (opossum's own reset timer runs on the wall
 * clock, so it is set out of reach). Half-open admits exactly one probe; results from before the
 * breaker opened are dropped rather than read as a verdict on the recovered provider.
 */
export class CircuitBreaker {
  private readonly breaker: Opossum<[() => Promise<void>, BreakerCause | undefined], void>;
  private readonly clock: Clock;
  private phase: BreakerState = 'closed';
  private probeOut = false;
  private reopenAtMs = 0;
  private reopenTimer: Timer | undefined;
  private failuresInARow = 0;
  /** The call being recorded, named on the state changes it causes. */
  private cause: BreakerCause | undefined;
  /** The call of the failure opossum is judging now: its window opens the breaker a tick after `record`. */
  private failing: BreakerCause | undefined;
  /** The fleet's breaker of the same key, with `breaker.shared`. */
  private readonly link: SharedBreakerLink | undefined;
  private openingOpossum = false;
  /** Whose counted failures are in the window, for the opening to name. */
  private readonly failures: FailureTenants;

  constructor(readonly key: string, private readonly policy: BreakerPolicy, private readonly options: CircuitBreakerOptions) {
    this.clock = options.clock;
    this.failures = new FailureTenants(policy.windowMs);
    this.breaker = new Opossum((outcome: () => Promise<void>, _by: BreakerCause | undefined) => outcome(), {
      name: key,
      timeout: false, // never wedges: fed outcomes settle at once, and the router times out every request
      resetTimeout: MAX_TIMER_MS, // half-open is timed here, on the router's clock
      errorThresholdPercentage: policy.errorThresholdPercentage,
      volumeThreshold: policy.volumeThreshold,
      rollingCountTimeout: policy.windowMs,
      rollingCountBuckets: 10,
      rollingPercentilesEnabled: false,
      enableSnapshots: false,
      rotateBucketController: options.rotate,
    });
    // opossum opens itself when the window's failures cross the threshold (and says so, synchronously,
    // when we open it: that is no verdict of its own). It judges each failure right after its
    // 'failure' event, which names the call fed in with it.
    this.breaker.on('failure', (_err: unknown, _latency: unknown, args: unknown[]) => {
      this.failing = args[1] as BreakerCause | undefined;
    });
    this.breaker.on('open', () => {
      if (this.openingOpossum) return;
      const recording = this.cause;
      this.cause ??= this.failing;
      try {
        this.open();
      } finally {
        this.cause = recording;
        this.failing = undefined;
      }
    });
    if (options.shared) {
      this.link = new SharedBreakerLink(key, options.shared, this.clock, policy.resetTimeoutMs, (s) => this.adopt(s));
      // A process joining the fleet learns its state now, not at the first bucket rotation.
      this.link.refresh();
    }
  }

  get state(): BreakerState {
    this.catchUp();
    return this.phase;
  }

  /** Whether `permit()` would hand out a pass now, without taking it (checked before queueing for budgets). */
  admits(): boolean {
    this.catchUp();
    return this.phase === 'closed' || (this.phase === 'halfOpen' && !this.probeOut && this.mayProbe());
  }

  /** A pass to send one request, or undefined: open, or half-open with its probe already out. */
  permit(): BreakerPermit | undefined {
    this.catchUp();
    if (this.phase === 'closed') return 'closed';
    if (this.phase === 'open' || this.probeOut || !this.mayProbe()) return undefined;
    this.probeOut = true;
    this.link?.usedProbe();
    return 'probe';
  }

  /** Records how a permitted request ended: the one place a verdict enters the breaker. */
  record(permit: BreakerPermit, outcome: BreakerOutcome, by?: BreakerCause): void {
    this.cause = by;
    try {
      this.apply(permit, outcome);
    } finally {
      this.cause = undefined;
    }
  }

  private apply(permit: BreakerPermit, outcome: BreakerOutcome): void {
    if (permit === 'bypass') return; // no verdict: the breaker decides with its own probe
    if (outcome === 'failure' && (permit === 'probe' ? this.phase === 'halfOpen' : this.phase === 'closed')) {
      this.failures.note(this.cause?.tenant.name ?? 'unknown', this.clock.now());
    }
    if (permit === 'probe') {
      if (this.phase !== 'halfOpen') return;
      if (outcome === 'neutral') this.probeOut = false; // no verdict: let the next call probe
      else if (outcome === 'success') {
        this.countSuccess();
        this.close();
      } else this.open();
      return;
    }
    // A pass from a closed breaker that ends after it opened says nothing about the provider now.
    if (outcome === 'neutral' || this.phase !== 'closed') return;
    if (outcome === 'success') this.countSuccess();
    else this.breaker.fire(FAIL, this.cause).catch(ignore);
    // A provider that went down hard fails every request: open after a short run of failures rather
    // than wait for them to outweigh a window full of earlier successes (Envoy's consecutive_5xx).
    this.failuresInARow = outcome === 'failure' ? this.failuresInARow + 1 : 0;
    if (this.failuresInARow >= this.policy.consecutiveFailures) this.open();
  }

  /** Milliseconds until an open breaker lets a probe through; 0 when it is not open. */
  reopensInMs(): number {
    if (this.state !== 'open') return 0;
    return Math.max(0, this.reopenAtMs - this.clock.now());
  }

  /** With `breaker.shared`: adopts the fleet's state (or publishes what the store missed); called on each bucket rotation. */
  refreshShared(): void {
    this.link?.refresh();
  }

  shutdown(): void {
    this.reopenTimer?.clear();
    this.link?.stop();
    this.breaker.shutdown();
  }

  /** Opens on this process's own verdict (and, shared, tells the fleet). */
  private open(): void {
    const untilMs = this.clock.now() + this.policy.resetTimeoutMs;
    this.openUntil(untilMs, this.failures.take(this.clock.now()));
    this.link?.publishOpen(untilMs);
  }

  private openUntil(untilMs: number, openedBy?: Record<string, number>): void {
    this.reopenTimer?.clear();
    const wasOpen = this.phase === 'open';
    this.phase = 'open';
    this.probeOut = false;
    this.reopenAtMs = untilMs;
    // Only the state change is timed; a call that comes first sees it anyway (catchUp).
    this.reopenTimer = this.clock.setTimer(untilMs - this.clock.now(), () => this.catchUp(), { unref: true });
    if (!this.breaker.opened) {
      this.openingOpossum = true;
      try {
        this.breaker.open();
      } finally {
        this.openingOpossum = false;
      }
    }
    if (!wasOpen) this.options.onStateChange(this.key, 'open', this.cause, openedBy);
  }

  private close(publish = true): void {
    this.reopenTimer?.clear();
    this.phase = 'closed';
    this.probeOut = false;
    this.failuresInARow = 0;
    this.failures.clear();
    this.breaker.close();
    this.options.onStateChange(this.key, 'closed', this.cause);
    if (publish) this.link?.publishClose();
  }

  /** Half-open, an unshared breaker always may probe; a shared one only while it holds the fleet's probe. */
  private mayProbe(): boolean {
    if (!this.link || this.link.holdsProbe()) return true;
    this.link.requestProbe();
    return false;
  }

  /** Takes on the fleet's state (`breaker.shared`): nothing is published back. */
  private adopt(s: SharedBreakerState): void {
    if (s.state === 'closed') {
      if (this.phase !== 'closed') this.close(false);
      return;
    }
    const untilMs = s.untilMs ?? 0;
    if (untilMs > this.clock.now()) {
      if (this.phase !== 'open' || this.reopenAtMs !== untilMs) this.openUntil(untilMs);
      return;
    }
    // The fleet's breaker is half-open (its probe may be out already).
    if (this.phase === 'closed') this.openUntil(untilMs);
    else if (this.phase === 'open') this.reopenAtMs = untilMs;
    this.catchUp();
  }

  /** An open breaker whose reset time has come is half-open. */
  private catchUp(): void {
    if (this.phase !== 'open' || this.clock.now() < this.reopenAtMs) return;
    this.reopenTimer?.clear();
    this.reopenTimer = undefined;
    this.phase = 'halfOpen';
    this.probeOut = false;
    this.options.onStateChange(this.key, 'halfOpen');
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
}
