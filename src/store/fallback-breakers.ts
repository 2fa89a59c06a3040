import type { MaybePromise } from './maybe-promise.js';
import type { BreakerStateStore, SharedBreakerState } from './breaker-state.js';
import type { FallbackCore } from './fallback-core.js';

/**
 * The breaker-state role behind the store's breaker: while the store is down every operation fails
 * at once, and each process's breakers act alone (shared-breaker.ts publishes what they decided
 * once the store is back).
 */
export class FallbackBreakers implements BreakerStateStore {
  constructor(private readonly core: FallbackCore, private readonly primary: BreakerStateStore) {}

  readBreaker(key: string, nowMs: number): Promise<SharedBreakerState> {
    return this.op(() => this.primary.readBreaker(key, nowMs));
  }

  openBreaker(key: string, by: string, untilMs: number, nowMs: number): Promise<SharedBreakerState> {
    return this.op(() => this.primary.openBreaker(key, by, untilMs, nowMs));
  }

  closeBreaker(key: string, by: string, nowMs: number): Promise<SharedBreakerState> {
    return this.op(() => this.primary.closeBreaker(key, by, nowMs));
  }

  takeProbe(key: string, by: string, leaseMs: number, nowMs: number): Promise<SharedBreakerState> {
    return this.op(() => this.primary.takeProbe(key, by, leaseMs, nowMs));
  }

  private op(op: () => MaybePromise<SharedBreakerState>): Promise<SharedBreakerState> {
    const { core } = this;
    if (!core.up) return Promise.reject(core.health.lastError);
    return core.health.bounded(op).catch((err: unknown) => {
      core.failed(err);
      throw err;
    });
  }
}
