import type { MaybePromise } from './maybe-promise.js';

/**
 * The conversations role: what the gateway's `POST /v1/responses` keeps of each stored response (the
 * history up to and including its answer), so `previous_response_id` continues it in any process
 * sharing the store. A store without it leaves conversations to a bounded LRU in each gateway. A
 * record outlives nothing: it expires `ttlMs` after it was written (`gateway.responses.ttlMs`).
 */
export interface ConversationStore {
  /** The record stored under `key`, or undefined when there is none or it expired. */
  readConversation(key: string, nowMs: number): MaybePromise<string | undefined>;
  /** Stores a record for `ttlMs`. */
  writeConversation(key: string, value: string, ttlMs: number, nowMs: number): MaybePromise<void>;
}
