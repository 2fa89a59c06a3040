import type { RateLimitSnapshot } from '../types.js';
import { BREAKER_RECORD_TTL_MS, CLOSED, closeTransition, openTransition, probeTransition, type BreakerStateStore, type SharedBreakerState } from './breaker-state.js';
import type { Block, BudgetGrant, BudgetRequest, IdempotencyState, StateStore } from './state-store.js';

const DEFAULT_WINDOW_MS = 60_000;
/** Idle budgets and expired records are swept once every this many acquisitions. */
const SWEEP_EVERY = 1024;

interface Entry {
  at: number;
  id: string;
  tokens: number;
  /** False for a later token charge: it counts for TPM, not RPM. */
  request: boolean;
  /** Expired, or given back: no longer counted. */
  dead?: boolean;
}

/**
 * What a provider last said it has left of one limit. Providers refill continuously (both document a
 * token bucket) and `reset` is when the bucket is full again, so with the limit known, room returns
 * at (limit - remaining) / reset per ms; without it, nothing is assumed back before the reset.
 */
export class Headroom {
  left = 0;
  at = 0;
  until = 0;
  rate = 0;
  cap = Infinity;

  observe(remaining: number, limit: number | undefined, resetMs: number, nowMs: number): void {
    this.left = remaining;
    this.at = nowMs;
    this.until = nowMs + resetMs;
    this.cap = limit ?? Infinity;
    this.rate = limit !== undefined && resetMs > 0 && limit > remaining ? (limit - remaining) / resetMs : 0;
  }

  private available(nowMs: number): number {
    return Math.min(this.cap, this.left + (nowMs - this.at) * this.rate);
  }

  /** Milliseconds until `need` fits, or 0 when it fits now (or the headroom is stale). */
  waitFor(need: number, nowMs: number): number {
    if (this.until <= nowMs) return 0;
    const avail = this.available(nowMs);
    if (avail >= need) return 0;
    const whole = this.until - nowMs;
    return this.rate > 0 ? Math.min(whole, Math.ceil((need - avail) / this.rate)) : whole;
  }

  take(need: number, nowMs: number): void {
    if (this.until <= nowMs) return;
    this.left = this.available(nowMs) - need;
    this.at = nowMs;
  }
}

/**
 * One budget's rolling window: requests and tokens by time, concurrency leases by expiry. Entries
 * are a queue read from `head`: expiring the oldest costs nothing per call (a `splice(0, n)` on a
 * minute of entries cost time in proportion to them, on every call once they began to expire), and
 * the array is compacted only once most of it is behind the head.
 */
class Window {
  private items: Entry[] = [];
  private head = 0;
  tokenSum = 0;
  requests = 0;
  readonly leases = new Map<string, number>();
  /** The provider's own headroom, from the last response's headers. */
  readonly requestRoom = new Headroom();
  readonly tokenRoom = new Headroom();

  /** Live entries, oldest first. */
  *entries(): IterableIterator<Entry> {
    for (let i = this.head; i < this.items.length; i++) if (!this.items[i]!.dead) yield this.items[i]!;
  }

  get size(): number {
    return this.items.length - this.head;
  }

  trim(nowMs: number, windowMs: number): void {
    const items = this.items;
    while (this.head < items.length && items[this.head]!.at <= nowMs - windowMs) this.forget(items[this.head++]!);
    if (this.head > 1024 && this.head * 2 > items.length) {
      this.items = items.slice(this.head);
      this.head = 0;
    }
  }

  /** Frees the slots of leases whose process died holding them (only worth it when the budget is full). */
  expireLeases(nowMs: number): void {
    for (const [id, until] of this.leases) if (until <= nowMs) this.leases.delete(id);
  }

  add(entry: Entry): void {
    this.items.push(entry);
    this.tokenSum += entry.tokens;
    if (entry.request) this.requests++;
  }

  /** Gives back the entry of a lease whose request was never sent (looked for from the newest). */
  drop(leaseId: string): void {
    for (let i = this.items.length - 1; i >= this.head; i--) {
      const e = this.items[i]!;
      if (e.id === leaseId && !e.dead) {
        this.forget(e);
        return;
      }
    }
  }

  private forget(entry: Entry): void {
    if (entry.dead) return;
    entry.dead = true;
    this.tokenSum -= entry.tokens;
    if (entry.request) this.requests--;
  }
}

interface Idempotent {
  fingerprint: string;
  value?: string;
  untilMs: number;
}

/**
 * In-process state: the default, and the reference the Redis store is tested against (both pass
 * test/store/contract.ts). Budgets are exact rolling windows: a request counts for `windowMs` from
 * the moment it was admitted.
 */
export class MemoryStore implements StateStore, BreakerStateStore {
  readonly shared = false;
  private readonly blocks = new Map<string, Block>();
  private readonly breakers = new Map<string, { state: SharedBreakerState; expiresAtMs: number }>();
  private readonly windows = new Map<string, Window>();
  private readonly idempotency = new Map<string, Idempotent>();
  private acquires = 0;

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
    const { limits, tokens } = req;
    const windowMs = limits.windowMs ?? DEFAULT_WINDOW_MS;
    if (++this.acquires % SWEEP_EVERY === 0) this.sweep(nowMs, windowMs);
    let w = this.windows.get(req.key);
    if (!w) this.windows.set(req.key, (w = new Window()));
    w.trim(nowMs, windowMs);

    if (limits.tpm !== undefined && tokens > limits.tpm) return { ok: false, reason: 'too_large' };
    const roomInMs = Math.max(w.requestRoom.waitFor(1, nowMs), w.tokenRoom.waitFor(tokens, nowMs));
    if (roomInMs > 0) return { ok: false, reason: 'provider', retryInMs: roomInMs };
    if (limits.concurrency !== undefined && w.leases.size >= limits.concurrency) {
      w.expireLeases(nowMs);
      if (w.leases.size >= limits.concurrency) return { ok: false, reason: 'concurrency' };
    }
    if (limits.rpm !== undefined && w.requests >= limits.rpm) {
      let oldest: Entry | undefined;
      for (const e of w.entries()) if (e.request) {
        oldest = e;
        break;
      }
      return { ok: false, reason: 'rpm', retryInMs: oldest!.at + windowMs - nowMs };
    }
    if (limits.tpm !== undefined && w.tokenSum + tokens > limits.tpm) {
      let freed = 0;
      let retryInMs = windowMs;
      for (const e of w.entries()) {
        freed += e.tokens;
        if (w.tokenSum - freed + tokens <= limits.tpm) {
          retryInMs = e.at + windowMs - nowMs;
          break;
        }
      }
      return { ok: false, reason: 'tpm', retryInMs };
    }

    // A budget that counts nothing (headroom only) keeps no entries: memory stays flat.
    if (limits.rpm !== undefined || limits.tpm !== undefined) w.add({ at: nowMs, id: req.leaseId, tokens, request: true });
    if (limits.concurrency !== undefined) w.leases.set(req.leaseId, nowMs + req.leaseTtlMs);
    w.requestRoom.take(1, nowMs);
    w.tokenRoom.take(tokens, nowMs);
    return { ok: true };
  }

  releaseBudget(key: string, leaseId: string, sent: boolean): void {
    const w = this.windows.get(key);
    if (!w) return;
    w.leases.delete(leaseId);
    if (sent) return;
    w.drop(leaseId);
  }

  chargeTokens(key: string, leaseId: string, tokens: number, nowMs: number): void {
    const w = this.windows.get(key);
    if (!w || tokens <= 0) return;
    w.add({ at: nowMs, id: `${leaseId}+`, tokens, request: false });
  }

  observeHeadroom(key: string, snapshot: RateLimitSnapshot, nowMs: number): void {
    let w = this.windows.get(key);
    if (!w) this.windows.set(key, (w = new Window()));
    const { requests, tokens } = snapshot;
    if (requests?.remaining !== undefined && requests.resetMs !== undefined) w.requestRoom.observe(requests.remaining, requests.limit, requests.resetMs, nowMs);
    if (tokens?.remaining !== undefined && tokens.resetMs !== undefined) w.tokenRoom.observe(tokens.remaining, tokens.limit, tokens.resetMs, nowMs);
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

  readIdempotency(key: string, fingerprint: string, nowMs: number): IdempotencyState | { state: 'missing' } {
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

  /** Leases currently held on a budget (for tests and diagnostics). */
  heldLeases(key: string): number {
    return this.windows.get(key)?.leases.size ?? 0;
  }

  close(): void {
    this.blocks.clear();
    this.windows.clear();
    this.idempotency.clear();
    this.breakers.clear();
  }

  private writeBreaker(key: string, state: SharedBreakerState, nowMs: number): SharedBreakerState {
    if (state.state === 'closed') this.breakers.delete(key);
    else this.breakers.set(key, { state, expiresAtMs: Math.max(state.untilMs ?? 0, state.probeUntilMs ?? 0, nowMs) + BREAKER_RECORD_TTL_MS });
    return state;
  }

  /** Forgets idle budgets (tenant keys come from callers, so their number is not bounded) and old records. */
  private sweep(nowMs: number, windowMs: number): void {
    for (const [key, w] of this.windows) {
      w.trim(nowMs, windowMs);
      w.expireLeases(nowMs);
      if (w.size === 0 && w.leases.size === 0 && w.requestRoom.until <= nowMs && w.tokenRoom.until <= nowMs) this.windows.delete(key);
    }
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
export function memoryStore(): MemoryStore {
  return new MemoryStore();
}
