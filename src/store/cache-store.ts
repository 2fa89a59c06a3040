import type { MaybePromise } from './maybe-promise.js';

/**
 * The cache role: the response cache (`cache` in the config) kept in the store, so every process
 * sharing it answers from one cache. A store without it leaves the cache to an LRU in each
 * process. A cache may forget: a miss only costs a request.
 */
export interface CacheStore {
  /** The answer stored under `key`, or undefined. */
  readCached(key: string, nowMs: number): MaybePromise<string | undefined>;
  /** Stores an answer for `ttlMs`. */
  writeCached(key: string, value: string, ttlMs: number, nowMs: number): MaybePromise<void>;
}
