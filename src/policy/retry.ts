import type { ProviderRequest } from '../../providers/types.js';
import type { Target } from '../config/index.js';
import { breakerVerdict } from '../decide/breaker-verdict.js';
import { nextStep } from '../decide/next-step.js';
import { RouterError, type ErrorKind } from '../errors.js';
import { isPromise } from '../maybe-promise.js';
import type { Call, Runtime } from '../runtime.js';
import type { RateLimitSnapshot, Usage } from '../types.js';
import type { Lease } from './admission.js';
import type { AbortCause } from './attempt-scope.js';
import { sendAttempt, type Execute } from './send-attempt.js';

export type { Execute } from './send-attempt.js';
import type { BreakerPermit } from './circuit-breaker.js';

/** Anything an attempt returns that the loop reads facts from. */
export interface AttemptValue {
  requestId?: string;
  rateLimit?: RateLimitSnapshot;
  /** What the provider billed, to reconcile the token estimate (a stream reports it at its end). */
  usage?: Usage;
}

/** How one kind of call runs its attempts. */
export interface ExecuteOptions {
  /** Bounds a target's attempts tighter than its provider's `timeoutMs` (a stream's `firstTokenTimeoutMs`). */
  attemptTimeoutMs?: (target: Target) => number | undefined;
  /** Why the attempt timer fired, for the error message ("no first token within ..."). */
  timeoutLabel?: string;
  /** The successful value owns the scope from then on (streams). */
  keepScope?: boolean;
  /** One attempt past an open breaker, as adaptive throttling allowed (set by the chain, never by callers). */
  lastResort?: boolean;
}

/** How a target ended when it did not answer: the call moves on, knowing when this target may accept again. */
export interface FallThrough {
  error: RouterError;
  /** Milliseconds until this target is known to accept again (cooling, parked, circuit open). */
  availableInMs?: number;
}

/** On success with `keepScope`, the caller owns the attempt's budget lease (the value holds its scope) and must settle it. */
export type TargetOutcome<T> = { ok: true; value: T; lease?: Lease } | ({ ok: false } & FallThrough);

/** Per-attempt timeout when a provider sets no `timeoutMs`. */
export const DEFAULT_ATTEMPT_TIMEOUT_MS = 60_000;

function abortError(cause: AbortCause, call: Call, target: Target, original: RouterError): RouterError {
  const where = { provider: target.provider, model: target.model, attempts: call.attempts, cause: original };
  if (cause === 'caller') return new RouterError('aborted', 'call aborted by the caller', where);
  if (cause === 'deadline') return new RouterError('timeout', `call deadline of ${call.request.timeoutMs} ms passed`, where);
  return original;
}

function providerRequest(call: Call, target: Target): ProviderRequest {
  const { request } = call;
  return {
    model: target.model,
    messages: request.messages,
    maxTokens: request.maxTokens ?? target.maxTokens,
    temperature: request.temperature ?? target.temperature,
  };
}

/**
 * The retry loop on one target: skip it without a request when it is cooling, parked or its circuit
 * is open; otherwise send, and on failure let `nextStep` decide between waiting and retrying here,
 * falling through (maybe keeping the target out of rotation), or throwing.
 */
export async function runTarget<T extends AttemptValue>(
  rt: Runtime, call: Call, target: Target, execute: Execute<T>, options: ExecuteOptions = {},
): Promise<TargetOutcome<T>> {
  const { clock, store, events, logger } = rt;
  const adapter = rt.adapters.get(target.provider)!;
  const breaker = rt.breakers.for(target);
  const throttle = rt.breakers.throttleFor(target);
  const providerKey = `provider:${target.provider}`;
  const targetKey = `target:${target.key}`;
  const providerTimeoutMs = rt.config.providers[target.provider]!.timeoutMs ?? DEFAULT_ATTEMPT_TIMEOUT_MS;
  const attemptTimeoutMs = Math.min(providerTimeoutMs, options.attemptTimeoutMs?.(target) ?? Infinity);
  const timeoutLabel = options.timeoutLabel ?? `attempt timed out after ${attemptTimeoutMs} ms`;
  const callerSignal = call.request.signal;
  const request = providerRequest(call, target);
  const ref = { chain: call.chain, provider: target.provider, model: target.model };

  const skip = (kind: ErrorKind, message: string, availableInMs: number | undefined, code?: string): TargetOutcome<T> => {
    call.attempts.push({ provider: target.provider, model: target.model, ok: false, kind, skipped: true, latencyMs: 0 });
    if (events.has('attempt')) events.emit('attempt', { ...ref, attempt: 0, ok: false, kind, skipped: true, latencyMs: 0, code });
    return { ok: false, error: new RouterError(kind, message, { ...ref, code, retryAfterMs: availableInMs }), availableInMs };
  };

  let waitedMs: number | undefined;
  for (let attempt = 1; ; attempt++) {
    const startedAtMs = clock.now();
    const parked = store.getBlock(providerKey, startedAtMs);
    const cooling = store.getBlock(targetKey, startedAtMs);
    // Awaited together: with Redis both are in flight, and a failure of one must not leave the other unhandled.
    const block = isPromise(parked) || isPromise(cooling)
      ? await Promise.all([parked, cooling]).then(([p, c]) => p ?? c)
      : parked ?? cooling;
    if (block) {
      const inMs = block.untilMs - startedAtMs;
      return block.reason === 'parked'
        ? skip('quota_exhausted', `${target.provider} is parked after a quota error`, inMs, block.cause)
        : skip('rate_limited', `${target.key} is cooling until its rate limit resets`, inMs, block.cause);
    }
    const lastResort = options.lastResort === true;
    if (!lastResort && !breaker.admits()) return skip('circuit_open', `circuit for ${breaker.key} is open`, breaker.reopensInMs());

    const admission = rt.admission.admit(call, target, request);
    const admitted = isPromise(admission) ? await admission : admission;
    if (!admitted.ok) {
      if (admitted.reason === 'aborted') throw abortError('caller', call, target, new RouterError('aborted', 'aborted', ref));
      if (admitted.reason === 'deadline') throw abortError('deadline', call, target, new RouterError('timeout', 'deadline', ref));
      const why = admitted.reason === 'too_large' ? 'the request is larger than its whole token budget' : `its ${admitted.reason} budget is full`;
      return skip('local_limit', `${target.key} skipped: ${why} (${admitted.budget})`, admitted.retryInMs, admitted.reason);
    }
    const lease = admitted.lease;

    const sendAtMs = clock.now();
    const deadlineInMs = call.deadlineAtMs === undefined ? undefined : call.deadlineAtMs - sendAtMs;
    // Nothing is sent for a call that is already over.
    if (callerSignal?.aborted || (deadlineInMs !== undefined && deadlineInMs <= 0)) {
      await lease.settle({ sent: false });
      if (callerSignal?.aborted) throw abortError('caller', call, target, new RouterError('aborted', 'aborted', ref));
      throw abortError('deadline', call, target, new RouterError('timeout', 'deadline', ref));
    }
    // A last-resort attempt takes no permit: the breaker keeps its own state and its own probe.
    const permit: BreakerPermit | undefined = lastResort ? 'bypass' : breaker.permit();
    if (!permit) {
      await lease.settle({ sent: false });
      return skip('circuit_open', `circuit for ${breaker.key} is open`, breaker.reopensInMs());
    }

    const { value, error, cause } = await sendAttempt(adapter, request, execute, {
      callerSignal, attemptTimeoutMs, deadlineInMs, keepScope: options.keepScope ?? false, timeoutLabel, where: { provider: target.provider, model: target.model },
    });
    const latencyMs = clock.now() - sendAtMs;
    throttle.record(!error || breakerVerdict(error.kind) !== 'failure', clock.now());
    const requestId = value?.requestId ?? error?.requestId;
    const rateLimit = value?.rateLimit ?? error?.rateLimit;
    const queuedMs = sendAtMs - startedAtMs;
    call.attempts.push({
      provider: target.provider, model: target.model, ok: !error, kind: error?.kind, status: error?.status,
      waitedMs: waitedMs !== undefined || queuedMs > 0 ? (waitedMs ?? 0) + queuedMs : undefined, latencyMs, requestId,
    });
    if (events.has('attempt')) {
      events.emit('attempt', { ...ref, attempt, ok: !error, kind: error?.kind, status: error?.status, code: error?.code, latencyMs, requestId });
    }
    if (rateLimit && events.has('ratelimit')) events.emit('ratelimit', { ...ref, ...rateLimit });

    if (!error) {
      breaker.record(permit, 'success');
      if (options.keepScope) return { ok: true, value: value!, lease };
      const released = lease.settle({ sent: true, usage: value!.usage, rateLimit });
      if (released) await released;
      return { ok: true, value: value! };
    }
    const released = lease.settle({ sent: true, rateLimit });
    if (released) await released;
    if (cause === 'caller' || cause === 'deadline') {
      breaker.record(permit, 'neutral');
      throw abortError(cause, call, target, error);
    }

    const step = nextStep({
      kind: error.kind, code: error.code, retryAfterMs: error.retryAfterMs, attempt,
      remainingMs: call.deadlineAtMs === undefined ? undefined : call.deadlineAtMs - clock.now(),
      maxAttempts: lastResort ? 1 : target.maxAttempts,
      policy: { ...rt.config.retry, parkMs: rt.config.quota.parkMs }, random: rt.random,
    });
    breaker.record(permit, step.breaker === 'failure' ? 'failure' : 'neutral');

    if (step.action === 'throw') throw error.with({ attempts: call.attempts });

    if (step.action === 'retry') {
      logger.debug({ ...ref, attempt, kind: error.kind, status: error.status, code: error.code, delayMs: Math.round(step.delayMs) }, 'retrying the same target');
      if (events.has('retry')) events.emit('retry', { ...ref, attempt, kind: error.kind, delayMs: step.delayMs, hintMs: error.retryAfterMs });
      try {
        await clock.sleep(step.delayMs, callerSignal);
      } catch (err) {
        throw new RouterError('aborted', 'call aborted by the caller', { ...ref, attempts: call.attempts, cause: err });
      }
      waitedMs = step.delayMs;
      continue;
    }

    const order = step.block;
    if (order) {
      const key = order.scope === 'provider' ? providerKey : targetKey;
      await store.setBlock(key, { reason: order.reason, untilMs: clock.now() + order.forMs, cause: error.code ?? error.kind }, clock.now());
      if (order.reason === 'parked') {
        logger.error({ ...ref, status: error.status, code: error.code, requestId, parkedForMs: order.forMs }, 'quota or billing error: provider parked, not retried');
        if (events.has('quota')) events.emit('quota', { ...ref, code: error.code, status: error.status, parkedForMs: order.forMs, requestId });
      }
    }
    return { ok: false, error: error.with({ attempts: call.attempts }), availableInMs: order?.forMs };
  }
}
