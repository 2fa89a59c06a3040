import { RouterError } from '../../errors.js';
import { redactErrorChain } from '../../observe/redact.js';
import type { AttemptContext, StepResult } from './attempt-context.js';
import { attemptScope } from '../abort/attempt-scope.js';
import { notSentError } from './not-sent.js';
import { SendHandle } from './send-handle.js';
import type { AttemptValue } from './call-kind.js';
import type { AbortSignalLike } from '../../../providers/types.js';
import type { Clock } from '../../types.js';
import type { StallGuard } from '../abort/stall-guard.js';

/** What sending reads: the clock (and whether it is the wall clock), the router's close, the stall guard, the redaction. */
export interface SendDeps {
  readonly clock: Clock;
  readonly closing: AbortSignalLike;
  readonly stallGuard: Pick<StallGuard, 'guard'>;
  readonly redact: (text: string) => string;
}

/**
 * The light path is only taken where the adapter's timeout covers the body, but a stall guard this
 * much later stays as a backstop, so a call can never outlive its timeout by more than this.
 */
const BODY_GRACE_MS = 1_000;

/**
 * The third step: sends one attempt and notes how it ended (`value`, or `error` and why it was cut
 * short); never throws. A stream, a call with a caller's signal, or any call on an injected clock
 * runs under a scope (one AbortController, one timer on the router's clock), and so does any call
 * to an adapter whose timeout does not cover the body; a plain call on the wall clock to one whose
 * timeout does hands it to the SDK and spares both.
 */
export async function sendAttempt<P, T extends AttemptValue>(a: AttemptContext<P, T, SendDeps>): Promise<StepResult<T>> {
  const { deps: rt, call, target, kind } = a;
  const deadlineInMs = call.deadlineAtMs === undefined ? undefined : call.deadlineAtMs - a.sentAtMs;
  const byDeadline = deadlineInMs !== undefined && deadlineInMs <= a.attemptTimeoutMs;
  const timeoutMs = byDeadline ? Math.max(1, deadlineInMs!) : a.attemptTimeoutMs;
  // A call with a deadline needs our own timer too: the SDK's covers connect and headers only, so a
  // body that trickles in after them would overrun the deadline and keep its socket open.
  // So does an adapter whose own timeout does not cover the body (the SDK's fetch).
  const scope = kind.keepsAttempt || call.signal || deadlineInMs !== undefined || !rt.clock.isWallClock || !target.adapter.traits.timeoutCoversBody
    ? attemptScope({ clock: rt.clock, callerSignal: call.signal, closeSignal: rt.closing, attemptTimeoutMs: a.attemptTimeoutMs, deadlineInMs })
    : undefined;
  a.value = undefined;
  a.error = undefined;
  a.cause = undefined;
  a.sent = false;
  // A latency pool's member counts this request as awaiting its answer (a stream: its first token) until it ends, however.
  const awaiting = a.endpoint.latency?.of(kind.name === 'stream');
  awaiting?.sent(a.sentAtMs);
  try {
    const handle = scope ? new SendHandle(a, undefined, scope) : new SendHandle(a, timeoutMs, undefined);
    const pending = kind.send(target.adapter, a.payload, handle, call);
    const value = await (scope ? pending : rt.stallGuard.guard(pending, timeoutMs + BODY_GRACE_MS, target.target));
    a.sent = true; // an answer came, so the request went
    a.value = kind.accept ? kind.accept(value, call, target) : value;
    if (!kind.keepsAttempt) scope?.dispose();
  } catch (err) {
    scope?.dispose();
    // Whatever an SDK kept of the upstream's words (an echoed key) is hidden before anyone sees it.
    redactErrorChain(err, rt.redact);
    const where = { provider: target.target.provider, model: target.target.model };
    let error = err instanceof RouterError ? err : new RouterError('transport', rt.redact(String(err)), Object.assign({}, where, { cause: err }));
    let cause = scope?.cause;
    // Nothing left the process (mapping, serialising): the request's fault, whatever the SDK called it.
    if (!a.sent && cause === undefined) error = notSentError(err, 'send', call, target, kind.unsendableParam, rt.redact);
    if (!scope && error.kind === 'timeout') cause = byDeadline ? 'deadline' : 'attempt_timeout';
    if (cause === 'attempt_timeout') error = new RouterError('timeout', `${where.provider}:${where.model}: ${kind.timeoutLabel(a.attemptTimeoutMs)}`, Object.assign({}, where, { cause: error }));
    a.error = error;
    a.cause = cause;
  } finally {
    awaiting?.answered(a.sentAtMs);
  }
  return undefined;
}
