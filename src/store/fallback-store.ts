import type { Clock } from '../clock.js';
import { DEFAULTS } from '../config/defaults.js';
import { RouterError } from '../errors.js';
import { andThen, type MaybePromise } from '../maybe-promise.js';
import type { Logger } from '../observe/logger.js';
import { hasBreakerState, type BreakerStateStore, type SharedBreakerState } from './breaker-state.js';
import { MemoryStore } from './memory-store.js';
import type { Block, BudgetGrant, BudgetRequest, BudgetSettlement, IdempotencyState, StateStore } from './state-store.js';
import { isOutage, StoreHealth, type StoreStateChange } from './store-health.js';
import { StoreOutbox, type MissedWrite } from './store-outbox.js';

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

const leaseKey = (key: string, leaseId: string) => `${key}\0${leaseId}`;

/**
 * A shared store behind a breaker of its own (`store.onUnavailable`). While the store answers, every
 * operation goes to it; once it fails, stays silent for `failoverMs` or drops its connection, nothing
 * waits on it: decisions (blocks, budgets, idempotency claims) are made on process-local state
 * (`local`) or fail as `transport` at once (`fail`), and what happens after an answer (releases,
 * charges, records) never fails a call. Blocks, claims and answers learned meanwhile are written to
 * the store when a probe finds it back, so other processes see them.
 */
export class FallbackStore implements StateStore, BreakerStateStore {
  readonly shared: boolean;
  /** Process-local state while the store is down (and answers whose record the store missed). */
  readonly local = new MemoryStore();
  private readonly health: StoreHealth;
  private readonly outbox = new StoreOutbox();
  private readonly localLeases = new Set<string>();
  private readonly mode: 'local' | 'fail';
  private readonly unwatch: (() => void) | undefined;

  constructor(readonly primary: StateStore, options: FallbackStoreOptions) {
    const o = { ...FALLBACK_DEFAULTS, ...definedOf(options) };
    this.shared = primary.shared;
    this.mode = o.onUnavailable;
    const ping = primary.ping ? () => primary.ping!() : async () => void (await primary.getBlock('switchyard-ping', options.clock.now()));
    this.health = new StoreHealth({
      clock: options.clock, logger: options.logger, mode: o.onUnavailable, onStateChange: options.onStateChange,
      failoverMs: o.failoverMs, probeMs: o.probeMs, ping,
      beforeRecovery: () => this.outbox.flush(primary, () => options.clock.now(), (op) => this.health.bounded(op)),
    });
    this.unwatch = primary.watchConnection?.((event, error) => (event === 'lost' ? this.health.markDown(error ?? new Error('connection lost')) : this.health.probeSoon()));
  }

  /** Whether the shared store is in use (false while it is down). */
  get available(): boolean {
    return this.health.up;
  }

  getBlock(key: string, nowMs: number): MaybePromise<Block | undefined> {
    return this.decide(
      // A block seen in the store is remembered here too, so an outage does not forget it.
      () => andThen(this.primary.getBlock(key, nowMs), (block) => (block && this.local.setBlock(key, block, nowMs), block)),
      () => this.local.getBlock(key, nowMs),
    );
  }

  setBlock(key: string, block: Block, nowMs: number): MaybePromise<void> {
    this.local.setBlock(key, block, nowMs);
    return this.write(() => this.primary.setBlock(key, block, nowMs), { kind: 'block', key, block });
  }

  acquireBudget(req: BudgetRequest, nowMs: number): MaybePromise<BudgetGrant> {
    const local = () => {
      const grant = this.local.acquireBudget(req, nowMs);
      if (grant.ok) this.localLeases.add(leaseKey(req.key, req.leaseId));
      return grant;
    };
    if (!this.health.up) return this.whileDown(local);
    return this.health.bounded(() => this.primary.acquireBudget(req, nowMs)).catch((err: unknown) => {
      // The script may have run with no answer reaching us: free that slot when the store is back.
      if (isOutage(err)) this.outbox.add({ kind: 'release', key: req.key, leaseId: req.leaseId, sent: true });
      return this.outage(err, local);
    });
  }

  releaseBudget(key: string, leaseId: string, sent: boolean, nowMs: number): MaybePromise<void> {
    if (this.localLeases.delete(leaseKey(key, leaseId))) return this.local.releaseBudget(key, leaseId, sent, nowMs);
    return this.write(() => this.primary.releaseBudget(key, leaseId, sent, nowMs), { kind: 'release', key, leaseId, sent });
  }

  settleBudget(key: string, leaseId: string, settlement: BudgetSettlement, nowMs: number): MaybePromise<void> {
    if (this.localLeases.delete(leaseKey(key, leaseId))) return this.local.settleBudget(key, leaseId, settlement, nowMs);
    // Missed while the store is down: its slot is freed when the store is back; the charge and the report are dropped.
    return this.write(() => this.primary.settleBudget(key, leaseId, settlement, nowMs), { kind: 'release', key, leaseId, sent: true });
  }

  /** A cached answer from the shared store while it answers in time; a miss while it is down (the call goes to the provider). */
  readCached(key: string, nowMs: number): MaybePromise<string | undefined> {
    const primary = this.primary;
    if (!primary.readCached || !this.health.up) return undefined;
    return this.health.bounded(() => primary.readCached!(key, nowMs)).catch((err: unknown) => {
      this.failed(err);
      return undefined;
    });
  }

  /** Stores an answer in the shared store; dropped while it is down (a cache may forget). */
  writeCached(key: string, value: string, ttlMs: number, nowMs: number): MaybePromise<void> {
    const primary = this.primary;
    if (!primary.writeCached) return;
    return this.write(() => primary.writeCached!(key, value, ttlMs, nowMs));
  }

  claimIdempotency(key: string, fingerprint: string, pendingTtlMs: number, nowMs: number): MaybePromise<IdempotencyState> {
    // An answer the store missed is replayed from here, whether the store is back or not.
    const known = this.local.readIdempotency(key, fingerprint, nowMs);
    if (known.state === 'done' || known.state === 'mismatch') return known;
    return this.decide(() => this.primary.claimIdempotency(key, fingerprint, pendingTtlMs, nowMs), () => {
      const claim = this.local.claimIdempotency(key, fingerprint, pendingTtlMs, nowMs);
      if (claim.state === 'claimed') this.outbox.add({ kind: 'claim', key, fingerprint, pendingTtlMs, atMs: nowMs });
      return claim;
    });
  }

  completeIdempotency(key: string, fingerprint: string, value: string, ttlMs: number, nowMs: number): MaybePromise<void> {
    this.outbox.forgetClaim(key);
    const keep = () => {
      this.local.completeIdempotency(key, fingerprint, value, ttlMs, nowMs);
      this.outbox.add({ kind: 'complete', key, fingerprint, value, ttlMs, atMs: nowMs });
    };
    if (!this.health.up) return keep();
    return this.health.bounded(() => this.primary.completeIdempotency(key, fingerprint, value, ttlMs, nowMs)).then(
      () => this.local.abandonIdempotency(key), // a claim this process took while the store was down
      (err: unknown) => {
        this.failed(err);
        keep();
      },
    );
  }

  abandonIdempotency(key: string): MaybePromise<void> {
    this.local.abandonIdempotency(key);
    this.outbox.forgetClaim(key);
    // While the store is down, a claim this process holds there blocks its key until its pendingTtlMs.
    if (!this.health.up) return;
    return this.write(() => this.primary.abandonIdempotency(key));
  }

  readIdempotency(key: string, fingerprint: string, nowMs: number): MaybePromise<IdempotencyState | { state: 'missing' }> {
    const known = this.local.readIdempotency(key, fingerprint, nowMs);
    if (known.state === 'done' || known.state === 'mismatch') return known;
    // Only a caller waiting for another process's claim reads: while the store is down that claim is
    // out of sight, not gone, so it still counts as pending (the waiter's deadline and pendingTtlMs bound it).
    return this.decide(() => this.primary.readIdempotency(key, fingerprint, nowMs), () => (known.state === 'missing' ? { state: 'pending' as const } : known));
  }

  readBreaker(key: string, nowMs: number): Promise<SharedBreakerState> {
    return this.breakerOp((s) => s.readBreaker(key, nowMs));
  }

  openBreaker(key: string, by: string, untilMs: number, nowMs: number): Promise<SharedBreakerState> {
    return this.breakerOp((s) => s.openBreaker(key, by, untilMs, nowMs));
  }

  closeBreaker(key: string, by: string, nowMs: number): Promise<SharedBreakerState> {
    return this.breakerOp((s) => s.closeBreaker(key, by, nowMs));
  }

  takeProbe(key: string, by: string, leaseMs: number, nowMs: number): Promise<SharedBreakerState> {
    return this.breakerOp((s) => s.takeProbe(key, by, leaseMs, nowMs));
  }

  async close(): Promise<void> {
    this.health.stop();
    this.unwatch?.();
    this.local.close();
    await this.primary.close();
  }

  /** A decision: the store while it answers, else process-local state (or a `transport` failure). */
  private decide<T>(primary: () => MaybePromise<T>, local: () => T): MaybePromise<T> {
    if (!this.health.up) return this.whileDown(local);
    return this.health.bounded(primary).catch((err: unknown) => this.outage(err, local));
  }

  private outage<T>(err: unknown, local: () => T): MaybePromise<T> {
    if (!isOutage(err)) throw err;
    this.health.markDown(err);
    return this.whileDown(local);
  }

  private whileDown<T>(local: () => T): MaybePromise<T> {
    if (this.mode === 'fail') return Promise.reject(this.health.lastError);
    return local();
  }

  /** A write that must never fail a call: kept for later (`missed`) or dropped while the store is down or when it fails. */
  private write(op: () => MaybePromise<void>, missed?: MissedWrite): MaybePromise<void> {
    if (!this.health.up) {
      if (missed) this.outbox.add(missed);
      return;
    }
    return this.health.bounded(op).catch((err: unknown) => {
      this.failed(err);
      if (missed) this.outbox.add(missed);
    });
  }

  private failed(err: unknown): void {
    if (isOutage(err)) this.health.markDown(err);
  }

  private breakerOp(op: (store: BreakerStateStore) => MaybePromise<SharedBreakerState>): Promise<SharedBreakerState> {
    const primary = this.primary;
    if (!hasBreakerState(primary)) return Promise.reject(new RouterError('config', 'this state store cannot keep shared breakers'));
    if (!this.health.up) return Promise.reject(this.health.lastError);
    return this.health.bounded(() => op(primary)).catch((err: unknown) => {
      this.failed(err);
      throw err;
    });
  }
}

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

/** Where shared breakers can live on this store, if anywhere (a FallbackStore can only if its store can). */
export function breakerStateOf(store: StateStore): BreakerStateStore | undefined {
  if (store instanceof FallbackStore) return hasBreakerState(store.primary) ? store : undefined;
  return hasBreakerState(store) ? store : undefined;
}
