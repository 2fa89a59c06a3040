import { DEFAULTS } from '../config/defaults.js';
import { BREAKER_RECORD_TTL_MS, CLOSED, closeTransition, openTransition, probeTransition, type BreakerStateStore, type SharedBreakerState } from './breaker-state.js';
import { MemoryBudgets } from './memory-budgets.js';
import { MemorySpend } from './memory-spend.js';
import type { SpendAlert, SpendGrant, SpendReservation, SpendRow, SpendSettlement, SpendStore } from './spend-store.js';
import type { Block } from './block-store.js';
import type { BudgetGrant, BudgetRequest, BudgetSettlement } from './budget-store.js';
import type { ConversationStore } from './conversation-store.js';
import { MemoryConversations } from './memory-conversations.js';
import type { IdempotencyRead, IdempotencyState, IdempotencyStore } from './idempotency-store.js';
import type { StateStore } from './state-store.js';

/** Options for `memoryStore`; all optional. */
export interface MemoryStoreOptions {
  /** Conversations kept (`previous_response_id`) before the least recently used is forgotten. @default 10000 */
  maxConversations?: number;
}

/** Idle budgets and expired records are swept once every this many acquisitions. */
const SWEEP_EVERY = 1024;

interface Idempotent {
  fingerprint: string;
  value?: string;
  untilMs: number;
}

/**
 * In-process state: the default, and the reference the Redis store is tested against (both pass
 * test/store/contracts/). It plays every role but the cache (the response cache then keeps an LRU
 * of its own); its conversations are a bounded LRU. Budgets are exact rolling windows (a request counts for `windowMs` from
 * the moment it was admitted), paced by token buckets when `burstMs` is set (see pace.ts).
 */
export class MemoryStore implements StateStore, IdempotencyStore, BreakerStateStore, ConversationStore, SpendStore {
  readonly shared = false;
  private readonly blocks = new Map<string, Block>();
  private readonly breakers = new Map<string, { state: SharedBreakerState; expiresAtMs: number }>();
  private readonly budgets = new MemoryBudgets();
  private readonly idempotency = new Map<string, Idempotent>();
  private readonly conversations: MemoryConversations;
  private readonly spend = new MemorySpend();
  private acquires = 0;

  constructor(options: MemoryStoreOptions = {}) {
    this.conversations = new MemoryConversations(options.maxConversations);
  }

  getBlock(key: string, nowMs: number): Block | undefined {
    const block = this.blocks.get(key);
    if (block === undefined) return undefined;
    if (block.untilMs > nowMs) return block;
    this.blocks.delete(key);
    return undefined;
  }

  setBlock(key: string, block: Block, nowMs: number): void {
    const current = this.getBlock(key, nowMs);
    if (current && current.untilMs >= block.untilMs) return;
    this.blocks.set(key, block);
  }

  acquireBudget(req: BudgetRequest, nowMs: number): BudgetGrant {
    if (++this.acquires % SWEEP_EVERY === 0) this.sweep(nowMs, req.limits.windowMs ?? DEFAULTS.limits.windowMs);
    return this.budgets.acquire(req, nowMs);
  }

  releaseBudget(key: string, leaseId: string, sent: boolean, nowMs: number): void {
    this.budgets.release(key, leaseId, sent, nowMs);
  }

  settleBudget(key: string, leaseId: string, settlement: BudgetSettlement, nowMs: number): void {
    // Its slot is freed as any sent request's (the request stays counted), in the same lookup.
    const lease = this.budgets.windows.get(key)?.endLease(leaseId, nowMs);
    this.budgets.settle(key, lease, settlement, nowMs);
  }

  reserveSpend(req: SpendReservation, nowMs: number): SpendGrant {
    return this.spend.reserveSpend(req, nowMs);
  }

  settleSpend(settlement: SpendSettlement, nowMs: number): SpendAlert[] {
    return this.spend.settleSpend(settlement, nowMs);
  }

  readSpend(windows: readonly string[], budget?: string): SpendRow[] {
    return this.spend.readSpend(windows, budget);
  }

  claimIdempotency(key: string, fingerprint: string, pendingTtlMs: number, nowMs: number): IdempotencyState {
    const current = this.liveRecord(key, nowMs);
    if (!current) {
      this.idempotency.set(key, { fingerprint, untilMs: nowMs + pendingTtlMs });
      return { state: 'claimed' };
    }
    if (current.fingerprint !== fingerprint) return { state: 'mismatch' };
    return current.value === undefined ? { state: 'pending' } : { state: 'done', value: current.value };
  }

  completeIdempotency(key: string, fingerprint: string, value: string, ttlMs: number, nowMs: number): void {
    // A key reused meanwhile for a different request (the claim expired) keeps that request's record.
    if ((this.liveRecord(key, nowMs)?.fingerprint ?? fingerprint) !== fingerprint) return;
    this.idempotency.set(key, { fingerprint, value, untilMs: nowMs + ttlMs });
  }

  abandonIdempotency(key: string): void {
    this.idempotency.delete(key);
  }

  readIdempotency(key: string, fingerprint: string, nowMs: number): IdempotencyRead {
    const current = this.liveRecord(key, nowMs);
    if (!current) return { state: 'missing' };
    if (current.fingerprint !== fingerprint) return { state: 'mismatch' };
    return current.value === undefined ? { state: 'pending' } : { state: 'done', value: current.value };
  }

  readBreaker(key: string, nowMs: number): SharedBreakerState {
    const record = this.breakers.get(key);
    if (record === undefined || record.expiresAtMs <= nowMs) return CLOSED;
    return record.state;
  }

  openBreaker(key: string, by: string, untilMs: number, nowMs: number): SharedBreakerState {
    return this.writeBreaker(key, openTransition(this.readBreaker(key, nowMs), by, untilMs, nowMs), nowMs);
  }

  closeBreaker(key: string, by: string, nowMs: number): SharedBreakerState {
    return this.writeBreaker(key, closeTransition(this.readBreaker(key, nowMs), by), nowMs);
  }

  takeProbe(key: string, by: string, leaseMs: number, nowMs: number): SharedBreakerState {
    return this.writeBreaker(key, probeTransition(this.readBreaker(key, nowMs), by, leaseMs, nowMs), nowMs);
  }

  readConversation(key: string, nowMs: number): string | undefined {
    return this.conversations.readConversation(key, nowMs);
  }

  writeConversation(key: string, value: string, ttlMs: number, nowMs: number): void {
    this.conversations.writeConversation(key, value, ttlMs, nowMs);
  }

  /** Leases currently held on a budget (for tests and diagnostics). */
  heldLeases(key: string): number {
    return this.budgets.heldLeases(key);
  }

  /** The burst and level of each pace of a budget, as of now (for tests and diagnostics). */
  paces(key: string, nowMs: number): Array<{ burst: number; level: number } | undefined> {
    return this.budgets.paces(key, nowMs);
  }

  close(): void {
    this.blocks.clear();
    this.budgets.windows.clear();
    this.idempotency.clear();
    this.breakers.clear();
    this.conversations.clear();
    this.spend.clear();
  }

  private writeBreaker(key: string, state: SharedBreakerState, nowMs: number): SharedBreakerState {
    if (state.state === 'closed') this.breakers.delete(key);
    else this.breakers.set(key, { state, expiresAtMs: Math.max(state.untilMs ?? 0, state.probeUntilMs ?? 0, nowMs) + BREAKER_RECORD_TTL_MS });
    return state;
  }

  /** Forgets idle budgets (tenant keys come from callers, so their number is not bounded) and old records. */
  private sweep(nowMs: number, windowMs: number): void {
    this.budgets.sweep(nowMs, windowMs);
    this.spend.sweep(nowMs);
    for (const [key, record] of this.idempotency) if (record.untilMs <= nowMs) this.idempotency.delete(key);
    for (const [key, block] of this.blocks) if (block.untilMs <= nowMs) this.blocks.delete(key);
  }

  private liveRecord(key: string, nowMs: number): Idempotent | undefined {
    const record = this.idempotency.get(key);
    if (record && record.untilMs <= nowMs) {
      this.idempotency.delete(key);
      return undefined;
    }
    return record;
  }
}

/** @example const store = memoryStore(); */
export function memoryStore(options?: MemoryStoreOptions): MemoryStore {
  return new MemoryStore(options);
}
