import type { AbortSignalLike } from '../../../providers/types.js';
import { AbortLink } from './abort-link.js';
import type { Clock, Timer } from '../../types.js';

/** Why an attempt's signal fired: the caller aborted, the call's deadline passed, or the attempt ran too long. */
export type AbortCause = 'caller' | 'deadline' | 'attempt_timeout' | 'released' | 'closed';

/** The signal one attempt runs under, and why it fired. */
export interface AttemptScope {
  /** A real `AbortSignal` for the attempt, made when first read (the SDKs' `fetch` takes nothing else). */
  readonly signal: AbortSignal;
  /** The same abort, without making a signal: what the router's own transport listens to. */
  readonly abort: AbortSignalLike;
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
  callerSignal?: AbortSignalLike;
  /** The router's: fires when the router closes, ending the attempt with cause `closed`. */
  closeSignal?: AbortSignalLike;
  attemptTimeoutMs: number;
  /** Milliseconds until the call's overall deadline, if it has one. */
  deadlineInMs?: number;
}

/**
 * One abort per attempt (an AbortLink: an `AbortSignal` only if the adapter reads `signal`), fired by
 * whichever comes first: the caller's signal, the call's deadline, or the attempt timeout. One timer
 * (cleared, or refreshed while a stream flows) and one removed listener: an `AbortSignal.timeout` per
 * request would keep its timer alive until it fires. A class, not an object literal with getters:
 * on Node 20 a literal whose accessors are closures gets a hidden class of its own each time.
 */
class Scope implements AttemptScope {
  readonly abort = new AbortLink();
  cause: AbortCause | undefined;
  private timer: Timer | undefined;
  private idleMs: number | undefined;
  private timerIsDeadline = false;
  private readonly deadlineAt: number | undefined;
  private readonly clock: Clock;
  private readonly attemptTimeoutMs: number;
  private readonly callerSignal: AbortSignalLike | undefined;
  private readonly closeSignal: AbortSignalLike | undefined;
  private readonly onCallerAbort = () => this.fire('caller', this.callerSignal!.reason);
  private readonly onClose = () => this.fire('closed', new Error('router closed'));
  private readonly onTimer = () => this.fire(this.timerIsDeadline ? 'deadline' : 'attempt_timeout', new Error(this.timerIsDeadline ? 'call deadline passed' : 'attempt timed out'));

  constructor({ clock, callerSignal, closeSignal, attemptTimeoutMs, deadlineInMs }: AttemptScopeOptions) {
    this.clock = clock;
    this.attemptTimeoutMs = attemptTimeoutMs;
    this.callerSignal = callerSignal;
    this.closeSignal = closeSignal;
    this.deadlineAt = deadlineInMs === undefined ? undefined : clock.now() + deadlineInMs;
    this.arm(attemptTimeoutMs);
    if (callerSignal) {
      if (callerSignal.aborted) this.onCallerAbort();
      else callerSignal.addEventListener('abort', this.onCallerAbort, { once: true });
    }
    if (closeSignal) {
      if (closeSignal.aborted) this.onClose();
      else closeSignal.addEventListener('abort', this.onClose, { once: true });
    }
  }

  get signal(): AbortSignal {
    return this.abort.signal;
  }

  private fire(why: AbortCause, reason: unknown): void {
    if (this.cause) return;
    this.cause = why;
    this.timer?.clear();
    this.abort.abort(reason);
  }

  private arm(ms: number): void {
    this.timer?.clear();
    const toDeadline = this.deadlineAt === undefined ? Infinity : this.deadlineAt - this.clock.now();
    this.timerIsDeadline = toDeadline <= ms;
    this.timer = this.clock.setTimer(Math.max(0, this.timerIsDeadline ? toDeadline : ms), this.onTimer);
  }

  commit(ms: number): void {
    this.idleMs = ms;
    if (!this.cause) this.arm(ms);
  }

  alive(): void {
    if (this.idleMs === undefined && !this.cause) this.arm(this.attemptTimeoutMs);
  }

  touch(): void {
    if (this.idleMs !== undefined && !this.cause) this.arm(this.idleMs);
  }

  pause(): void {
    if (this.idleMs !== undefined && !this.timerIsDeadline) this.timer?.clear();
  }

  release(): void {
    this.fire('released', new Error('released by its owner'));
  }

  dispose(): void {
    this.timer?.clear();
    this.callerSignal?.removeEventListener('abort', this.onCallerAbort);
    this.closeSignal?.removeEventListener('abort', this.onClose);
  }
}

export function attemptScope(options: AttemptScopeOptions): AttemptScope {
  return new Scope(options);
}
