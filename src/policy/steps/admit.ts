import { RouterError } from '../../errors.js';
import { isPromise, type MaybePromise } from '../../store/maybe-promise.js';
import { abortError } from './abort-error.js';
import type { AbortSignalLike } from '../../../providers/types.js';
import type { Admission, Admitted, Refused } from '../admission/admission.js';
import type { AttemptContext, StepResult } from './attempt-context.js';
import { AttemptSlot } from './attempt-slot.js';
import type { AttemptValue } from './call-kind.js';
import { notSentError } from './not-sent.js';
import { recordSkip, type SkipDeps } from './record-outcome.js';
import type { TargetRuntime } from '../state/target-runtime.js';

/** What admission reads: the budgets' queue, whether the router closes, and the redaction of an error that names a key. */
export interface AdmitDeps extends SkipDeps {
  readonly admission: Pick<Admission, 'admit'>;
  readonly closing: AbortSignalLike;
  readonly redact: (text: string) => string;
}

/**
 * The second step: room in the budgets (the tenant's, then the target endpoint's), waiting in the
 * fair queue if it comes back soon enough; then, with room taken, a pass from the breaker. A call
 * whose caller aborted or whose deadline passed meanwhile sends nothing.
 */
export function admit<P, T extends AttemptValue>(a: AttemptContext<P, T, AdmitDeps>): MaybePromise<StepResult<T>> {
  if (!a.tokens) {
    try {
      a.tokens = a.kind.estimateTokens(a.call, a.target, a.payload);
    } catch (err) {
      const error = notSentError(err, 'estimate', a.call, a.target, a.kind.unsendableParam, a.deps.redact);
      recordSkip(a.deps, a.call, a.target, { kind: error.kind, message: error.message });
      throw error;
    }
  }
  const admitted = a.deps.admission.admit({ call: a.call, target: a.target, budget: a.endpoint.budget, tokens: a.tokens, leaseTtlMs: a.kind.leaseTtlMs(a.target) });
  return isPromise(admitted) ? admitted.then((r) => afterAdmission(a, r)) : afterAdmission(a, admitted);
}

/** The facts an abort names, made only when one happens (not an object per attempt). */
function whereOf(target: TargetRuntime): { provider: string; model: string } {
  return { provider: target.target.provider, model: target.target.model };
}

function afterAdmission<P, T extends AttemptValue>(a: AttemptContext<P, T, AdmitDeps>, admitted: Admitted | Refused): MaybePromise<StepResult<T>> {
  const { deps: rt, call, target } = a;
  if (!admitted.ok) {
    if (admitted.budget === a.endpoint.budget.key) a.endpoint.load.level?.refused(admitted.reason, rt.clock.now());
    if (admitted.reason === 'aborted') throw abortError(rt.closing.aborted && !call.signal?.aborted ? 'closed' : 'caller', call, target, new RouterError('aborted', 'aborted', whereOf(target)));
    if (admitted.reason === 'deadline') throw abortError('deadline', call, target, new RouterError('timeout', 'deadline', whereOf(target)));
    const why = admitted.reason === 'too_large' ? 'the request is larger than its whole token budget' : `its ${admitted.reason} budget is full`;
    return recordSkip(rt, call, target, { kind: 'local_limit', message: `${target.target.key} skipped: ${why} (${admitted.budget})`, availableInMs: admitted.retryInMs, code: admitted.reason });
  }
  // From here the attempt's lease, in-flight count and (below) breaker pass have one owner.
  const slot = new AttemptSlot(admitted.lease, target, a.endpoint.load, call);
  a.sentAtMs = rt.clock.now();
  // Nothing is sent for a call that is already over.
  const over = call.signal?.aborted ? 'caller' : call.deadlineAtMs !== undefined && call.deadlineAtMs <= a.sentAtMs ? 'deadline' : undefined;
  if (over) {
    const released = slot.end({ sent: false });
    const error = abortError(over, call, target, new RouterError(over === 'caller' ? 'aborted' : 'timeout', over, whereOf(target)));
    if (released) return released.then(() => { throw error; });
    throw error;
  }
  // A last-resort attempt takes no permit: the breaker keeps its own state and its own probe.
  const permit = a.lastResort ? 'bypass' : target.breaker.permit();
  if (!permit) {
    // The half-open probe went to another call while this one queued.
    const released = slot.end({ sent: false });
    const skip = () => recordSkip<T>(rt, call, target, { kind: 'circuit_open', message: `circuit for ${target.breaker.key} is open`, availableInMs: target.breaker.reopensInMs() });
    return released ? released.then(skip) : skip();
  }
  slot.hold(permit);
  a.slot = slot;
  slot.took(a.tokens!, a.sentAtMs);
  return undefined;
}
