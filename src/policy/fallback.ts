import { RouterError } from '../errors.js';
import type { Call, Runtime } from '../runtime.js';
import type { Target } from '../config/index.js';
import type { Lease } from './admission.js';
import { runTarget, type AttemptValue, type Execute, type ExecuteOptions } from './retry.js';

function describe(availableInMs: number | undefined): string {
  return availableInMs === undefined ? '' : ` (back in ${(availableInMs / 1000).toFixed(1)} s)`;
}

/**
 * Walks a chain in order: the first target that answers wins; a target that fails for capacity
 * reasons hands over to the next; anything else is thrown by `runTarget` as it is. When every target
 * is used up the call throws `exhausted`, with `retryAfterMs` = the soonest a target is known to accept.
 */
export async function runChain<T extends AttemptValue>(
  rt: Runtime, call: Call, execute: Execute<T>, options: ExecuteOptions = {},
): Promise<{ value: T; target: Target; lease?: Lease }> {
  const targets = rt.config.chains[call.chain]!;
  const failures: string[] = [];
  let soonestMs: number | undefined;
  let last: RouterError | undefined;

  let opened: Target | undefined;
  for (let i = 0; i < targets.length; i++) {
    const target = targets[i]!;
    const outcome = await runTarget(rt, call, target, execute, options);
    if (outcome.ok) return { value: outcome.value, target, lease: outcome.lease };
    if (outcome.error.kind === 'circuit_open') opened ??= target;

    last = outcome.error;
    if (outcome.availableInMs !== undefined) soonestMs = Math.min(soonestMs ?? Infinity, Math.max(0, outcome.availableInMs));
    failures.push(`${target.key} ${outcome.error.kind}${outcome.error.status ? ` ${outcome.error.status}` : ''}${describe(outcome.availableInMs)}`);
    const next = targets[i + 1];
    const ref = { chain: call.chain, provider: target.provider, model: target.model };
    rt.logger.info({ ...ref, kind: outcome.error.kind, status: outcome.error.status, code: outcome.error.code, to: next?.key }, next ? 'falling through to the next target' : 'last target of the chain failed');
    if (rt.events.has('fallback')) {
      rt.events.emit('fallback', { ...ref, kind: outcome.error.kind, to: next && { provider: next.provider, model: next.model }, coolingMs: outcome.availableInMs });
    }
  }

  // Nothing is left but a target behind an open breaker: rather than fail for certain, try it once if
  // adaptive throttling of its recent failures allows (a provider failing half its calls still answers half).
  if (opened && rt.config.breaker.lastResort && rt.breakers.throttleFor(opened).allows(rt.random, rt.clock.now())) {
    rt.logger.debug({ chain: call.chain, provider: opened.provider, model: opened.model }, 'last resort past an open circuit');
    const outcome = await runTarget(rt, call, opened, execute, { ...options, lastResort: true });
    if (outcome.ok) return { value: outcome.value, target: opened, lease: outcome.lease };
    last = outcome.error;
    failures.push(`${opened.key} ${outcome.error.kind}${outcome.error.status ? ` ${outcome.error.status}` : ''} (last resort)`);
  }

  throw new RouterError('exhausted', `every target of chain "${call.chain}" failed or was skipped: ${failures.join('; ')}`, {
    attempts: call.attempts, retryAfterMs: soonestMs, cause: last, code: last?.kind,
  });
}
