import type { ServerResponse } from 'node:http';

/** How a response waits: a clock's `sleep`, which rejects once the signal aborts. */
export type SimSleep = (ms: number, signal: AbortSignal) => Promise<void>;

/**
 * The timers of one response. When the client goes away (or the simulator stops) every pending wait
 * resolves `false` at once and its timer is cleared, so 10,000 abandoned slow answers leave nothing behind.
 * Waits run on real timers, or on the simulator's `sleep` option when it has one (`wait`).
 */
export class ResponseScope {
  private readonly timers = new Map<NodeJS.Timeout, (alive: boolean) => void>();
  private closed = false;
  /** Aborted when the client goes away: cancels the clock's sleeps (made on the first one). */
  private gone: AbortController | undefined;

  constructor(readonly res: ServerResponse, private readonly wait?: SimSleep) {
    res.once('close', () => {
      this.closed = true;
      this.gone?.abort();
      for (const [timer, resolve] of this.timers) {
        clearTimeout(timer);
        resolve(false);
      }
      this.timers.clear();
    });
  }

  /** True while the client is still there to answer. */
  get alive(): boolean {
    return !this.closed && !this.res.destroyed;
  }

  /** Waits `ms`; resolves whether the response is still worth writing. */
  sleep(ms: number): Promise<boolean> {
    if (ms <= 0 || !this.alive) return Promise.resolve(this.alive);
    if (this.wait) {
      this.gone ??= new AbortController();
      return this.wait(ms, this.gone.signal).then(() => this.alive, () => false);
    }
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.timers.delete(timer);
        resolve(this.alive);
      }, ms);
      this.timers.set(timer, resolve);
    });
  }

  /** Ends the connection abruptly once `data` is flushed: the client sees a body cut short. */
  cut(data: string, encoding: BufferEncoding = 'utf8'): void {
    const socket = this.res.socket;
    if (data) this.res.write(data, encoding, () => socket?.destroy());
    else socket?.destroy();
  }
}
