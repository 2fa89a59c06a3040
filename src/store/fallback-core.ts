import type { Clock } from '../types.js';
import type { MaybePromise } from './maybe-promise.js';
import type { Logger } from '../observe/logger.js';
import { MemoryStore } from './memory-store.js';
import type { StateStore } from './state-store.js';
import { isOutage, StoreHealth, type StoreStateChange } from './store-health.js';
import { StoreOutbox, type MissedWrite } from './store-outbox.js';

/** What the fallback needs, every field filled (fallback-store.ts takes the defaults from the config's). */
export interface FallbackCoreOptions {
  clock: Clock;
  logger?: Logger;
  onUnavailable: 'local' | 'fail';
  onStateChange?: (change: StoreStateChange) => void;
  failoverMs: number;
  probeMs: number;
}

/**
 * What every role of a FallbackStore shares: the breaker on the shared store, the process-local
 * state used while it is down, the outbox of writes it missed, and the two ways an operation goes
 * to the store (a decision, which falls back or fails; a write, which never fails a call).
 */
export class FallbackCore {
  /** Process-local state while the store is down (and answers whose record the store missed). */
  readonly local = new MemoryStore();
  readonly outbox = new StoreOutbox();
  readonly health: StoreHealth;
  private readonly mode: 'local' | 'fail';
  private readonly unwatch: (() => void) | undefined;

  constructor(readonly primary: StateStore, o: FallbackCoreOptions) {
    this.mode = o.onUnavailable;
    const ping = primary.ping ? () => primary.ping!() : async () => void (await primary.getBlock('switchyard-ping', o.clock.now()));
    this.health = new StoreHealth({
      clock: o.clock, logger: o.logger, mode: o.onUnavailable, onStateChange: o.onStateChange,
      failoverMs: o.failoverMs, probeMs: o.probeMs, ping,
      beforeRecovery: () => this.outbox.flush(primary, () => o.clock.now(), (op) => this.health.bounded(op)),
    });
    this.unwatch = primary.watchConnection?.((event, error) => (event === 'lost' ? this.health.markDown(error ?? new Error('connection lost')) : this.health.probeSoon()));
  }

  get up(): boolean {
    return this.health.up;
  }

  /** A decision: the store while it answers, else process-local state (or a `transport` failure). */
  decide<T>(primary: () => MaybePromise<T>, local: () => T): MaybePromise<T> {
    if (!this.health.up) return this.whileDown(local);
    return this.health.bounded(primary).catch((err: unknown) => this.outage(err, local));
  }

  /** A decision the store failed: a setup mistake is thrown, an outage takes the store down and falls back. */
  outage<T>(err: unknown, local: () => T): MaybePromise<T> {
    if (!isOutage(err)) throw err;
    this.health.markDown(err);
    return this.whileDown(local);
  }

  whileDown<T>(local: () => T): MaybePromise<T> {
    if (this.mode === 'fail') return Promise.reject(this.health.lastError);
    return local();
  }

  /** A write that must never fail a call: kept for later (`missed`) or dropped while the store is down or when it fails. */
  write(op: () => MaybePromise<void>, missed?: MissedWrite): MaybePromise<void> {
    if (!this.health.up) {
      if (missed) this.outbox.add(missed);
      return;
    }
    return this.health.bounded(op).catch((err: unknown) => {
      this.failed(err);
      if (missed) this.outbox.add(missed);
    });
  }

  /** An operation failed: an outage takes the store down. */
  failed(err: unknown): void {
    if (isOutage(err)) this.health.markDown(err);
  }

  stop(): void {
    this.health.stop();
    this.unwatch?.();
    this.local.close();
  }
}
