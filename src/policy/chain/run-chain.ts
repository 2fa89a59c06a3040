import type { RouterError } from '../../errors.js';
import { targetEvent } from '../../observe/event-refs.js';
import type { Call } from '../state/call.js';
import { waitVerdict, type WaitCandidate } from '../../decide/wait-verdict.js';
import type { AttemptSlot } from '../steps/attempt-slot.js';
import type { AttemptValue, CallKind } from '../steps/call-kind.js';
import { ChainError } from './chain-error.js';
import { OUTLIER_EJECTED } from '../outlier/outlier-pool.js';
import { runTarget, type TargetDeps } from '../steps/run-target.js';
import type { TargetRuntime } from '../state/target-runtime.js';

function describe(availableInMs: number | undefined): string {
  return availableInMs === undefined ? '' : ` (back in ${(availableInMs / 1000).toFixed(1)} s)`;
}

/** What walking a chain reads: what its targets' runs read, the log, jitter, and whether a last resort is allowed. */
export type ChainDeps = TargetDeps & { readonly config: { readonly breaker: { readonly lastResort: boolean } } };

/** The target that answered, and on `keepsAttempt` the slot its value holds (the caller ends it). */
export interface ChainAnswer<T> {
  value: T;
  target: TargetRuntime;
  slot?: AttemptSlot;
}

/**
 * Walks a chain in order: the first target that answers wins; a target that fails for capacity
 * reasons hands over to the next; anything else is thrown by the target's pipeline as it is. When
 * every target left is cooling for a known time, the call waits for the soonest (`waitVerdict`) when
 * its queue limit and deadline allow. When every target is used up the call throws `exhausted`, with `retryAfterMs` = the soonest a target is
 * known to accept; when every target refused the request as `unsupported`, it throws `unsupported`
 * naming each target's reason. Both are a `ChainError`, its `failures` the per-target reasons.
 */
export async function runChain<P, T extends AttemptValue>(rt: ChainDeps, call: Call, kind: CallKind<P, T>): Promise<ChainAnswer<T>> {
  const targets = call.targets;
  let failures: string[] | undefined; // made only when a target fails
  let soonestMs: number | undefined;
  let last: RouterError | undefined;
  let opened: TargetRuntime | undefined;
  let refusals: string[] | undefined; // why each target refused the request as unsupported
  let allRefused = true;
  let blocked: WaitCandidate[] | undefined; // targets cooling for a known time, which the call may wait out

  for (let i = 0; i < targets.length; i++) {
    const target = targets[i]!;
    const outcome = await runTarget(rt, call, target, kind);
    if (outcome.ok) return { value: outcome.value, target, slot: outcome.slot };
    // An ejected outlier is no last resort: the pool's members in service were the ones to try.
    if (outcome.error.kind === 'circuit_open' && outcome.error.code !== OUTLIER_EJECTED) opened ??= target;

    last = outcome.error;
    if (outcome.error.kind !== 'unsupported') allRefused = false;
    else if (allRefused) (refusals ??= []).push(`${target.target.key}: ${outcome.error.message}`);
    if (outcome.availableInMs !== undefined) soonestMs = Math.min(soonestMs ?? Infinity, Math.max(0, outcome.availableInMs));
    if (outcome.error.kind === 'rate_limited' && outcome.availableInMs !== undefined) {
      (blocked ??= []).push({ index: i, availableInMs: outcome.availableInMs, maxQueueMs: target.maxQueueMs });
    }
    const spent = outcome.retryBudgetSpent ? ` (retry budget of ${target.target.budgetPercent}% spent)` : '';
    (failures ??= []).push(`${target.target.key} ${outcome.error.kind}${outcome.error.status ? ` ${outcome.error.status}` : ''}${describe(outcome.availableInMs)}${spent}`);
    const next = targets[i + 1]?.target;
    const ref = { chain: call.chain, provider: target.target.provider, model: target.target.model };
    rt.logger.info({ callId: call.id, ...ref, kind: outcome.error.kind, status: outcome.error.status, code: outcome.error.code, to: next?.key }, next ? 'falling through to the next target' : 'last target of the chain failed');
    if (rt.events.has('fallback')) {
      rt.events.emit('fallback', targetEvent(call, target, { kind: outcome.error.kind, to: next && { provider: next.provider, model: next.model }, coolingMs: outcome.availableInMs }));
    }
  }

  // No target could carry the request at all (a file type no adapter takes): no capacity will fix that.
  if (allRefused && refusals) {
    throw new ChainError('unsupported', call.chain, refusals, { attempts: call.attempts, cause: last });
  }

  // Every target left is cooling: the soonest back within the call's queue limit and deadline is
  // waited for in its budget's fair queue (the call keeps its tenant share and its place in line).
  let tooLong = '';
  if (blocked) {
    const verdict = waitVerdict(blocked, call.deadlineAtMs === undefined ? undefined : call.deadlineAtMs - rt.clock.now());
    if (verdict.wait) {
      const target = targets[verdict.index]!;
      rt.logger.debug({ callId: call.id, chain: call.chain, provider: target.target.provider, model: target.target.model, waitMs: verdict.forMs }, 'waiting for a cooling target');
      const outcome = await runTarget(rt, call, target, kind, false, true);
      if (outcome.ok) return { value: outcome.value, target, slot: outcome.slot };
      last = outcome.error;
      (failures ??= []).push(`${target.target.key} ${outcome.error.kind}${outcome.error.status ? ` ${outcome.error.status}` : ''}${describe(outcome.availableInMs)} (after waiting)`);
    } else {
      const limitMs = Math.max(...blocked.map((b) => b.maxQueueMs));
      tooLong = ` (no wait fits: the queue limit is ${(limitMs / 1000).toFixed(1)} s${call.deadlineAtMs === undefined ? '' : ', within the deadline'})`;
    }
  }

  // Nothing is left but a target behind an open breaker: rather than fail for certain, try it once if
  // adaptive throttling of its recent failures allows (a provider failing half its calls still answers half).
  if (opened && rt.config.breaker.lastResort && opened.throttle.allows(rt.random, rt.clock.now())) {
    rt.logger.debug({ chain: call.chain, provider: opened.target.provider, model: opened.target.model }, 'last resort past an open circuit');
    const outcome = await runTarget(rt, call, opened, kind, true);
    if (outcome.ok) return { value: outcome.value, target: opened, slot: outcome.slot };
    last = outcome.error;
    const spent = outcome.retryBudgetSpent ? `, retry budget of ${opened.target.budgetPercent}% spent` : '';
    (failures ??= []).push(`${opened.target.key} ${outcome.error.kind}${outcome.error.status ? ` ${outcome.error.status}` : ''} (last resort${spent})`);
  }

  throw new ChainError('exhausted', call.chain, failures ?? [], {
    attempts: call.attempts, retryAfterMs: soonestMs, cause: last, code: last?.kind,
  }, tooLong);
}
