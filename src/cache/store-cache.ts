import type { MaybePromise } from '../maybe-promise.js';
import { FallbackStore } from '../store/fallback-store.js';
import type { StateStore } from '../store/state-store.js';
import type { CacheBackend } from './cache-backend.js';
import { LruCache } from './lru-cache.js';

/**
 * The response cache kept in a shared state store (Redis: `SET PX` under the store's own key prefix
 * and connection), so every process on that store answers from one cache. Expiry is the store's.
 */
export class StoreCache implements CacheBackend {
  constructor(private readonly store: StateStore & Required<Pick<StateStore, 'readCached' | 'writeCached'>>) {}

  get(key: string, nowMs: number): MaybePromise<string | undefined> {
    return this.store.readCached(key, nowMs);
  }

  set(key: string, value: string, ttlMs: number, nowMs: number): MaybePromise<void> {
    return this.store.writeCached(key, value, ttlMs, nowMs);
  }
}

/**
 * Where the router's response cache lives: in the state store when it keeps one (the Redis store,
 * reached through its fallback so a dead Redis costs a miss, not a wait), else a bounded LRU in
 * this process.
 * @example const backend = cacheBackend(store, config.cache.maxEntries);
 */
export function cacheBackend(store: StateStore, maxEntries: number): CacheBackend {
  const own = store instanceof FallbackStore ? store.primary : store;
  if (own.readCached && own.writeCached) return new StoreCache(store as ConstructorParameters<typeof StoreCache>[0]);
  return new LruCache(maxEntries);
}
