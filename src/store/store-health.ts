import type { Clock, Timer } from '../types.js';
import { isRouterError, RouterError } from '../errors.js';
import { isPromise, type MaybePromise } from './maybe-promise.js';
import type { Logger } from '../observe/logger.js';

/** How the shared store changed, as the router's `store` event reports it. */
export interface StoreStateChange {
  state: 'unavailable' | 'available';
  /** Why it became unavailable (the server named, its password masked). */
  error?: string;
}

/** What `StoreHealth` needs; every field is required (FallbackStore fills the defaults). */
export interface StoreHealthOptions {
  clock: Clock;
  logger?: Logger;
  /** What calls do while the store is down, for the log line. */
  mode: 'local' | 'fail';
  onStateChange?: (change: StoreStateChange) => void;
  /** An operation with no answer by then counts as a failure, and the store as down. */
  failoverMs: number;
  /** How often a down store is probed. */
  probeMs: number;
  /** One round trip to the store. */
  ping: () => Promise<void>;
  /** Runs once the store answers again, before it counts as available (writes kept meanwhile); a throw keeps it down. */
  beforeRecovery: () => Promise<void>;
}

/** True when a store error means the store cannot be reached; a `config` error (rejected credentials) is a setup mistake. */
export function isOutage(err: unknown): boolean {
  return !isRouterError(err) || err.kind !== 'config';
}

const describe = (err: unknown) => (err instanceof Error ? err.message : String(err));

/**
 * A circuit breaker on the state store itself: up until an operation fails, goes unanswered for
 * `failoverMs`, or the connection drops; then down (no operation waits on the store at all) until a
 * background probe on the clock gets an answer. Each change is logged once and reported once.
 */
export class StoreHealth {
  private isUp = true;
  private probing = false;
  private stopped = false;
  private timer: Timer | undefined;
  private last: RouterError | undefined;
  /** The bounds of operations in flight, cleared by `stop` so none outlives the router. */
  private readonly bounds = new Set<Timer>();

  constructor(private readonly o: StoreHealthOptions) {}

  get up(): boolean {
    return this.isUp;
  }

  /** The error that took the store down, for calls that fail while it is (`onUnavailable: 'fail'`). */
  get lastError(): RouterError {
    const last = this.last ?? new RouterError('transport', 'the state store is unavailable', { code: 'redis' });
    return new RouterError('transport', last.message, { code: last.code, cause: last.cause });
  }

  /** Runs one store operation; it fails as `transport` when no answer came within `failoverMs`. */
  bounded<T>(op: () => MaybePromise<T>): Promise<T> {
    let pending: MaybePromise<T>;
    try {
      pending = op();
    } catch (err) {
      return Promise.reject(err);
    }
    if (!isPromise(pending)) return Promise.resolve(pending);
    return new Promise<T>((resolve, reject) => {
      let settled = false;
      const timer: Timer = this.o.clock.setTimer(this.o.failoverMs, () => {
        this.bounds.delete(timer);
        // After an event-loop stall the timer and the reply are both due and timers run first: let
        // replies already received be read before calling the store silent.
        setImmediate(() => {
          if (settled) return;
          settled = true;
          reject(new RouterError('transport', `the state store did not answer within ${this.o.failoverMs} ms`, { code: 'store_timeout' }));
        });
      }, { unref: true });
      this.bounds.add(timer);
      const end = () => {
        settled = true;
        timer.clear();
        this.bounds.delete(timer);
      };
      pending.then(
        (value) => {
          if (settled) return;
          end();
          resolve(value);
        },
        (err: unknown) => {
          if (settled) return;
          end();
          reject(err);
        },
      );
    });
  }

  /** The store failed or dropped its connection: stop using it until a probe gets an answer. */
  markDown(err: unknown): void {
    if (!this.isUp || this.stopped) return;
    this.isUp = false;
    this.last = isRouterError(err) ? err : new RouterError('transport', describe(err), { code: 'redis', cause: err });
    const error = describe(err);
    const then = this.o.mode === 'local' ? 'calls continue on process-local state' : "calls fail (store.onUnavailable: 'fail')";
    this.o.logger?.warn({ err: error }, `state store unavailable: ${then} until it answers again`);
    this.o.onStateChange?.({ state: 'unavailable', error });
    this.schedule();
  }

  /** The connection is back: probe now rather than at the next tick. */
  probeSoon(): void {
    if (this.isUp || this.probing || this.stopped) return;
    this.timer?.clear();
    void this.probe();
  }

  stop(): void {
    this.stopped = true;
    this.timer?.clear();
    this.timer = undefined;
    for (const bound of this.bounds) bound.clear();
    this.bounds.clear();
  }

  private schedule(): void {
    this.timer?.clear();
    this.timer = this.o.clock.setTimer(this.o.probeMs, () => void this.probe(), { unref: true });
  }

  private async probe(): Promise<void> {
    if (this.isUp || this.probing || this.stopped) return;
    this.probing = true;
    this.timer = undefined;
    try {
      await this.bounded(this.o.ping);
      await this.o.beforeRecovery();
      if (this.stopped) return;
      this.isUp = true;
      this.o.logger?.info('state store available again: shared state resumes');
      this.o.onStateChange?.({ state: 'available' });
    } catch {
      if (!this.stopped) this.schedule();
    } finally {
      this.probing = false;
    }
  }
}
