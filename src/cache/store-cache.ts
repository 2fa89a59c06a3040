import type { MaybePromise } from '../store/maybe-promise.js';
import type { CacheStore } from '../store/cache-store.js';
import type { StateStore } from '../store/state-store.js';
import { roleOf } from '../store/store-roles.js';
import type { CacheBackend } from './cache-backend.js';
import { LruCache } from './lru-cache.js';

/**
 * The response cache kept in a shared state store (Redis: `SET PX` under the store's own key prefix
 * and connection), so every process on that store answers from one cache. Expiry is the store's.
 */
export class StoreCache implements CacheBackend {
  constructor(private readonly store: CacheStore) {}

  get(key: string, nowMs: number): MaybePromise<string | undefined> {
    return this.store.readCached(key, nowMs);
  }

  set(key: string, value: string, ttlMs: number, nowMs: number): MaybePromise<void> {
    return this.store.writeCached(key, value, ttlMs, nowMs);
  }
}

/**
 * Where the router's response cache lives: in the state store when it plays the cache role (the
 * Redis store, reached through its fallback so a dead Redis costs a miss, not a wait), else a
 * bounded LRU in this process.
 * @example const backend = cacheBackend(store, config.cache.maxEntries);
 */
export function cacheBackend(store: StateStore, maxEntries: number): CacheBackend {
  const cache = roleOf(store, 'cache');
  return cache ? new StoreCache(cache) : new LruCache(maxEntries);
}
