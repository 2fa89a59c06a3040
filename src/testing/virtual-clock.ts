import type { Clock, Timer, TimerOptions } from '../types.js';

interface Pending {
  at: number;
  seq: number;
  fn: () => void;
  cleared: boolean;
}

/** Options of a `VirtualClock`. */
export interface VirtualClockOptions {
  /** Epoch ms the clock starts at. @default 2026-11-29T12:00:00Z */
  startMs?: number;
  /**
   * A `sleep` moves time forward at once by what it sleeps (firing every timer due by then), so a
   * 20 s `retry-after` is honoured without waiting 20 s. Off: time moves only by `advance`. @default true
   */
  autoAdvance?: boolean;
}

/** Lets pending I/O callbacks and promise reactions run (a few turns of the event loop). */
async function settle(turns = 5): Promise<void> {
  for (let i = 0; i < turns; i++) await new Promise<void>((resolve) => setImmediate(resolve));
}

/**
 * A clock for tests: time stands still until a `sleep` (with `autoAdvance`) or `advance` moves it,
 * and every timer set on it fires in order as time passes it, never by the wall clock. Every sleep is
 * recorded, so a test can assert exactly how long the router waited.
 * @example
 * const clock = new VirtualClock();
 * const router = createRouter(config, { clock });
 * const pending = router.chat(request);
 * await clock.advance(60_000); // the attempt timeout fires
 */
export class VirtualClock implements Clock {
  /** Every `sleep` asked for, in ms, in order. */
  readonly sleeps: number[] = [];
  readonly isWallClock = false;
  private nowMs: number;
  private readonly autoAdvance: boolean;
  private readonly pending: Pending[] = [];
  private seq = 0;

  constructor(options: VirtualClockOptions | number = {}) {
    const o = typeof options === 'number' ? { startMs: options } : options;
    this.nowMs = o.startMs ?? Date.parse('2026-11-29T12:00:00Z');
    this.autoAdvance = o.autoAdvance ?? true;
  }

  now(): number {
    return this.nowMs;
  }

  setTimer(ms: number, fn: () => void, _options?: TimerOptions): Timer {
    const entry: Pending = { at: this.nowMs + Math.max(0, ms), seq: this.seq++, fn, cleared: false };
    let i = this.pending.length;
    while (i > 0 && this.pending[i - 1]!.at > entry.at) i--;
    this.pending.splice(i, 0, entry);
    return {
      clear: () => {
        if (entry.cleared) return;
        entry.cleared = true;
        const at = this.pending.indexOf(entry);
        if (at >= 0) this.pending.splice(at, 1);
      },
    };
  }

  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    if (signal?.aborted) return Promise.reject(signal.reason);
    this.sleeps.push(ms);
    return new Promise<void>((resolve, reject) => {
      const onAbort = () => {
        timer.clear();
        reject(signal!.reason);
      };
      const timer = this.setTimer(ms, () => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      });
      signal?.addEventListener('abort', onAbort, { once: true });
      if (this.autoAdvance) this.jumpTo(this.nowMs + Math.max(0, ms));
    });
  }

  /**
   * Moves time forward by `ms`, firing every timer that falls due, in order, and letting the event
   * loop run before each (so I/O that was under way gets its turn) and after the last.
   */
  async advance(ms: number): Promise<void> {
    const target = this.nowMs + Math.max(0, ms);
    for (;;) {
      await settle();
      const next = this.pending[0];
      if (!next || next.at > target) break;
      this.pending.shift();
      this.nowMs = Math.max(this.nowMs, next.at);
      next.cleared = true;
      next.fn();
    }
    this.nowMs = target;
    await settle();
  }

  /** Timers set and not yet fired or cleared: a finished test should leave none of the router's behind. */
  get pendingTimers(): number {
    return this.pending.length;
  }

  /** Milliseconds until the next pending timer, or undefined when none is pending. */
  nextTimerInMs(): number | undefined {
    const next = this.pending[0];
    return next === undefined ? undefined : Math.max(0, next.at - this.nowMs);
  }

  /** Sets time forward at once, firing what falls due synchronously (a sleep's auto-advance). */
  private jumpTo(target: number): void {
    while (this.pending.length > 0 && this.pending[0]!.at <= target) {
      const next = this.pending.shift()!;
      this.nowMs = Math.max(this.nowMs, next.at);
      next.cleared = true;
      next.fn();
    }
    this.nowMs = Math.max(this.nowMs, target);
  }
}
