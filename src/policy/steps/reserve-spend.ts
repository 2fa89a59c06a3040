import { worstCaseUsd } from '../../decide/cost.js';
import { isRouterError, RouterError } from '../../errors.js';
import type { Call } from '../state/call.js';
import type { Price } from '../../spend/prices.js';
import { andThen, isPromise, settled, type MaybePromise } from '../../store/maybe-promise.js';
import type { SpendGrant, SpendWindowLimit } from '../../store/spend-store.js';
import type { SettleOutcome } from '../admission/admission.js';
import type { AttemptContext, StepResult } from './attempt-context.js';
import { addCallCost } from './call-cost.js';
import type { AttemptValue } from './call-kind.js';
import { recordSkip, type SkipDeps } from './record-outcome.js';
import { MAY_HAVE_BILLED, type Spend, type SpendBudget } from '../spend/spend-budgets.js';

/** What reserving spend reads: the USD budgets, their prices and their stores. */
export interface SpendDeps extends SkipDeps {
  readonly spend: Spend;
}

const usd = (n: number) => `$${n.toFixed(n < 1 ? 4 : 2)}`;

/** A reservation taken in one budget. */
interface Hold {
  budget: SpendBudget;
  windows: SpendWindowLimit[];
}

/**
 * The pipeline step after admission: prices the attempt, and under spend budgets reserves its worst
 * case in each (the tenant's, then the key's) before anything is sent. With no budget it only gives
 * the attempt's slot its price, so its usage is priced into `call.costUsd` when it ends.
 */
export function reserveSpend<P, T extends AttemptValue>(a: AttemptContext<P, T, SpendDeps>): MaybePromise<StepResult<T>> {
  const spend = a.deps.spend;
  const budgets = spend.budgetsOf(a.call);
  const price = spend.prices.of(a.target.target);
  if (budgets.length === 0) {
    if (price) a.slot!.priceAt(price); // a field on the slot, not a closure per attempt
    return undefined;
  }
  if (!price) {
    const error = new RouterError('config', `${budgets[0]!.path} needs a price for ${a.target.target.key}: add it to \`prices\``, { provider: a.target.target.provider, model: a.target.target.model });
    return undo(a, '', []).then(() => { throw error.with({ attempts: a.call.attempts }); });
  }
  const worst = worstCaseUsd(a.tokens!.input, a.tokens!.output, price);
  const holds: Hold[] = [];
  const holdId = `spend-${a.slot!.leaseId}`;
  const holdTtlMs = a.kind.leaseTtlMs(a.target);
  const next = (i: number): MaybePromise<StepResult<T>> => {
    if (i === budgets.length) {
      a.slot!.onSettle((outcome) => settleHolds(a, price, worst, holdId, holds, outcome));
      return undefined;
    }
    const budget = budgets[i]!;
    const now = spend.now();
    const windows = spend.windowsOf(budget, now);
    let grant: MaybePromise<SpendGrant>;
    try {
      grant = spend.role(budget).reserveSpend({ budget: budget.key, holdId, usd: worst, windows, holdTtlMs, localShare: budget.localShare }, now);
    } catch (err) {
      return undo(a, holdId, holds).then(() => { throw err; });
    }
    const decided = andThen(grant, (g) => {
      spend.noteGrant(a.call, budget, g);
      if (g.ok) {
        holds.push({ budget, windows });
        return next(i + 1);
      }
      return refuse(a, holdId, holds, budget, g, worst, windows);
    });
    // A store that failed (onUnavailable 'fail', a custom store that threw): nothing is sent, and what was taken goes back.
    return isPromise(decided) ? decided.catch((err: unknown) => (isRouterError(err) && err.kind === 'budget_exceeded' ? Promise.reject(err) : undo(a, holdId, holds).then(() => Promise.reject(err)))) : decided;
  };
  return next(0);
}

/**
 * Gives back what an attempt that will not be sent holds: its spend holds, its rate budgets, its
 * breaker pass and its place in the in-flight count.
 */
async function undo<P, T extends AttemptValue>(a: AttemptContext<P, T, SpendDeps>, holdId: string, holds: readonly Hold[]): Promise<void> {
  const { deps: rt, call, target } = a;
  if (!a.slot || a.slot.isEnded) return; // undone already (a later budget's failure, passed on)
  const now = rt.spend.now();
  await Promise.all(holds.map(async (h) => {
    try {
      await rt.spend.role(h.budget).settleSpend({ budget: h.budget.key, holdId, windows: h.windows, actualUsd: 0, model: target.target.key, alertAt: [] }, now);
    } catch (err) {
      rt.spend.warn(err);
    }
  }));
  // The slot gives back the rate budgets, the in-flight count and the breaker pass (as no verdict).
  await a.slot.end({ sent: false });
}

/** Ends an attempt's holds: its cost when known, nothing when it surely was not billed, else the whole reservation. */
function settleHolds<P, T extends AttemptValue>(a: AttemptContext<P, T, SpendDeps>, price: Price, worst: number, holdId: string, holds: readonly Hold[], outcome: SettleOutcome): MaybePromise<void> {
  const spend = a.deps.spend;
  const cost = addCallCost(a.call, price, outcome);
  const billed = outcome.sent && (outcome.failed === undefined || MAY_HAVE_BILLED.has(outcome.failed));
  const actualUsd = cost ?? (billed ? worst : 0);
  const now = spend.now();
  const ops = holds.map(({ budget, windows }) => {
    try {
      const done = spend.role(budget).settleSpend({ budget: budget.key, holdId, windows, actualUsd, model: a.target.target.key, alertAt: budget.alertAt }, now);
      if (!isPromise(done)) return spend.alerted(a.call, budget, done);
      return done.then((alerts) => spend.alerted(a.call, budget, alerts), (err: unknown) => spend.warn(err));
    } catch (err) {
      spend.warn(err);
      return undefined;
    }
  });
  return settled(ops);
}

/** A budget without room: gives back what was taken, sends nothing, and throws `budget_exceeded`. */
async function refuse<P, T extends AttemptValue>(
  a: AttemptContext<P, T, SpendDeps>, holdId: string, holds: readonly Hold[], budget: SpendBudget,
  grant: Extract<SpendGrant, { ok: false }>, worst: number, windows: readonly SpendWindowLimit[],
): Promise<never> {
  const { deps: rt, call, target } = a;
  // Nothing goes out: the holds, rate budgets, breaker pass and in-flight count are given back.
  await undo(a, holdId, holds);
  const now = rt.spend.now();
  const w = windows.find((x) => x.window === grant.window);
  const period = grant.window.startsWith('day:') ? 'day' : 'month';
  const field = period === 'day' ? 'usdPerDay' : 'usdPerMonth';
  const message = `${budget.key} spend budget is full: ${grant.window.slice(period.length + 1)} (UTC) holds ${usd(grant.totalUsd)} of ${usd(grant.limitUsd)}, `
    + `and ${target.target.key} may cost up to ${usd(worst)} (${budget.path}.${field})`;
  const skip = recordSkip<T>(rt, call, target, { kind: 'budget_exceeded', message, code: period, availableInMs: w ? w.endsAtMs - now : undefined });
  if (skip.ok) throw new Error('unreachable');
  throw skip.error.with({ attempts: call.attempts, code: 'budget_exceeded' });
}
