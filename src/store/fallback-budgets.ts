import type { MaybePromise } from './maybe-promise.js';
import type { BudgetGrant, BudgetRequest, BudgetSettlement, BudgetStore } from './budget-store.js';
import type { FallbackCore } from './fallback-core.js';
import { isOutage } from './store-health.js';

const leaseKey = (key: string, leaseId: string) => `${key}\0${leaseId}`;

/**
 * The budgets role behind the store's breaker: while the store is down each process enforces every
 * budget on its own, and a lease ends where it was taken (process-local state, or the store once it
 * is back).
 */
export class FallbackBudgets implements BudgetStore {
  private readonly localLeases = new Set<string>();

  constructor(private readonly core: FallbackCore, private readonly primary: BudgetStore) {}

  acquireBudget(req: BudgetRequest, nowMs: number): MaybePromise<BudgetGrant> {
    const { core } = this;
    const local = () => {
      const grant = core.local.acquireBudget(req, nowMs);
      if (grant.ok) this.localLeases.add(leaseKey(req.key, req.leaseId));
      return grant;
    };
    if (!core.up) return core.whileDown(local);
    return core.health.bounded(() => this.primary.acquireBudget(req, nowMs)).catch((err: unknown) => {
      // The script may have run with no answer reaching us: free that slot when the store is back.
      if (isOutage(err)) core.outbox.add({ kind: 'release', key: req.key, leaseId: req.leaseId, sent: true });
      return core.outage(err, local);
    });
  }

  releaseBudget(key: string, leaseId: string, sent: boolean, nowMs: number): MaybePromise<void> {
    if (this.localLeases.delete(leaseKey(key, leaseId))) return this.core.local.releaseBudget(key, leaseId, sent, nowMs);
    return this.core.write(() => this.primary.releaseBudget(key, leaseId, sent, nowMs), { kind: 'release', key, leaseId, sent });
  }

  settleBudget(key: string, leaseId: string, settlement: BudgetSettlement, nowMs: number): MaybePromise<void> {
    if (this.localLeases.delete(leaseKey(key, leaseId))) return this.core.local.settleBudget(key, leaseId, settlement, nowMs);
    // Missed while the store is down: its slot is freed when the store is back; the charge and the report are dropped.
    return this.core.write(() => this.primary.settleBudget(key, leaseId, settlement, nowMs), { kind: 'release', key, leaseId, sent: true });
  }
}
