import type { Clock, Timer } from '../types.js';

/** Why an attempt's signal fired: the caller aborted, the call's deadline passed, or the attempt ran too long. */
export type AbortCause = 'caller' | 'deadline' | 'attempt_timeout' | 'released' | 'closed';

/** The signal one attempt runs under, and why it fired. */
export interface AttemptScope {
  readonly signal: AbortSignal;
  readonly cause: AbortCause | undefined;
  /**
   * For a stream that has shown its first token: the attempt timer becomes an idle timer of `idleMs`,
   * restarted by every `touch()`. The caller's abort and the call's deadline still apply.
   */
  commit(idleMs: number): void;
  /**
   * Before the commit point: the provider showed it is working (thinking the caller is not shown),
   * so the attempt timer starts over; a model that thinks is not a model that hangs.
   */
  alive(): void;
  /** Starts the idle timer: we are now waiting on the provider for the next chunk. */
  touch(): void;
  /** Stops the idle timer while the consumer, not the provider, holds things up. */
  pause(): void;
  /** Aborts the attempt because its owner no longer needs it (a consumer stopped reading). */
  release(): void;
  /** Clears the timer and the caller listener; nothing of the attempt outlives it. */
  dispose(): void;
}

export interface AttemptScopeOptions {
  clock: Clock;
  callerSignal?: AbortSignal;
  /** The router's: fires when the router closes, ending the attempt with cause `closed`. */
  closeSignal?: AbortSignal;
  attemptTimeoutMs: number;
  /** Milliseconds until the call's overall deadline, if it has one. */
  deadlineInMs?: number;
}

/**
 * One AbortController per attempt, fired by whichever comes first: the caller's signal, the call's
 * deadline, or the attempt timeout. One timer (cleared, or refreshed while a stream flows) and one
 * removed listener: an `AbortSignal.timeout` per request would keep its timer alive until it fires.
 */
export function attemptScope(options: AttemptScopeOptions): AttemptScope {
  return new Scope(options);
}

/**
 * The scope as one object: it is its own abort listener (`handleEvent`) and its timer callback is
 * made once, so an attempt costs no closure per step (this runs on every request).
 */
class Scope implements AttemptScope {
  private readonly controller = new AbortController();
  private readonly clock: Clock;
  private readonly callerSignal: AbortSignal | undefined;
  private readonly closeSignal: AbortSignal | undefined;
  private readonly attemptTimeoutMs: number;
  private readonly deadlineAt: number | undefined;
  private why: AbortCause | undefined;
  private timer: Timer | undefined;
  private idleMs: number | undefined;
  private timerIsDeadline = false;
  // Bound, not an arrow field: the same one callback, without the name tsx gives each arrow as it is made.
  private readonly onTimer = this.timedOut.bind(this);

  constructor({ clock, callerSignal, closeSignal, attemptTimeoutMs, deadlineInMs }: AttemptScopeOptions) {
    this.clock = clock;
    this.callerSignal = callerSignal;
    this.closeSignal = closeSignal;
    this.attemptTimeoutMs = attemptTimeoutMs;
    this.deadlineAt = deadlineInMs === undefined ? undefined : clock.now() + deadlineInMs;
    this.arm(attemptTimeoutMs);
    if (callerSignal) {
      if (callerSignal.aborted) this.fire('caller', callerSignal.reason);
      else callerSignal.addEventListener('abort', this, { once: true });
    }
    if (closeSignal) {
      if (closeSignal.aborted) this.fire('closed', new Error('router closed'));
      else closeSignal.addEventListener('abort', this, { once: true });
    }
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  get cause(): AbortCause | undefined {
    return this.why;
  }

  /** The caller's signal or the router's close fired. */
  handleEvent(event: Event): void {
    if (event.target === this.callerSignal) this.fire('caller', this.callerSignal!.reason);
    else this.fire('closed', new Error('router closed'));
  }

  commit(ms: number): void {
    this.idleMs = ms;
    if (!this.why) this.arm(ms);
  }

  alive(): void {
    if (this.idleMs === undefined && !this.why) this.arm(this.attemptTimeoutMs);
  }

  touch(): void {
    if (this.idleMs !== undefined && !this.why) this.arm(this.idleMs);
  }

  pause(): void {
    if (this.idleMs !== undefined && !this.timerIsDeadline) this.timer?.clear();
  }

  release(): void {
    this.fire('released', new Error('released by its owner'));
  }

  dispose(): void {
    this.timer?.clear();
    this.callerSignal?.removeEventListener('abort', this);
    this.closeSignal?.removeEventListener('abort', this);
  }

  private timedOut(): void {
    this.fire(this.timerIsDeadline ? 'deadline' : 'attempt_timeout', new Error(this.timerIsDeadline ? 'call deadline passed' : 'attempt timed out'));
  }

  private fire(why: AbortCause, reason: unknown): void {
    if (this.why) return;
    this.why = why;
    this.timer?.clear();
    this.controller.abort(reason);
  }

  private arm(ms: number): void {
    this.timer?.clear();
    const toDeadline = this.deadlineAt === undefined ? Infinity : this.deadlineAt - this.clock.now();
    this.timerIsDeadline = toDeadline <= ms;
    this.timer = this.clock.setTimer(Math.max(0, this.timerIsDeadline ? toDeadline : ms), this.onTimer);
  }
}
