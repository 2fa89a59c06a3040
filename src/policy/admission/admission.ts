import type { AbortSignalLike } from '../../../providers/types.js';
import { randomBytes } from 'node:crypto';
import { setMaxListeners } from 'node:events';
import type { Clock, Timer } from '../../types.js';
import { andThen, isPromise, settled, type MaybePromise } from '../../store/maybe-promise.js';
import type { Call } from '../state/call.js';
import type { BudgetGrant, BudgetRequest, BudgetSettlement, BudgetStore } from '../../store/budget-store.js';
import type { StoreLifecycle } from '../../store/state-store.js';
import type { ErrorKind, RateLimitSnapshot } from '../../types.js';
import { nextCacheShare, reconcileTokens, refusedTokens, reserveTokens, type BilledUsage, type TokenReservation } from '../../decide/token-reservation.js';
import type { Budget, RefusalReason, TokenEstimate } from './budget.js';
import { FairQueue, type Waiter } from './fair-queue.js';
import type { FleetShares } from './fleet-shares.js';
import type { TargetRuntime } from '../state/target-runtime.js';

/** One attempt asking for room: in its tenant's budget (if any), then in the target endpoint's. */
export interface AdmitRequest {
  call: Call;
  target: TargetRuntime;
  /** The target endpoint's budget (chat, or embeddings). */
  budget: Budget;
  /** Tokens the provider's limiter is expected to charge: the prompt, and the output reserved. */
  tokens: TokenEstimate;
  /** The concurrency slot is reclaimed after this if the process dies holding it. */
  leaseTtlMs: number;
}

export type Admitted = { ok: true; lease: Lease };
export type Refused = {
  ok: false;
  /** `deadline`: the call's own deadline passed while it waited; `aborted`: the caller gave up. */
  reason: RefusalReason;
  retryInMs?: number;
  budget: string;
};

/** How an attempt ended, for its lease. */
export interface SettleOutcome {
  /** False: nothing reached the provider, so its request and tokens are given back. */
  sent: boolean;
  usage?: BilledUsage;
  rateLimit?: RateLimitSnapshot;
  /** The provider answered 429 to a request the budgets admitted. */
  rateLimited?: boolean;
  /** The attempt failed, as this kind (undefined: it answered, or a stream ended after its first token). */
  failed?: ErrorKind;
}

const PROCESS_TAG = randomBytes(4).toString('hex');
const ALONE = new WeakMap<Budget, readonly Budget[]>();

/** A budget as the only one an attempt must fit: one frozen list per budget, not a new one per call. */
function alone(budget: Budget): readonly Budget[] {
  let list = ALONE.get(budget);
  if (!list) ALONE.set(budget, (list = Object.freeze([budget])));
  return list;
}
let leaseSeq = 0;
const POLL_MS_SHARED = 25;

/** One admission in progress: the budgets it must fit, in order, and the tokens it reserves in each. */
interface Ask extends TokenReservation {
  req: AdmitRequest;
  budgets: readonly Budget[];
  leaseId: string;
}

/** Room taken in every budget of one attempt; settle it exactly once when the attempt ends. */
export class Lease {
  private settledOnce = false;
  /** Told once how the attempt ended, beside its budgets: the spend policy (reserve-spend.ts) prices it and settles its holds. */
  onSettle?: (outcome: SettleOutcome) => MaybePromise<void>;

  constructor(private readonly admission: Admission, private readonly ask: Ask) {}

  get id(): string {
    return this.ask.leaseId;
  }

  /**
   * Frees the attempt's concurrency slots. `sent: false` gives its requests and tokens back (nothing
   * reached the provider). Usage above the TPM estimate is charged, an over-estimate is not refunded
   * (the provider counted the reservation too); ITPM and OTPM are reconciled both ways (cached input
   * and unused output are given back, as Anthropic does). The response's headers correct the target
   * budget's model of the provider's bucket, and a 429 shrinks it. Synchronous (undefined) with the
   * memory store.
   */
  settle(outcome: SettleOutcome): Promise<void> | undefined {
    if (this.settledOnce) return undefined;
    this.settledOnce = true;
    const budgets = this.admission.settle(this.ask, outcome);
    return this.onSettle ? settled([budgets, this.onSettle(outcome)]) : budgets;
  }
}

/**
 * Admission control: before an attempt is sent it must fit its tenant's budget, then its target's
 * (requests, tokens and concurrency over a rolling window, and the provider's own last-reported
 * headroom). A call that does not fit waits in a per-budget fair queue for at most the target's
 * `maxQueueMs`, else the target is skipped without a request.
 */
export class Admission {
  private readonly queues = new Map<string, FairQueue>();
  /** Per target budget with an ITPM limit: the share of input its answers lately had from the prompt cache. */
  private readonly cacheShares = new Map<string, number>();
  /** Per target budget: until when no attempt of this process may take room in it (a cooling target waited out). */
  private readonly holds = new Map<string, number>();

  constructor(
    /** The state store's budgets role, and whether other processes share it (waiters then poll). */
    private readonly store: BudgetStore & Pick<StoreLifecycle, 'shared'>,
    private readonly clock: Clock,
    private readonly closing?: AbortSignalLike,
    /** Told of a store failure while settling a lease; the call goes on. */
    private readonly onSettleError?: (err: unknown) => void,
    /** With a shared store that plays `shares`: tenants' shares of each target budget across the fleet. */
    private readonly fleet?: FleetShares,
  ) {
    // Every queued call listens for the router closing (and leaves with its listener): a paced
    // budget routinely holds more than Node's default of 10, which is no leak worth a warning.
    if (closing instanceof EventTarget) setMaxListeners(0, closing);
  }

  /**
   * Waits for room for one attempt, or says why there is none. With the memory store and room to
   * spare it answers synchronously (no promise at all): this is on every call's path.
   */
  admit(req: AdmitRequest): MaybePromise<Admitted | Refused> {
    const tenantBudget = req.call.tenant.budget;
    const { input, output } = req.tokens;
    const share = req.budget.limits.itpm === undefined ? undefined : this.cacheShares.get(req.budget.key);
    const ask: Ask = {
      req, budgets: tenantBudget ? [tenantBudget, req.budget] : alone(req.budget), leaseId: `${PROCESS_TAG}-${++leaseSeq}`,
      ...reserveTokens(input, output, share),
    };
    return this.takeFrom(ask, 0);
  }

  /** A store operation whose failure is reported, never thrown into the call. */
  private guard(op: MaybePromise<void>): MaybePromise<void> {
    return isPromise(op) ? op.catch((err: unknown) => this.onSettleError?.(err)) : op;
  }

  /** Called by `Lease.settle`. */
  settle(ask: Ask, outcome: SettleOutcome): Promise<void> | undefined {
    const now = this.clock.now();
    const ops: Array<MaybePromise<void>> = [];
    // Settling never fails a call: an answer the provider gave stands even when the store does not
    // (the lease then expires by its TTL). A custom store that throws is logged, not propagated.
    try {
      if (outcome.usage) this.learnCacheShare(ask.req.budget, outcome.usage);
      for (const budget of ask.budgets) {
        if (!outcome.sent) {
          ops.push(this.guard(this.store.releaseBudget(budget.key, ask.leaseId, false, now)));
          continue;
        }
        // A 429 spent a request and no tokens: its reservation leaves every window it was counted in.
        const charge = outcome.usage ? reconcileTokens(ask, budget.limits, outcome.usage) : outcome.rateLimited ? refusedTokens(ask) : undefined;
        const settlement: BudgetSettlement = { charge };
        if (budget === ask.req.budget) {
          settlement.snapshot = outcome.rateLimit && ownWindows(outcome.rateLimit);
          settlement.rateLimited = outcome.rateLimited;
        }
        ops.push(this.guard(this.store.settleBudget(budget.key, ask.leaseId, settlement, now)));
      }
    } catch (err) {
      this.onSettleError?.(err);
    }
    const pending = settled(ops);
    if (!pending) {
      this.notify(ask.budgets);
      return undefined;
    }
    return pending.then(() => this.notify(ask.budgets));
  }


  private learnCacheShare(budget: Budget, usage: BilledUsage): void {
    if (budget.limits.itpm === undefined) return;
    const share = nextCacheShare(this.cacheShares.get(budget.key), usage);
    if (share !== undefined) this.cacheShares.set(budget.key, share);
  }

  /**
   * Holds a budget until `untilMs` (the clock's time): until then every attempt of this process
   * that asks it for room queues in its fair queue (in arrival order and tenant shares), and the
   * queue releases them when the hold ends, at the budget's pace. A later hold extends an earlier one.
   */
  hold(key: string, untilMs: number): void {
    if (untilMs <= this.clock.now()) return;
    if ((this.holds.get(key) ?? -Infinity) < untilMs) this.holds.set(key, untilMs);
    this.queues.get(key)?.notify(); // its head re-reads the hold and sleeps until it ends
  }

  /** The refusal a held budget answers with, or undefined once the hold is over (it is then forgotten). */
  private held(key: string): BudgetGrant | undefined {
    const until = this.holds.get(key);
    if (until === undefined) return undefined;
    const inMs = until - this.clock.now();
    if (inMs > 0) return { ok: false, reason: 'provider', retryInMs: inMs };
    this.holds.delete(key);
    return undefined;
  }

  /** Callers waiting in any queue (for tests and diagnostics). */
  waiting(): number {
    let n = 0;
    for (const q of this.queues.values()) n += q.size;
    return n;
  }

  /** Takes room in budgets[i..], in order; on a refusal gives back what budgets[0..i) granted. */
  private takeFrom(ask: Ask, i: number): MaybePromise<Admitted | Refused> {
    if (i === ask.budgets.length) {
      this.fleet?.admitted(ask.req.budget.key, ask.req.call.tenant.name);
      return { ok: true, lease: new Lease(this, ask) };
    }
    return andThen(this.take(ask, ask.budgets[i]!), (grant) => {
      if (grant.ok) return this.takeFrom(ask, i + 1);
      const taken = ask.budgets.slice(0, i);
      const now = this.clock.now();
      const refused: Refused = Object.assign({}, grant, { budget: ask.budgets[i]!.key });
      const released = settled(taken.map((b) => this.store.releaseBudget(b.key, ask.leaseId, false, now)));
      this.notify(taken);
      return released ? released.then(() => refused) : refused;
    });
  }

  private notify(budgets: readonly Budget[]): void {
    for (const b of budgets) this.queues.get(b.key)?.notify();
  }

  /** How long this call may wait for room: the target's `maxQueueMs`, within the call's deadline. */
  private maxWaitMs(call: Call, target: TargetRuntime): number {
    if (call.deadlineAtMs === undefined) return target.maxQueueMs;
    return Math.min(target.maxQueueMs, call.deadlineAtMs - this.clock.now());
  }

  private take(ask: Ask, budget: Budget): MaybePromise<BudgetGrant | Omit<Refused, 'budget'>> {
    const { call, target } = ask.req;
    const request: BudgetRequest = {
      key: budget.key, limits: budget.limits, tokens: ask.tokens, inputTokens: ask.inputTokens, outputTokens: ask.outputTokens,
      leaseId: ask.leaseId, leaseTtlMs: ask.req.leaseTtlMs,
    };
    const queue = this.queues.get(budget.key);
    // Callers already queued go first: only with nobody waiting may a call take room directly (and
    // only when the fleet's shares do not hold its tenant back for another's).
    const fleetHolds = budget === ask.req.budget && this.fleet?.holds(budget.key, call.tenant.name);
    if ((queue && queue.size > 0) || fleetHolds) return this.wait(this.queueFor(budget.key), request, ask);
    return andThen(this.held(budget.key) ?? this.store.acquireBudget(request, this.clock.now()), (grant) => {
      if (grant.ok || grant.reason === 'too_large') return grant;
      const maxWait = this.maxWaitMs(call, target);
      if (grant.retryInMs !== undefined && grant.retryInMs > maxWait) return grant;
      if (maxWait <= 0) return call.deadlineAtMs !== undefined && call.deadlineAtMs <= this.clock.now() ? { ok: false, reason: 'deadline' } : grant;
      return this.wait(this.queueFor(budget.key), request, ask);
    });
  }

  /** The one queue of a budget (looked up again after every await: another caller may have made it). */
  private queueFor(key: string): FairQueue {
    let queue = this.queues.get(key);
    if (!queue) {
      const fleet = this.fleet;
      // Tenant budgets have one tenant each: only a target budget's queue reads the fleet's shares.
      const held = fleet && !key.startsWith('tenant:') ? (tenant: string) => fleet.holds(key, tenant) : undefined;
      this.queues.set(key, (queue = new FairQueue(this.clock, this.store.shared ? POLL_MS_SHARED : undefined, held)));
    }
    return queue;
  }

  private wait(queue: FairQueue, request: BudgetRequest, ask: Ask): Promise<BudgetGrant | Omit<Refused, 'budget'>> {
    const { call, target } = ask.req;
    const maxWait = this.maxWaitMs(call, target);
    const byDeadline = call.deadlineAtMs !== undefined && call.deadlineAtMs - this.clock.now() <= maxWait;
    const signal = call.signal;
    const fleetKey = this.fleet && request.key === ask.req.budget.key ? request.key : undefined;
    return new Promise((resolve) => {
      let last: BudgetGrant = { ok: false, reason: 'concurrency' };
      let timer: Timer | undefined;
      const finish = (result: BudgetGrant | Omit<Refused, 'budget'>) => {
        if (waiter.done) return;
        waiter.done = true;
        timer?.clear();
        signal?.removeEventListener('abort', onAbort);
        this.closing?.removeEventListener('abort', onAbort);
        queue.remove(waiter);
        if (fleetKey) this.fleet!.waiting(fleetKey, call.tenant.name, -1);
        resolve(result);
      };
      const waiter: Waiter = {
        tenant: call.tenant.name, share: call.tenant.share, done: false,
        attempt: async () => (last = this.held(request.key) ?? await this.store.acquireBudget(request, this.clock.now())),
        settle: (grant) => finish(grant),
        undo: () => void this.store.releaseBudget(request.key, request.leaseId, false, this.clock.now()),
      };
      const onAbort = () => finish({ ok: false, reason: 'aborted' });
      timer = this.clock.setTimer(Math.max(0, maxWait), () => finish(byDeadline ? { ok: false, reason: 'deadline' } : last));
      signal?.addEventListener('abort', onAbort, { once: true });
      // A closing router ends every wait at once, as an abort.
      this.closing?.addEventListener('abort', onAbort, { once: true });
      if (fleetKey) this.fleet!.waiting(fleetKey, call.tenant.name, 1);
      queue.enqueue(waiter);
    });
  }
}

/**
 * The windows of a report that are buckets of their own. Anthropic's `tokens` family restates the
 * most restrictive of its input and output windows: with those reported, it is left out (charged
 * the whole prompt and output, it would count cached input and reserved output twice over).
 */
function ownWindows(snapshot: RateLimitSnapshot): RateLimitSnapshot {
  if (!snapshot.tokens || (!snapshot.inputTokens && !snapshot.outputTokens)) return snapshot;
  const { tokens: _combined, ...own } = snapshot;
  return own;
}
