/** A timer set on a `Clock`; clearing it twice, or after it fired, does nothing. */
export interface Timer {
  clear(): void;
}

/** Options of `Clock.setTimer`. */
export interface TimerOptions {
  /** The timer alone does not keep the process alive (housekeeping: breaker windows, stall sweeps). @default false */
  unref?: boolean;
}

/**
 * Time as the router sees it: every layer that reads the time or waits takes it from here, so a
 * test can inject a clock it moves by hand and every timer follows.
 */
export interface Clock {
  now(): number;
  /** Resolves after `ms`, or rejects with the signal's reason as soon as it aborts. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
  /** Calls `fn` once, `ms` from now, unless cleared first. */
  setTimer(ms: number, fn: () => void, options?: TimerOptions): Timer;
  /**
   * True when this clock is the process's own time, the time the SDKs' own request timeouts run on:
   * only then may the router hand an attempt's timeout to the SDK instead of timing it itself.
   */
  readonly isWallClock?: boolean;
}

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
