import type { Clock } from '../types.js';
import { DEFAULTS } from '../config/defaults.js';
import type { MaybePromise } from './maybe-promise.js';
import type { Logger } from '../observe/logger.js';
import type { Block } from './block-store.js';
import type { BreakerStateStore } from './breaker-state.js';
import type { BudgetGrant, BudgetRequest, BudgetSettlement } from './budget-store.js';
import type { CacheStore } from './cache-store.js';
import type { ConversationStore } from './conversation-store.js';
import { FallbackBlocks } from './fallback-blocks.js';
import { FallbackBreakers } from './fallback-breakers.js';
import { FallbackBudgets } from './fallback-budgets.js';
import { FallbackCache } from './fallback-cache.js';
import { FallbackConversations } from './fallback-conversations.js';
import { FallbackCore } from './fallback-core.js';
import { FallbackIdempotency } from './fallback-idempotency.js';
import { FallbackShares } from './fallback-shares.js';
import { FallbackSpend } from './fallback-spend.js';
import type { ShareStore } from './share-store.js';
import type { SpendStore } from './spend-store.js';
import type { IdempotencyStore } from './idempotency-store.js';
import type { MemoryStore } from './memory-store.js';
import type { StateStore } from './state-store.js';
import type { StoreStateChange } from './store-health.js';
import { lendRole, roleOf } from './store-roles.js';

export type { StoreStateChange } from './store-health.js';

/** Options for `fallbackStore`. */
export interface FallbackStoreOptions {
  /** The router's clock: the failover bound and the probes run on it. */
  clock: Clock;
  logger?: Logger;
  /** `local`: calls continue on process-local state while the store is down; `fail`: they fail as `transport`. @default 'local' */
  onUnavailable?: 'local' | 'fail';
  /** Called once when the store becomes unavailable and once when it is available again. */
  onStateChange?: (change: StoreStateChange) => void;
  /** An operation unanswered after this counts the store as down. @default 250 */
  failoverMs?: number;
  /** How often a down store is probed. @default 1000 */
  probeMs?: number;
}

/** The fallback's options taken from the config's defaults (the reasoning behind each is there). */
const FALLBACK_DEFAULTS = Object.freeze({
  onUnavailable: DEFAULTS.store.onUnavailable, failoverMs: DEFAULTS.store.failoverMs, probeMs: DEFAULTS.store.probeMs,
});

/**
 * A shared store behind a breaker of its own (`store.onUnavailable`). While the store answers, every
 * operation goes to it; once it fails, stays silent for `failoverMs` or drops its connection, nothing
 * waits on it: decisions (blocks, budgets, idempotency claims) are made on process-local state
 * (`local`) or fail as `transport` at once (`fail`), and what happens after an answer (releases,
 * settlements, records) never fails a call. Blocks, claims and answers learned meanwhile are written
 * to the store when a probe finds it back, so other processes see them. It plays exactly the roles
 * of the store it wraps, each through its own file (fallback-*.ts).
 */
export class FallbackStore implements StateStore {
  readonly shared: boolean;
  private readonly core: FallbackCore;
  private readonly blocks: FallbackBlocks;
  private readonly budgets: FallbackBudgets;

  constructor(readonly primary: StateStore, options: FallbackStoreOptions) {
    this.shared = primary.shared;
    this.core = new FallbackCore(primary, Object.assign({}, FALLBACK_DEFAULTS, definedOf(options), { clock: options.clock }));
    this.blocks = new FallbackBlocks(this.core, primary);
    this.budgets = new FallbackBudgets(this.core, primary);
    const idempotency = roleOf(primary, 'idempotency');
    if (idempotency) lendRole(this, 'idempotency', new FallbackIdempotency(this.core, idempotency));
    const cache = roleOf(primary, 'cache');
    if (cache) lendRole(this, 'cache', new FallbackCache(this.core, cache));
    const breakers = roleOf(primary, 'breakers');
    if (breakers) lendRole(this, 'breakers', new FallbackBreakers(this.core, breakers));
    const conversations = roleOf(primary, 'conversations');
    if (conversations) lendRole(this, 'conversations', new FallbackConversations(this.core, conversations));
    const spend = roleOf(primary, 'spend');
    if (spend) lendRole(this, 'spend', new FallbackSpend(this.core, spend));
    const shares = roleOf(primary, 'shares');
    if (shares) lendRole(this, 'shares', new FallbackShares(this.core, shares));
  }

  /** Whether the shared store is in use (false while it is down). */
  get available(): boolean {
    return this.core.up;
  }

  /** Process-local state while the store is down (and answers whose record the store missed). */
  get local(): MemoryStore {
    return this.core.local;
  }

  getBlock(key: string, nowMs: number): MaybePromise<Block | undefined> {
    return this.blocks.getBlock(key, nowMs);
  }

  setBlock(key: string, block: Block, nowMs: number): MaybePromise<void> {
    return this.blocks.setBlock(key, block, nowMs);
  }

  acquireBudget(req: BudgetRequest, nowMs: number): MaybePromise<BudgetGrant> {
    return this.budgets.acquireBudget(req, nowMs);
  }

  releaseBudget(key: string, leaseId: string, sent: boolean, nowMs: number): MaybePromise<void> {
    return this.budgets.releaseBudget(key, leaseId, sent, nowMs);
  }

  settleBudget(key: string, leaseId: string, settlement: BudgetSettlement, nowMs: number): MaybePromise<void> {
    return this.budgets.settleBudget(key, leaseId, settlement, nowMs);
  }

  async close(): Promise<void> {
    this.core.stop();
    await this.primary.close();
  }
}

// The optional roles, lent by the constructor when the wrapped store plays them (see store-roles.ts).
export interface FallbackStore extends Partial<IdempotencyStore>, Partial<CacheStore>, Partial<BreakerStateStore>, Partial<ConversationStore>, Partial<SpendStore>, Partial<ShareStore> {}

function definedOf<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}

/**
 * A shared store behind a breaker of its own: calls keep going on process-local state while it is
 * down (or fail at once, with `onUnavailable: 'fail'`), and it is used again once it answers.
 * @example
 * const store = fallbackStore(redisStore(process.env.REDIS_URL!), { clock: systemClock, onStateChange: (e) => log(e) });
 */
export function fallbackStore(primary: StateStore, options: FallbackStoreOptions): FallbackStore {
  return new FallbackStore(primary, options);
}

/** A shared store behind its breaker (`store.onUnavailable`); a store of this process only, as it is. */
export function withFallback(store: StateStore, options: FallbackStoreOptions): StateStore {
  return store.shared ? new FallbackStore(store, options) : store;
}
