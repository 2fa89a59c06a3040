import { isPromise } from '../../store/maybe-promise.js';
import type { Call } from '../state/call.js';
import { admit, type AdmitDeps } from './admit.js';
import type { AttemptContext, Step, StepResult, TargetOutcome } from './attempt-context.js';
import type { AttemptValue, CallKind } from './call-kind.js';
import { decide, type DecideDeps } from './decide.js';
import { gate, type GateDeps } from './gate.js';
import { notSentError } from './not-sent.js';
import { recordOutcome, recordSkip, type RecordDeps } from './record-outcome.js';
import { sendAttempt, type SendDeps } from './send-attempt.js';
import { reserveSpend, type SpendDeps } from './reserve-spend.js';
import type { TargetRuntime } from '../state/target-runtime.js';

/**
 * The per-target pipeline, in order: gate (parked, cooling, open circuit) → admit (budgets, then a
 * breaker pass) → spend (USD budgets) → send → record (breaker, throttle, attempts, events, budget) → decide (the decision
 * table: done, retry here, fall through, or throw). Each step is a file of its own with this one
 * shape; a step that ends the target (a skip, a result) or asks for a retry stops the pass.
 */
const STEPS: readonly Step<TargetDeps>[] = [gate, admit, reserveSpend, sendAttempt, recordOutcome, decide];

/**
 * What one target's run reads of the router: what each of its steps reads, and nothing else. The
 * router's Runtime is one such object, built once; no step sees more than its own interface names.
 */
export type TargetDeps = GateDeps & AdmitDeps & SpendDeps & SendDeps & RecordDeps & DecideDeps;

/** Requests this call already sent to the target: a last resort past its open circuit goes on counting from there. */
function sentTo(call: Call, target: TargetRuntime): number {
  let n = 0;
  for (const x of call.attempts) if (!x.skipped && x.provider === target.target.provider && x.model === target.target.model) n++;
  return n;
}

/** Runs one target of a call until it answers, falls through, or throws. */
export async function runTarget<P, T extends AttemptValue>(
  rt: TargetDeps, call: Call, target: TargetRuntime, kind: CallKind<P, T>, lastResort = false, waitsOutCooling = false,
): Promise<TargetOutcome<T>> {
  let payload: P;
  try {
    payload = kind.payload(call, target); // schemas converted to JSON Schema here
  } catch (err) {
    const error = notSentError(err, 'build', call, target, kind.unsendableParam, rt.redact);
    recordSkip(rt, call, target, { kind: error.kind, message: error.message });
    throw error;
  }
  const a: AttemptContext<P, T, TargetDeps> = {
    deps: rt, call, target, kind, lastResort, waitsOutCooling, payload,
    endpoint: kind.endpoint(target),
    attemptTimeoutMs: Math.min(target.attemptTimeoutMs, kind.attemptTimeoutMs(call, target)),
    attempt: lastResort ? 1 + sentTo(call, target) : 1, startedAtMs: 0, sentAtMs: 0, sent: false,
  };
  for (;;) {
    a.startedAtMs = rt.clock.now();
    let result: StepResult<T>;
    for (const step of STEPS) {
      const r = step(a);
      result = isPromise(r) ? await r : r;
      if (result !== undefined) break;
    }
    if (result! !== 'retry') return result!;
    a.attempt++;
    a.slot = undefined;
    a.sent = false;
  }
}
