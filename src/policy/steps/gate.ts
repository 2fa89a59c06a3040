import { missing } from '../state/capabilities.js';
import { RouterError } from '../../errors.js';
import { isPromise, type MaybePromise } from '../../store/maybe-promise.js';
import type { AbortSignalLike } from '../../../providers/types.js';
import type { Block, BlockStore } from '../../store/state-store.js';
import type { Admission } from '../admission/admission.js';
import type { AttemptContext, StepResult } from './attempt-context.js';
import type { AttemptValue } from './call-kind.js';
import { recordSkip, type Skip, type SkipDeps } from './record-outcome.js';
import { OUTLIER_EJECTED } from '../outlier/outlier-pool.js';

/** What the gate reads: whether the router closes, the blocks (parked, cooling), and admission's hold for a target waited out. */
export interface GateDeps extends SkipDeps {
  readonly closing: AbortSignalLike;
  readonly store: Pick<BlockStore, 'getBlock'>;
  readonly admission: Pick<Admission, 'hold'>;
}

function blockSkip(a: AttemptContext<unknown, AttemptValue, GateDeps>, block: Block): Skip {
  const { target } = a.target;
  const availableInMs = block.untilMs - a.startedAtMs;
  return block.reason === 'parked'
    ? { kind: 'quota_exhausted', message: `${target.provider} is parked after a quota error`, availableInMs, code: block.cause }
    : { kind: 'rate_limited', message: `${target.key} is cooling until its rate limit resets`, availableInMs, code: block.cause };
}

/**
 * The first step: is the target open for an attempt at all? A target that cannot carry the request
 * (a capability it lacks), a parked provider (quota), a cooling endpoint (rate limit), an open
 * circuit or a pool member ejected as an outlier skips it without a request, and the call moves on;
 * but a cooling endpoint the chain chose to wait for (`waitsOutCooling`) holds its budget until the
 * cooling ends, and the call queues there.
 */
export function gate<P, T extends AttemptValue>(a: AttemptContext<P, T, GateDeps>): MaybePromise<StepResult<T>> {
  const { deps: rt, target } = a;
  // After close() no new attempt starts: no retry, no fall-through.
  if (rt.closing.aborted) throw new RouterError('aborted', 'router closed: no further attempt is made', { provider: target.target.provider, model: target.target.model, attempts: a.call.attempts });
  if (a.call.needs.length > 0) {
    const lacks = missing(a.call.needs, target.capabilities);
    if (lacks.length > 0) return recordSkip(rt, a.call, target, { kind: 'unsupported', message: `${target.target.key} cannot carry this request: it lacks ${lacks.join(', ')}` });
  }
  const parked = rt.store.getBlock(target.parkedKey, a.startedAtMs);
  const cooling = rt.store.getBlock(a.endpoint.coolingKey, a.startedAtMs);
  // Awaited together: with Redis both are in flight, and a failure of one must not leave the other unhandled.
  if (isPromise(parked) || isPromise(cooling)) return Promise.all([parked, cooling]).then(([p, c]) => openOrSkip(a, p ?? c));
  return openOrSkip(a, parked ?? cooling);
}

function openOrSkip<P, T extends AttemptValue>(a: AttemptContext<P, T, GateDeps>, block: Block | undefined): StepResult<T> {
  const { deps: rt, call, target } = a;
  if (block && block.reason === 'cooling' && a.waitsOutCooling) {
    // The chain chose to wait for this target: the call queues in its budget until the cooling ends.
    rt.admission.hold(a.endpoint.budget.key, block.untilMs);
  } else if (block) return recordSkip(rt, call, target, blockSkip(a as AttemptContext<unknown, AttemptValue, GateDeps>, block));
  if (!a.lastResort && !target.breaker.admits()) {
    return recordSkip(rt, call, target, { kind: 'circuit_open', message: `circuit for ${target.breaker.key} is open`, availableInMs: target.breaker.reopensInMs() });
  }
  // A pool member ejected as an outlier is passed over like a cooling one, last resort or not (its pool's others serve).
  const outlier = target.outlier;
  if (outlier !== undefined && !outlier.admits(a.startedAtMs)) {
    return recordSkip(rt, call, target, { kind: 'circuit_open', code: OUTLIER_EJECTED, message: `${target.target.key} is ejected from its pool as an outlier`, availableInMs: outlier.returnsInMs(a.startedAtMs) });
  }
  return undefined;
}
