import { EventEmitter } from 'node:events';
import type { BreakerPolicy, Target } from '../config/index.js';
import { AdaptiveThrottle } from './adaptive-throttle.js';
import { CircuitBreaker, type BreakerState } from './circuit-breaker.js';

/**
 * Every breaker of one router, keyed by provider (or by `provider:model` with `scope: 'target'`),
 * created on first use and sharing one bucket-rotation timer.
 */
export class Breakers {
  private readonly byKey = new Map<string, CircuitBreaker>();
  private readonly throttles = new Map<string, AdaptiveThrottle>();
  private readonly rotate = new EventEmitter();
  private readonly timer: NodeJS.Timeout;

  constructor(private readonly policy: BreakerPolicy, private readonly onStateChange: (key: string, state: BreakerState) => void) {
    this.rotate.setMaxListeners(0);
    this.timer = setInterval(() => this.rotate.emit('rotate'), Math.max(1, Math.floor(policy.windowMs / 10)));
    this.timer.unref();
  }

  keyFor(target: Target): string {
    return this.policy.scope === 'target' ? target.key : target.provider;
  }

  for(target: Target): CircuitBreaker {
    const key = this.keyFor(target);
    let breaker = this.byKey.get(key);
    if (!breaker) {
      breaker = new CircuitBreaker(key, this.policy, { rotate: this.rotate, onStateChange: this.onStateChange });
      this.byKey.set(key, breaker);
    }
    return breaker;
  }

  /** The adaptive throttle that rations last-resort attempts past an open breaker (same key). */
  throttleFor(target: Target): AdaptiveThrottle {
    const key = this.keyFor(target);
    let throttle = this.throttles.get(key);
    if (!throttle) this.throttles.set(key, (throttle = new AdaptiveThrottle(this.policy.windowMs)));
    return throttle;
  }

  /** Current state of every breaker created so far. */
  states(): Record<string, BreakerState> {
    return Object.fromEntries([...this.byKey].map(([key, b]) => [key, b.state]));
  }

  shutdown(): void {
    clearInterval(this.timer);
    for (const breaker of this.byKey.values()) breaker.shutdown();
    this.byKey.clear();
    this.throttles.clear();
  }
}
