import { nextStep } from '../../decide/next-step.js';
import { RouterError } from '../../errors.js';
import { targetEvent } from '../../observe/event-refs.js';
import { abortError } from './abort-error.js';
import { sleepUnless } from '../abort/sleep.js';
import type { AttemptContext, StepResult } from './attempt-context.js';
import type { AttemptValue } from './call-kind.js';
import type { AbortSignalLike } from '../../../providers/types.js';
import type { NextStepPolicy } from '../../decide/next-step.js';
import type { EventHub } from '../../observe/events.js';
import type { Logger } from '../../observe/logger.js';
import type { BlockStore } from '../../store/state-store.js';
import type { Clock } from '../../types.js';

/** What carrying out a decision reads: the table's settings and jitter, the waits, the blocks it sets, the log and events. */
export interface DecideDeps {
  readonly clock: Clock;
  readonly closing: AbortSignalLike;
  readonly random: () => number;
  readonly retryPolicy: NextStepPolicy;
  readonly config: { readonly retry: { readonly budgetMinRetries: number } };
  readonly store: Pick<BlockStore, 'setBlock'>;
  readonly logger: Logger;
  readonly events: EventHub;
}

/**
 * The last step: what happens after an attempt. A success ends the target. A failure goes to the
 * decision table (`nextStep`, pure, in src/decide) and its answer is carried out here: throw at once
 * (a caller's fault, an abort), wait and retry this target, or fall through, cooling the endpoint
 * until its rate limit resets or parking the whole provider after a quota error.
 */
export function decide<P, T extends AttemptValue>(a: AttemptContext<P, T, DecideDeps>): StepResult<T> | Promise<StepResult<T>> {
  // A success ends the target without a promise of its own: this is every call's path.
  if (!a.error) return { ok: true, value: a.value!, slot: a.kind.keepsAttempt ? a.slot : undefined };
  return afterFailure(a, a.error);
}

async function afterFailure<P, T extends AttemptValue>(a: AttemptContext<P, T, DecideDeps>, error: RouterError): Promise<StepResult<T>> {
  const { deps: rt, call, target } = a;
  if (a.cause === 'caller' || a.cause === 'deadline' || a.cause === 'closed') throw abortError(a.cause, call, target, error);

  const now = rt.clock.now();
  const step = nextStep({
    kind: error.kind, code: error.code, retryAfterMs: error.retryAfterMs, attempt: a.attempt,
    remainingMs: call.deadlineAtMs === undefined ? undefined : call.deadlineAtMs - now,
    // A last resort past an open circuit retries too, within the budget (half-open probes go on as before).
    maxAttempts: target.target.maxAttempts,
    retryBudget: target.retryWindow.allows(now, target.target.budgetPercent, rt.config.retry.budgetMinRetries),
    policy: rt.retryPolicy, random: rt.random,
  });
  if (step.action === 'throw') throw error.with({ attempts: call.attempts });

  const ref = { chain: call.chain, provider: target.target.provider, model: target.target.model };
  if (step.action === 'retry') {
    // Only server failures are budgeted: a 429's retry waits on the provider's own hint.
    if (step.breaker === 'failure') target.retryWindow.retried(now);
    rt.logger.debug({ callId: call.id, ...ref, attempt: a.attempt, kind: error.kind, status: error.status, code: error.code, delayMs: Math.round(step.delayMs) }, 'retrying the same target');
    if (rt.events.has('retry')) rt.events.emit('retry', targetEvent(call, target, { attempt: a.attempt, kind: error.kind, delayMs: step.delayMs, hintMs: error.retryAfterMs }));
    try {
      await sleepUnless(rt.clock, step.delayMs, call.signal, rt.closing);
    } catch (err) {
      const why = rt.closing.aborted ? 'router closed during a retry wait' : 'call aborted by the caller';
      throw new RouterError('aborted', why, { provider: ref.provider, model: ref.model, attempts: call.attempts, cause: err });
    }
    a.waitedMs = step.delayMs;
    return 'retry';
  }

  if (step.refused === 'retry_budget') {
    rt.logger.debug({ callId: call.id, ...ref, attempt: a.attempt, kind: error.kind, status: error.status, ...target.retryWindow.counts(now), budgetPercent: target.target.budgetPercent }, 'retry budget spent: not retrying the same target');
  }
  // Only a provider's answer cools an endpoint or parks a provider: an unsent request told it nothing.
  const order = a.sent ? step.block : undefined;
  if (order) {
    const key = order.scope === 'provider' ? target.parkedKey : a.endpoint.coolingKey;
    await rt.store.setBlock(key, { reason: order.reason, untilMs: now + order.forMs, cause: error.code ?? error.kind }, now);
    if (order.reason === 'parked') {
      rt.logger.error({ callId: call.id, ...ref, status: error.status, code: error.code, requestId: error.requestId, parkedForMs: order.forMs }, 'quota or billing error: provider parked, not retried');
      if (rt.events.has('quota')) rt.events.emit('quota', targetEvent(call, target, { code: error.code, status: error.status, parkedForMs: order.forMs, requestId: error.requestId }));
    }
  }
  return { ok: false, error: error.with({ attempts: call.attempts }), availableInMs: order?.forMs, ...(step.refused ? { retryBudgetSpent: true } : {}) };
}
