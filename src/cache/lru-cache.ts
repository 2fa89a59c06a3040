import type { CacheBackend } from './cache-backend.js';

interface Entry {
  value: string;
  untilMs: number;
}

/**
 * A bounded, in-process LRU of answers with a TTL each: a Map in use order (a hit moves its entry
 * to the end), the oldest evicted once `maxEntries` is reached, expired entries dropped when read.
 */
export class LruCache implements CacheBackend {
  private readonly entries = new Map<string, Entry>();

  constructor(private readonly maxEntries: number) {}

  get(key: string, nowMs: number): string | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    this.entries.delete(key);
    if (entry.untilMs <= nowMs) return undefined;
    this.entries.set(key, entry);
    return entry.value;
  }

  set(key: string, value: string, ttlMs: number, nowMs: number): void {
    this.entries.delete(key);
    this.entries.set(key, { value, untilMs: nowMs + ttlMs });
    while (this.entries.size > this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
  }


  close(): void {
    this.entries.clear();
  }
}
