import type { MaybePromise } from '../store/maybe-promise.js';

/** Where the response cache keeps answers: one process (a bounded LRU) or every process (Redis with TTL). */
export interface CacheBackend {
  get(key: string, nowMs: number): MaybePromise<string | undefined>;
  set(key: string, value: string, ttlMs: number, nowMs: number): MaybePromise<void>;
  close?(): MaybePromise<void>;
}
