import type { AbortSignalLike } from '../../../providers/types.js';
import { realSignal } from './abort-link.js';
import type { Clock } from '../../types.js';

/**
 * Sleeps `ms` on the clock unless one of the signals aborts first (the caller's, the router's
 * close): then it rejects at once with that signal's reason. Every listener is removed when it
 * settles. Only a retry wait takes this path, so linking two signals costs nothing on a plain call.
 */
export async function sleepUnless(clock: Clock, ms: number, a: AbortSignalLike | undefined, b: AbortSignalLike | undefined): Promise<void> {
  if (!b) return clock.sleep(ms, realSignal(a));
  if (!a) return clock.sleep(ms, realSignal(b));
  const link = new AbortController();
  const onA = () => link.abort(a.reason);
  const onB = () => link.abort(b.reason);
  if (a.aborted) onA();
  else if (b.aborted) onB();
  a.addEventListener('abort', onA, { once: true });
  b.addEventListener('abort', onB, { once: true });
  try {
    await clock.sleep(ms, link.signal);
  } finally {
    a.removeEventListener('abort', onA);
    b.removeEventListener('abort', onB);
  }
}
