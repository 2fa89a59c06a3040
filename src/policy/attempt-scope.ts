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
export function attemptScope({ clock, callerSignal, closeSignal, attemptTimeoutMs, deadlineInMs }: AttemptScopeOptions): AttemptScope {
  const controller = new AbortController();
  const deadlineAt = deadlineInMs === undefined ? undefined : clock.now() + deadlineInMs;
  let cause: AbortCause | undefined;
  let timer: Timer | undefined;
  let idleMs: number | undefined;
  let timerIsDeadline = false;

  const fire = (why: AbortCause, reason: unknown) => {
    if (cause) return;
    cause = why;
    timer?.clear();
    controller.abort(reason);
  };
  const arm = (ms: number) => {
    timer?.clear();
    const toDeadline = deadlineAt === undefined ? Infinity : deadlineAt - clock.now();
    timerIsDeadline = toDeadline <= ms;
    timer = clock.setTimer(
      Math.max(0, timerIsDeadline ? toDeadline : ms),
      () => fire(timerIsDeadline ? 'deadline' : 'attempt_timeout', new Error(timerIsDeadline ? 'call deadline passed' : 'attempt timed out')),
    );
  };
  const onCallerAbort = () => fire('caller', callerSignal!.reason);
  const onClose = () => fire('closed', new Error('router closed'));

  arm(attemptTimeoutMs);
  if (callerSignal) {
    if (callerSignal.aborted) onCallerAbort();
    else callerSignal.addEventListener('abort', onCallerAbort, { once: true });
  }
  if (closeSignal) {
    if (closeSignal.aborted) onClose();
    else closeSignal.addEventListener('abort', onClose, { once: true });
  }

  return {
    signal: controller.signal,
    get cause() {
      return cause;
    },
    commit(ms) {
      idleMs = ms;
      if (!cause) arm(ms);
    },
    alive() {
      if (idleMs === undefined && !cause) arm(attemptTimeoutMs);
    },
    touch() {
      if (idleMs !== undefined && !cause) arm(idleMs);
    },
    pause() {
      if (idleMs !== undefined && !timerIsDeadline) timer?.clear();
    },
    release() {
      fire('released', new Error('released by its owner'));
    },
    dispose() {
      timer?.clear();
      callerSignal?.removeEventListener('abort', onCallerAbort);
      closeSignal?.removeEventListener('abort', onClose);
    },
  };
}
