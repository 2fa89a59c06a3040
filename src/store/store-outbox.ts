import type { Block, StateStore } from './state-store.js';

/** A write the shared store missed while it was down, made when it answers again. */
export type MissedWrite =
  /** A target or provider blocked meanwhile: other processes should skip it too. */
  | { kind: 'block'; key: string; block: Block }
  /** A claim taken on process-local state: other processes should wait for it, not run the key again. */
  | { kind: 'claim'; key: string; fingerprint: string; pendingTtlMs: number; atMs: number }
  /** An answer whose idempotency record was never written: without it another process would run the key again. */
  | { kind: 'complete'; key: string; fingerprint: string; value: string; ttlMs: number; atMs: number }
  /** A lease held in the store whose release failed (or may have been taken without our hearing): free its slot. */
  | { kind: 'release'; key: string; leaseId: string; sent: boolean }
  /** A conversation written while the store was down: other processes should continue it too. */
  | { kind: 'conversation'; key: string; value: string; ttlMs: number; atMs: number };

function idOf(w: MissedWrite): string {
  if (w.kind === 'release') return `release\0${w.key}\0${w.leaseId}`;
  if (w.kind === 'block') return `block\0${w.key}`;
  return w.kind === 'conversation' ? `conv\0${w.key}` : `idem\0${w.key}`;
}

/**
 * The writes a shared store missed while it was down, oldest first, at most `max` (past that the
 * oldest are dropped and counted). A later write for the same record replaces an earlier one (a
 * completion replaces its claim).
 */
export class StoreOutbox {
  private readonly writes = new Map<string, MissedWrite>();
  /** Writes dropped because the outbox was full. */
  dropped = 0;

  constructor(private readonly max = 10_000) {}

  get size(): number {
    return this.writes.size;
  }

  add(write: MissedWrite): void {
    const id = idOf(write);
    this.writes.delete(id);
    this.writes.set(id, write);
    if (this.writes.size <= this.max) return;
    this.writes.delete(this.writes.keys().next().value!);
    this.dropped++;
  }

  /** Forgets the claim of an idempotency key (its call finished or failed before the store returned). */
  forgetClaim(key: string): void {
    const id = `idem\0${key}`;
    if (this.writes.get(id)?.kind === 'claim') this.writes.delete(id);
  }

  /**
   * Makes every held write on `store` through `run` (which bounds each), oldest first, a batch at a
   * time, skipping what has expired by `nowMs()`; a failure stops it, keeping what was not written.
   */
  async flush(store: StateStore, nowMs: () => number, run: (op: () => unknown) => Promise<unknown>): Promise<void> {
    while (this.writes.size > 0) {
      const batch = [...this.writes].slice(0, FLUSH_BATCH);
      await Promise.all(batch.map(async ([id, w]) => {
        await run(() => write(store, w, nowMs()));
        // A newer write for the same record may have replaced this one meanwhile: keep that one.
        if (this.writes.get(id) === w) this.writes.delete(id);
      }));
    }
  }
}

/** Writes in flight at once while flushing: enough to outpace the writes calls add meanwhile. */
const FLUSH_BATCH = 64;

function write(store: StateStore, w: MissedWrite, now: number): unknown {
  if (w.kind === 'block') return w.block.untilMs > now ? store.setBlock(w.key, w.block, now) : undefined;
  // Claims and answers are kept only by a fallback whose store plays the idempotency role.
  if (w.kind === 'claim') return w.atMs + w.pendingTtlMs > now ? store.claimIdempotency?.(w.key, w.fingerprint, w.pendingTtlMs, w.atMs) : undefined;
  if (w.kind === 'complete') return w.atMs + w.ttlMs > now ? store.completeIdempotency?.(w.key, w.fingerprint, w.value, w.ttlMs, w.atMs) : undefined;
  // What is left of its time to live, counted from when it was written.
  if (w.kind === 'conversation') return w.atMs + w.ttlMs > now ? store.writeConversation?.(w.key, w.value, w.atMs + w.ttlMs - now, now) : undefined;
  return store.releaseBudget(w.key, w.leaseId, w.sent, now);
}
