import { AbortLink } from '../abort/abort-link.js';
import type { HedgePolicy } from '../../config/resolve-config.js';
import { hedgeDelayMs } from '../../decide/hedge-delay.js';
import { RouterError } from '../../errors.js';
import type { Call } from '../state/call.js';
import type { Timer } from '../../types.js';
import type { AttemptValue, CallKind } from '../steps/call-kind.js';
import { ChainError } from './chain-error.js';
import { runChain, type ChainAnswer, type ChainDeps } from './run-chain.js';
import type { ActiveCalls } from '../state/active-calls.js';
import type { Hedging } from './hedge-book.js';

/** What a hedged call reads: what its chain reads, the hedged chains' books, and the calls in flight (a lost branch is one until it ends). */
export interface HedgeDeps extends ChainDeps {
  readonly hedging: Hedging;
  readonly active: ActiveCalls;
}

/**
 * Hedged requests (a chain's `hedge`). The chain's first step runs alone as branch one; the rest of
 * the chain is branch two, started when branch one fails the way that falls through (as without
 * hedging), or when the hedge delay passes with no answer and the chain's hedge budget allows one
 * more. The first answer wins; the other branch is aborted (its budget slots and token reservation
 * go back the way a caller's abort gives them back) and a stream that opened too late is closed. A
 * stream's branch answers at its first visible token, so streams hedge only before their commit.
 * An error that does not fall through (a 400, a 401) from branch one ends the call at once.
 *
 * Attempts of branch two carry `hedge: true` when it was started as a hedge; the result and the
 * `call` event say `hedged: true`; a `hedge` event tells when a hedge was sent and why.
 */

type Settled<T> = { ok: true; answer: ChainAnswer<T> } | { ok: false; error: unknown };

interface Branch<T> {
  controller: AbortLink;
  settled: Promise<Settled<T>>;
  done: boolean;
}

/** Errors after which the chain moves on to its next step (a capacity failure, a refusal). */
const movesOn = (err: unknown) => err instanceof RouterError && (err.kind === 'exhausted' || err.kind === 'unsupported');

/** The `exhausted` / `unsupported` of both branches as one error, as a walk of the whole chain would have thrown. */
function combined(call: Call, first: RouterError, second: RouterError): ChainError {
  const failures = (e: RouterError) => (e instanceof ChainError ? e.failures : [`${e.kind}${e.status ? ` ${e.status}` : ''}`]);
  const kind = first.kind === 'unsupported' && second.kind === 'unsupported' ? 'unsupported' : 'exhausted';
  const soonest = [first.retryAfterMs, second.retryAfterMs].filter((ms): ms is number => ms !== undefined);
  return new ChainError(kind, call.chain, [...failures(first), ...failures(second)], {
    attempts: call.attempts, cause: second.cause ?? second, code: second.code,
    ...(soonest.length > 0 ? { retryAfterMs: Math.min(...soonest) } : {}),
  });
}

/**
 * Runs a call down its chain, hedged when its chain says so and it has a step to hedge to;
 * `hedged` reports whether a hedge was sent.
 */
export function runHedged<P, T extends AttemptValue>(rt: HedgeDeps, call: Call, kind: CallKind<P, T>): Promise<ChainAnswer<T> & { hedged?: boolean }> {
  const policy = rt.hedging.policy(call.chain);
  // Not async: an unhedged call (every call by default) gets the chain's own promise, not a wrapper around it.
  if (!policy || call.targets.length < 2) return runChain(rt, call, kind);
  return runHedgedChain(rt, call, kind, policy);
}

async function runHedgedChain<P, T extends AttemptValue>(rt: HedgeDeps, call: Call, kind: CallKind<P, T>, policy: HedgePolicy): Promise<ChainAnswer<T> & { hedged?: boolean }> {
  const targets = call.targets;
  const book = rt.hedging.book(call.chain);
  const firstKey = targets[0]!.target.key;
  const startedAt = rt.clock.now();
  book.countCall(startedAt);
  const delay = hedgeDelayMs(policy, book.samples(firstKey));

  const start = (slice: typeof targets, hedge: boolean): Branch<T> => {
    // The branch's abort: its own (a lost race), or the caller's, until the branch settles.
    const controller = new AbortLink();
    const parent = call.signal;
    const onCallerAbort = () => controller.abort(parent!.reason);
    if (parent?.aborted) onCallerAbort();
    else parent?.addEventListener('abort', onCallerAbort, { once: true });
    // Object.assign, not a spread that goes on (a hidden class per call on Node 20: src/observe/event-refs.ts).
    const branchCall: Call = Object.assign({}, call, { targets: slice, signal: controller });
    if (hedge) branchCall.hedge = true;
    const branch: Branch<T> = {
      controller, done: false,
      settled: runChain(rt, branchCall, kind).then(
        (answer): Settled<T> => ({ ok: true, answer }),
        (error: unknown): Settled<T> => ({ ok: false, error }),
      ),
    };
    void branch.settled.then((s) => {
      branch.done = true;
      // A stream that won keeps its attempt, and its caller's abort must still reach it.
      if (!s.ok || !kind.keepsAttempt) parent?.removeEventListener('abort', onCallerAbort);
    });
    return branch;
  };

  /** Aborts a branch that lost and cleans up after it, counted as in flight until it has. */
  const abandon = (branch: Branch<T> | undefined, why: string) => {
    if (!branch || branch.done) return;
    rt.active.enter();
    branch.controller.abort(new RouterError('aborted', why));
    void branch.settled.then(async (s) => {
      if (s.ok) await kind.discard?.(s.answer.value, s.answer.slot);
    }).catch(() => {}).finally(() => rt.active.leave());
  };

  const first = start([targets[0]!], false);
  let second: Branch<T> | undefined;
  let hedged = false;
  let timer: Timer | undefined;
  let wake: (() => void) | undefined;
  if (delay !== undefined) {
    timer = rt.clock.setTimer(delay, () => {
      timer = undefined;
      if (first.done || second || !book.takeHedge(rt.clock.now(), policy.maxExtraPercent)) return;
      hedged = true;
      second = start(targets.slice(1), true);
      const to = targets[1]!.target;
      rt.logger.debug({ callId: call.id, chain: call.chain, provider: targets[0]!.target.provider, model: targets[0]!.target.model, afterMs: delay }, 'hedging: the first attempt has not answered');
      if (rt.events.has('hedge')) {
        rt.events.emit('hedge', {
          callId: call.id, tenant: call.tenant.name, chain: call.chain, operation: call.operation,
          provider: targets[0]!.target.provider, model: targets[0]!.target.model, afterMs: delay, to: { provider: to.provider, model: to.model },
        });
      }
      wake?.();
    });
  }

  try {
    // Until branch one settles, branch two (a hedge) may answer first.
    for (;;) {
      const woke = new Promise<'woke'>((resolve) => (wake = () => resolve('woke')));
      const next = await Promise.race([first.settled.then((s) => ['first', s] as const), ...(second ? [second.settled.then((s) => ['second', s] as const)] : []), woke]);
      if (next === 'woke') continue;
      const [which, s] = next;
      if (which === 'first') {
        timer?.clear();
        if (s.ok) {
          book.observe(firstKey, rt.clock.now() - startedAt);
          abandon(second, 'hedging: the first attempt answered first');
          return hedged ? Object.assign({}, s.answer, { hedged }) : s.answer;
        }
        if (!movesOn(s.error)) {
          abandon(second, 'hedging: the call failed on its first step');
          throw s.error;
        }
        second ??= start(targets.slice(1), false);
        const t = await second.settled;
        if (t.ok) return hedged ? Object.assign({}, t.answer, { hedged }) : t.answer;
        throw movesOn(t.error) ? combined(call, s.error as RouterError, t.error as RouterError) : t.error;
      }
      // Branch two settled first.
      if (s.ok) {
        abandon(first, 'hedging: the hedge answered first');
        return Object.assign({}, s.answer, { hedged });
      }
      const f = await first.settled;
      if (f.ok) {
        book.observe(firstKey, rt.clock.now() - startedAt);
        return Object.assign({}, f.answer, { hedged });
      }
      if (!movesOn(f.error)) throw f.error;
      throw movesOn(s.error) ? combined(call, f.error as RouterError, s.error as RouterError) : s.error;
    }
  } finally {
    timer?.clear();
  }
}
