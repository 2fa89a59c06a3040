import { randomBytes } from 'node:crypto';
import type { ProviderRequest } from '../../providers/types.js';
import { DEFAULT_MAX_TOKENS } from '../../providers/anthropic/adapter-body.js';
import type { ResolvedConfig, Target } from '../config/index.js';
import { promptTokenEstimate, type CountTokens } from '../decide/token-estimate.js';
import type { Call } from '../runtime.js';
import { andThen, settled, type MaybePromise } from '../maybe-promise.js';
import type { BudgetGrant, BudgetLimits, StateStore } from '../store/state-store.js';
import type { RateLimitSnapshot, Usage } from '../types.js';
import type { Clock } from '../clock.js';
import type { Logger } from '../observe/logger.js';
import { FairQueue, type Waiter } from './fair-queue.js';
import { tokenCounter } from './tokenizers.js';

/** One budget an attempt must fit in: a tenant's, then the target's. */
interface Budget {
  key: string;
  limits: BudgetLimits;
  /** Counts against this budget need a token estimate (it has a TPM, or it is a target's headroom). */
  tokenized: boolean;
}

export type Admitted = { ok: true; lease: Lease };
export type Refused = {
  ok: false;
  /** `deadline`: the call's own deadline passed while it waited; `aborted`: the caller gave up. */
  reason: 'rpm' | 'tpm' | 'concurrency' | 'provider' | 'too_large' | 'deadline' | 'aborted';
  retryInMs?: number;
  budget: string;
};

const PROCESS_TAG = randomBytes(4).toString('hex');
let leaseSeq = 0;
const POLL_MS_SHARED = 25;

/** Room taken in every budget of one attempt; settle it exactly once when the attempt ends. */
export class Lease {
  private settled = false;

  constructor(private readonly admission: Admission, readonly id: string, private readonly budgets: Budget[], readonly tokens: number, private readonly targetKey: string) {}

  /**
   * Frees the attempt's concurrency slots. `sent: false` gives its requests and tokens back (nothing
   * reached the provider). Usage above the estimate is charged; an over-estimate is not refunded (the
   * provider counted the reservation too). Headroom the response reported tightens the target budget.
   */
  settle(outcome: { sent: boolean; usage?: Usage; rateLimit?: RateLimitSnapshot }): Promise<void> | undefined {
    if (this.settled) return undefined;
    this.settled = true;
    return this.admission.settle(this.id, this.budgets, this.tokens, this.targetKey, outcome);
  }
}

/**
 * Admission control: before an attempt is sent it must fit its tenant's budget, then its target's
 * (requests, tokens and concurrency over a rolling window, and the provider's own last-reported
 * headroom). A call that does not fit waits in a per-budget fair queue for at most `maxQueueMs`
 * (default `retry.maxInlineWaitMs`), else the target is skipped without a request.
 */
export class Admission {
  private readonly queues = new Map<string, FairQueue>();
  private readonly budgetCache = new Map<string, Budget>();
  private readonly counters = new Map<string, CountTokens>();

  constructor(
    private readonly config: ResolvedConfig,
    private readonly store: StateStore,
    private readonly clock: Clock,
    private readonly logger: Logger,
  ) {}

  /**
   * Waits for room for one attempt, or says why there is none. With the memory store and room to
   * spare it answers synchronously (no promise at all): this is on every call's path.
   */
  admit(call: Call, target: Target, request: ProviderRequest): MaybePromise<Admitted | Refused> {
    const { tenant, share, budget: tenantBudget } = this.tenantOf(call);
    const budgets = tenantBudget ? [tenantBudget, this.targetBudget(target)] : [this.targetBudget(target)];
    const leaseId = `${PROCESS_TAG}-${++leaseSeq}`;
    return this.takeFrom(0, budgets, this.estimate(target, request, budgets), leaseId, tenant, share, call, target);
  }

  /** Takes room in budgets[i..], in order; on a refusal gives back what budgets[0..i) granted. */
  private takeFrom(i: number, budgets: Budget[], tokens: number, leaseId: string, tenant: string, share: number, call: Call, target: Target): MaybePromise<Admitted | Refused> {
    if (i === budgets.length) return { ok: true, lease: new Lease(this, leaseId, budgets, tokens, budgets[budgets.length - 1]!.key) };
    return andThen(this.take(budgets[i]!, tokens, leaseId, tenant, share, call, target), (grant) => {
      if (grant.ok) return this.takeFrom(i + 1, budgets, tokens, leaseId, tenant, share, call, target);
      const taken = budgets.slice(0, i);
      const now = this.clock.now();
      const refused: Refused = { ...grant, budget: budgets[i]!.key };
      const released = settled(taken.map((b) => this.store.releaseBudget(b.key, leaseId, false, now)));
      this.notify(taken);
      return released ? released.then(() => refused) : refused;
    });
  }

  /** Called by `Lease.settle`; synchronous with the memory store. */
  settle(leaseId: string, budgets: Budget[], tokens: number, targetKey: string, outcome: { sent: boolean; usage?: Usage; rateLimit?: RateLimitSnapshot }): Promise<void> | undefined {
    const now = this.clock.now();
    const extra = outcome.usage ? outcome.usage.inputTokens + outcome.usage.outputTokens - tokens : 0;
    const ops: Array<MaybePromise<void>> = [];
    for (const budget of budgets) {
      ops.push(this.store.releaseBudget(budget.key, leaseId, outcome.sent, now));
      if (outcome.sent && extra > 0 && budget.limits.tpm !== undefined) ops.push(this.store.chargeTokens(budget.key, leaseId, extra, now));
    }
    if (outcome.rateLimit) ops.push(this.store.observeHeadroom(targetKey, outcome.rateLimit, now));
    const pending = settled(ops);
    if (!pending) {
      this.notify(budgets);
      return undefined;
    }
    return pending.then(() => this.notify(budgets));
  }

  /** Callers waiting in any queue (for tests and diagnostics). */
  waiting(): number {
    let n = 0;
    for (const q of this.queues.values()) n += q.size;
    return n;
  }

  private notify(budgets: Budget[]): void {
    for (const b of budgets) this.queues.get(b.key)?.notify();
  }

  private tenantOf(call: Call): { tenant: string; share: number; budget?: Budget } {
    const tenant = call.request.tenant ?? 'default';
    const conf = this.config.tenants[tenant] ?? this.config.tenants['*'];
    if (!conf) return { tenant, share: 1 };
    const hasBudget = conf.rpm !== undefined || conf.tpm !== undefined || conf.concurrency !== undefined;
    const budget = hasBudget
      ? this.cached(`tenant:${tenant}`, () => ({ rpm: conf.rpm, tpm: conf.tpm, concurrency: conf.concurrency, windowMs: conf.windowMs }), conf.tpm !== undefined)
      : undefined;
    return { tenant, share: conf.share, budget };
  }

  /** A target's budget: its provider's `limits`, with that model's overrides, keyed `provider:model`. */
  private targetBudget(target: Target): Budget {
    return this.cached(target.key, () => {
      const limits = this.config.providers[target.provider]!.limits ?? {};
      const model = limits.models?.[target.model] ?? {};
      return {
        rpm: model.rpm ?? limits.rpm, tpm: model.tpm ?? limits.tpm,
        concurrency: model.concurrency ?? limits.concurrency, windowMs: limits.windowMs,
      };
    }, true);
  }

  private cached(key: string, limits: () => BudgetLimits, tokenized: boolean): Budget {
    let budget = this.budgetCache.get(key);
    if (!budget) this.budgetCache.set(key, (budget = { key, limits: limits(), tokenized }));
    return budget;
  }

  /** The target's token counter, made once per target (it is asked on every call). */
  private counter(target: Target): CountTokens {
    let count = this.counters.get(target.key);
    if (!count) {
      const provider = this.config.providers[target.provider]!;
      count = tokenCounter(target.model, provider.limits?.tokenizer ?? 'auto', provider.type === 'openai' || provider.type === 'openai-compatible');
      this.counters.set(target.key, count);
    }
    return count;
  }

  /** Prompt tokens (a real tokenizer only when a TPM budget needs it) plus the output reservation. */
  private estimate(target: Target, request: ProviderRequest, budgets: Budget[]): number {
    const provider = this.config.providers[target.provider]!;
    const reserve = request.maxTokens ?? (provider.type === 'anthropic' ? DEFAULT_MAX_TOKENS : provider.limits?.reserveOutputTokens ?? 1024);
    const needsTokenizer = budgets.some((b) => b.limits.tpm !== undefined);
    return promptTokenEstimate(request.messages, needsTokenizer ? this.counter(target) : undefined) + reserve;
  }

  private maxWaitMs(target: Target, call: Call): number {
    const configured = this.config.providers[target.provider]!.limits?.maxQueueMs ?? this.config.retry.maxInlineWaitMs;
    if (call.deadlineAtMs === undefined) return configured;
    return Math.min(configured, call.deadlineAtMs - this.clock.now());
  }

  private take(budget: Budget, tokens: number, leaseId: string, tenant: string, share: number, call: Call, target: Target): MaybePromise<BudgetGrant | Omit<Refused, 'budget'>> {
    const request = { key: budget.key, limits: budget.limits, tokens, leaseId, leaseTtlMs: this.leaseTtlMs(target, call) };
    const queue = this.queues.get(budget.key);
    // Callers already queued go first: only with nobody waiting may a call take room directly.
    if (queue && queue.size > 0) return this.wait(this.queueFor(budget.key), request, tenant, share, call, target);
    return andThen(this.store.acquireBudget(request, this.clock.now()), (grant) => {
      if (grant.ok || grant.reason === 'too_large') return grant;
      const maxWait = this.maxWaitMs(target, call);
      if (grant.retryInMs !== undefined && grant.retryInMs > maxWait) return grant;
      if (maxWait <= 0) return call.deadlineAtMs !== undefined && call.deadlineAtMs <= this.clock.now() ? { ok: false, reason: 'deadline' } : grant;
      return this.wait(this.queueFor(budget.key), request, tenant, share, call, target);
    });
  }

  /** The one queue of a budget (looked up again after every await: another caller may have made it). */
  private queueFor(key: string): FairQueue {
    let queue = this.queues.get(key);
    if (!queue) this.queues.set(key, (queue = new FairQueue(this.store.shared ? POLL_MS_SHARED : undefined)));
    return queue;
  }

  private wait(queue: FairQueue, request: Parameters<StateStore['acquireBudget']>[0], tenant: string, share: number, call: Call, target: Target): Promise<BudgetGrant | Omit<Refused, 'budget'>> {
    const maxWait = this.maxWaitMs(target, call);
    const byDeadline = call.deadlineAtMs !== undefined && call.deadlineAtMs - this.clock.now() <= maxWait;
    const signal = call.request.signal;
    return new Promise((resolve) => {
      let last: BudgetGrant = { ok: false, reason: 'concurrency' };
      const finish = (result: BudgetGrant | Omit<Refused, 'budget'>) => {
        if (waiter.done) return;
        waiter.done = true;
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        queue.remove(waiter);
        resolve(result);
      };
      const waiter: Waiter = {
        tenant, share, done: false,
        attempt: async () => (last = await this.store.acquireBudget(request, this.clock.now())),
        settle: (grant) => finish(grant),
        undo: () => void this.store.releaseBudget(request.key, request.leaseId, false, this.clock.now()),
      };
      const onAbort = () => finish({ ok: false, reason: 'aborted' });
      const timer = setTimeout(() => finish(byDeadline ? { ok: false, reason: 'deadline' } : last), Math.max(0, maxWait));
      signal?.addEventListener('abort', onAbort, { once: true });
      queue.enqueue(waiter);
    });
  }

  /** A slot outlives its attempt only if the process died holding it; then it is freed after this. */
  private leaseTtlMs(target: Target, call: Call): number {
    if (call.streaming) return 30 * 60_000; // a stream has no overall bound, only an idle one
    return (this.config.providers[target.provider]!.timeoutMs ?? 60_000) * 2 + 1000;
  }
}
