import type { AbortSignalLike } from '../../providers/types.js';
import type { Clock, Timer } from '../types.js';

export interface WaitWithin {
  clock: Clock;
  /** The waiter's own signal: its abort ends the wait (not what is waited for). */
  signal?: AbortSignalLike;
  /** Milliseconds the waiter has left; Infinity for no deadline. */
  inMs: number;
  aborted(reason: unknown): Error;
  timedOut(): Error;
}

/**
 * Waits for `done` on behalf of a caller who did not start it (a follower of a leader's request):
 * the caller's own signal and deadline end the wait, never the work it waits for; the timer and the
 * listener go with the wait.
 */
export function waitWithin<T>(done: Promise<T>, { clock, signal, inMs, aborted, timedOut }: WaitWithin): Promise<T> {
  if (signal?.aborted) return Promise.reject(aborted(signal.reason));
  if (inMs <= 0) return Promise.reject(timedOut());
  return new Promise<T>((resolve, reject) => {
    let timer: Timer | undefined;
    const end = (settle: () => void) => {
      timer?.clear();
      signal?.removeEventListener('abort', onAbort);
      settle();
    };
    const onAbort = () => end(() => reject(aborted(signal!.reason)));
    if (inMs !== Infinity) timer = clock.setTimer(inMs, () => end(() => reject(timedOut())));
    signal?.addEventListener('abort', onAbort, { once: true });
    done.then((value) => end(() => resolve(value)), (err: unknown) => end(() => reject(err)));
  });
}
