import type { Clock, Timer, TimerOptions } from '../types.js';

/** Node's timers take at most 2^31 - 1 ms; a longer delay fires at once (with a warning). */
export const MAX_TIMER_MS = 2_147_483_647;

const bound = (ms: number) => Math.min(MAX_TIMER_MS, Math.max(0, ms));

/** Real time: `Date.now` and `setTimeout`, cleared on abort. */
export const systemClock: Clock = Object.freeze({
  isWallClock: true,
  now: () => Date.now(),
  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    if (signal?.aborted) return Promise.reject(signal.reason);
    if (ms <= 0) return Promise.resolve();
    return new Promise<void>((resolve, reject) => {
      const onAbort = () => {
        clearTimeout(timer);
        reject(signal!.reason);
      };
      const timer = setTimeout(() => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      }, bound(ms));
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  },
  setTimer(ms: number, fn: () => void, options?: TimerOptions): Timer {
    const handle = setTimeout(fn, bound(ms));
    if (options?.unref) handle.unref();
    return { clear: () => clearTimeout(handle) };
  },
});
