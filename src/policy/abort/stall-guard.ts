import type { Clock, Timer } from '../../types.js';
import { RouterError } from '../../errors.js';

/** Whose request a guard watches (a target: read only if it stalls). */
interface Where {
  readonly provider: string;
  readonly model: string;
}

interface Guarded {
  dueMs: number;
  fail: (err: RouterError) => void;
  where: Where;
}

const SWEEP_MS = 250;

/**
 * Fails a guarded promise with a `timeout` if it has not settled `ms` from now (give or take 250 ms).
 * One sweep timer on the clock checks every guarded request while any is pending, instead of a
 * timer per call: the guard only matters in the rare case a body stalls after its headers, and must
 * not cost the common case a timer.
 */
export class StallGuard {
  private readonly pending = new Set<Guarded>();
  private sweeper: Timer | undefined;

  constructor(private readonly clock: Clock) {}

  guard<T>(promise: Promise<T>, ms: number, where: Where): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const entry: Guarded = { dueMs: this.clock.now() + ms, fail: reject, where };
      this.pending.add(entry);
      if (!this.sweeper) this.schedule();
      promise.then(
        (value) => {
          this.pending.delete(entry);
          resolve(value);
        },
        (err: unknown) => {
          this.pending.delete(entry);
          reject(err);
        },
      );
    });
  }

  /** Stops sweeping (the router is closing). */
  stop(): void {
    this.sweeper?.clear();
    this.sweeper = undefined;
  }

  private schedule(): void {
    this.sweeper = this.clock.setTimer(SWEEP_MS, () => this.sweep(), { unref: true });
  }

  private sweep(): void {
    this.sweeper = undefined;
    const now = this.clock.now();
    for (const g of this.pending) {
      if (g.dueMs > now) continue;
      this.pending.delete(g);
      const { provider, model } = g.where;
      g.fail(new RouterError('timeout', `${provider} response body stalled`, { provider, model }));
    }
    if (this.pending.size > 0) this.schedule();
  }
}
