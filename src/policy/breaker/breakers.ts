import { randomBytes } from 'node:crypto';
import { EventEmitter } from 'node:events';
import type { Clock, Timer } from '../../types.js';
import type { BreakerPolicy } from '../../config/index.js';
import type { BreakerStateStore } from '../../store/breaker-state.js';
import { AdaptiveThrottle } from './adaptive-throttle.js';
import { CircuitBreaker, type BreakerCause, type BreakerState } from './circuit-breaker.js';
import type { SharedBreakerOptions } from './shared-breaker.js';

/** A breaker and the adaptive throttle that rations last-resort attempts past it (same key). */
export interface BreakerPair {
  breaker: CircuitBreaker;
  throttle: AdaptiveThrottle;
}

/**
 * Every breaker of one router, keyed by provider (or by `provider:model` with `scope: 'target'`),
 * made when the router is built, sharing one bucket-rotation timer on the router's clock. With
 * `breaker.shared` and a shared store, each breaker also follows the fleet's state, read on every
 * rotation (see shared-breaker.ts); with a store of this process only, the option changes nothing.
 */
export class Breakers {
  private readonly byKey = new Map<string, BreakerPair>();
  private readonly rotate = new EventEmitter();
  private readonly bucketMs: number;
  private timer: Timer | undefined;
  private readonly shared: SharedBreakerOptions | undefined;

  constructor(
    private readonly policy: BreakerPolicy, private readonly clock: Clock,
    private readonly onStateChange: (key: string, state: BreakerState, by?: BreakerCause, openedBy?: Record<string, number>) => void,
    /** The shared store's breaker-state role, if it plays one: followed with `breaker.shared`. */
    fleet?: BreakerStateStore,
  ) {
    if (policy.shared && fleet) this.shared = { store: fleet, processId: randomBytes(6).toString('hex') };
    this.rotate.setMaxListeners(0);
    this.bucketMs = Math.max(1, Math.floor(policy.windowMs / 10));
    this.tick();
  }

  /** The breaker key of a target: its provider, or `provider:model` with `scope: 'target'`. */
  keyFor(provider: string, targetKey: string): string {
    return this.policy.scope === 'target' ? targetKey : provider;
  }

  /** The breaker and throttle of a key, made on first ask (the router asks for every target when it is built). */
  pair(key: string): BreakerPair {
    let pair = this.byKey.get(key);
    if (!pair) {
      pair = {
        breaker: new CircuitBreaker(key, this.policy, { clock: this.clock, rotate: this.rotate, onStateChange: this.onStateChange, shared: this.shared }),
        throttle: new AdaptiveThrottle(this.policy.windowMs),
      };
      this.byKey.set(key, pair);
    }
    return pair;
  }

  /** Current state of every breaker. */
  states(): Record<string, BreakerState> {
    return Object.fromEntries([...this.byKey].map(([key, p]) => [key, p.breaker.state]));
  }

  shutdown(): void {
    this.timer?.clear();
    this.timer = undefined;
    for (const { breaker } of this.byKey.values()) breaker.shutdown();
    this.byKey.clear();
  }

  /** Rotates every breaker's rolling-window bucket, one tenth of the window at a time. */
  private tick(): void {
    this.timer = this.clock.setTimer(this.bucketMs, () => {
      this.rotate.emit('rotate');
      if (this.shared) for (const { breaker } of this.byKey.values()) breaker.refreshShared();
      this.tick();
    }, { unref: true });
  }
}
