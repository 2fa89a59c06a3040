import type { MaybePromise } from './maybe-promise.js';
import type { CacheStore } from './cache-store.js';
import type { FallbackCore } from './fallback-core.js';

/** The cache role behind the store's breaker: a miss (the call goes to the provider) rather than a wait while it is down. */
export class FallbackCache implements CacheStore {
  constructor(private readonly core: FallbackCore, private readonly primary: CacheStore) {}

  /** A cached answer from the shared store while it answers in time; a miss while it is down. */
  readCached(key: string, nowMs: number): MaybePromise<string | undefined> {
    const { core } = this;
    if (!core.up) return undefined;
    return core.health.bounded(() => this.primary.readCached(key, nowMs)).catch((err: unknown) => {
      core.failed(err);
      return undefined;
    });
  }

  /** Stores an answer in the shared store; dropped while it is down (a cache may forget). */
  writeCached(key: string, value: string, ttlMs: number, nowMs: number): MaybePromise<void> {
    return this.core.write(() => this.primary.writeCached(key, value, ttlMs, nowMs));
  }
}
