/** Why an attempt's signal fired: the caller aborted, the call's deadline passed, or the attempt ran too long. */
export type AbortCause = 'caller' | 'deadline' | 'attempt_timeout';

/** The signal one attempt runs under, and why it fired. `dispose()` clears its timer and listener. */
export interface AttemptScope {
  readonly signal: AbortSignal;
  readonly cause: AbortCause | undefined;
  dispose(): void;
}

/**
 * One AbortController per attempt, fired by whichever comes first: the caller's signal, the call's
 * deadline, or the attempt timeout. One cleared timer and one removed listener: nothing outlives
 * the attempt (an `AbortSignal.timeout` per request would keep its timer alive until it fires).
 */
export function attemptScope(opts: { callerSignal?: AbortSignal; attemptTimeoutMs: number; deadlineInMs?: number }): AttemptScope {
  const controller = new AbortController();
  let cause: AbortCause | undefined;
  const fire = (why: AbortCause, reason: unknown) => {
    if (cause) return;
    cause = why;
    controller.abort(reason);
  };
  const { callerSignal, attemptTimeoutMs, deadlineInMs } = opts;
  const byDeadline = deadlineInMs !== undefined && deadlineInMs <= attemptTimeoutMs;
  const timer = setTimeout(
    () => fire(byDeadline ? 'deadline' : 'attempt_timeout', new Error(byDeadline ? 'call deadline passed' : 'attempt timed out')),
    byDeadline ? Math.max(0, deadlineInMs) : attemptTimeoutMs,
  );
  const onCallerAbort = () => fire('caller', callerSignal!.reason);
  if (callerSignal) {
    if (callerSignal.aborted) onCallerAbort();
    else callerSignal.addEventListener('abort', onCallerAbort, { once: true });
  }
  return {
    signal: controller.signal,
    get cause() {
      return cause;
    },
    dispose() {
      clearTimeout(timer);
      callerSignal?.removeEventListener('abort', onCallerAbort);
    },
  };
}
