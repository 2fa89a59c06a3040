import type { MaybePromise } from './maybe-promise.js';
import type { BlockStore } from './block-store.js';
import type { BreakerStateStore } from './breaker-state.js';
import type { BudgetStore } from './budget-store.js';
import type { CacheStore } from './cache-store.js';
import type { ConversationStore } from './conversation-store.js';
import type { IdempotencyStore } from './idempotency-store.js';
import type { SpendStore } from './spend-store.js';
import type { ShareStore } from './share-store.js';

export type { MaybePromise };
export type { Block, BlockStore } from './block-store.js';
export type { BudgetDenial, BudgetGrant, BudgetLimits, BudgetRequest, BudgetSettlement, BudgetStore, TokenDelta } from './budget-store.js';
export type { IdempotencyRead, IdempotencyState, IdempotencyStore } from './idempotency-store.js';
export type { CacheStore } from './cache-store.js';
export type { ConversationStore } from './conversation-store.js';
export type { BreakerStateStore, SharedBreakerState } from './breaker-state.js';
export type { SpendAlert, SpendGrant, SpendReservation, SpendRow, SpendSettlement, SpendStore, SpendWindowLimit } from './spend-store.js';
export type { ShareStore, ShareSync, ShareView } from './share-store.js';

/** Hears a shared store's connection drop (`lost`, with the client's last error) or come back (`ready`). */
export type ConnectionListener = (event: 'lost' | 'ready', error?: Error) => void;

/** The lifecycle every store has, whatever roles it plays: whether it is shared, and closing it. */
export interface StoreLifecycle {
  /** Whether other processes share this store (waiters then poll for room freed elsewhere). */
  readonly shared: boolean;
  /**
   * A shared store may offer a cheap round trip, so a router that stopped using it (onUnavailable)
   * can tell when it answers again.
   */
  ping?(): Promise<void>;
  /** A shared store may say when its connection drops or comes back, before any command fails. */
  watchConnection?(listener: ConnectionListener): () => void;
  close(): MaybePromise<void>;
}

/**
 * Router state that must be shared by every process using the same providers, as the roles a store
 * plays. Every store plays the lifecycle, the blocks (cooling targets, parked providers) and the
 * budgets; the others are optional, each played whole or not at all, and each feature that needs
 * one finds it with `roleOf` (store-roles.ts): idempotency (calls with `idempotencyKey`), cache (a
 * response cache shared by every process), breaker state (`breaker.shared`), conversations
 * (the gateway's `previous_response_id`) and spend (USD budgets, `tenants.<name>.spend`). Time is the
 * caller's: a member that depends on it takes `nowMs`, and a store reads no clock of its own. The
 * memory store answers synchronously; the Redis store returns promises.
 */
export interface StateStore extends StoreLifecycle, BlockStore, BudgetStore,
  Partial<IdempotencyStore>, Partial<CacheStore>, Partial<BreakerStateStore>, Partial<ConversationStore>, Partial<SpendStore>, Partial<ShareStore> {}
