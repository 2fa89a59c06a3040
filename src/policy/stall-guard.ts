import { RouterError } from '../errors.js';

interface Guarded {
  dueMs: number;
  fail: (err: RouterError) => void;
  where: { provider: string; model: string };
}

const SWEEP_MS = 250;
const pending = new Set<Guarded>();
let sweeper: NodeJS.Timeout | undefined;

function sweep(): void {
  const now = Date.now();
  for (const g of pending) {
    if (g.dueMs > now) continue;
    pending.delete(g);
    g.fail(new RouterError('timeout', `${g.where.provider} response body stalled`, g.where));
  }
  if (pending.size === 0 && sweeper) {
    clearInterval(sweeper);
    sweeper = undefined;
  }
}

/**
 * Fails `promise` with a `timeout` if it has not settled `ms` from now (give or take 250 ms). One
 * shared, unref'd interval checks every guarded request while any is pending, instead of a timer per
 * call: the guard only matters in the rare case a body stalls after its headers, and must not cost
 * the common case a timer.
 */
export function stallGuard<T>(promise: Promise<T>, ms: number, where: { provider: string; model: string }): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const entry: Guarded = { dueMs: Date.now() + ms, fail: reject, where };
    pending.add(entry);
    if (!sweeper) {
      sweeper = setInterval(sweep, SWEEP_MS);
      sweeper.unref();
    }
    promise.then(
      (value) => {
        pending.delete(entry);
        resolve(value);
      },
      (err: unknown) => {
        pending.delete(entry);
        reject(err);
      },
    );
  });
}
