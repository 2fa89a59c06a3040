import type { ConversationStore } from './conversation-store.js';

interface Record {
  value: string;
  untilMs: number;
}

/** How many conversations a memory store keeps before it forgets the least recently used. @default 10000 */
export const MEMORY_CONVERSATIONS = 10_000;

/**
 * Conversations in this process: a Map in use order (a read moves its entry to the end), the least
 * recently used dropped past `maxEntries`, an expired one dropped when read.
 */
export class MemoryConversations implements ConversationStore {
  private readonly records = new Map<string, Record>();

  constructor(private readonly maxEntries = MEMORY_CONVERSATIONS) {}

  readConversation(key: string, nowMs: number): string | undefined {
    const record = this.records.get(key);
    if (!record) return undefined;
    this.records.delete(key);
    if (record.untilMs <= nowMs) return undefined;
    this.records.set(key, record);
    return record.value;
  }

  writeConversation(key: string, value: string, ttlMs: number, nowMs: number): void {
    this.records.delete(key);
    this.records.set(key, { value, untilMs: nowMs + ttlMs });
    while (this.records.size > this.maxEntries) this.records.delete(this.records.keys().next().value!);
  }

  /** Records held (expired ones not yet read included). */
  get size(): number {
    return this.records.size;
  }

  clear(): void {
    this.records.clear();
  }
}
