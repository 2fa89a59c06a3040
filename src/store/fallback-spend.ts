import type { MaybePromise } from './maybe-promise.js';
import type { FallbackCore } from './fallback-core.js';
import type { SpendAlert, SpendGrant, SpendReservation, SpendRow, SpendSettlement, SpendStore } from './spend-store.js';

const slot = (budget: string, window: string) => `${budget}\0${window}`;

/**
 * The spend role behind the store's breaker. While the shared store answers, every reservation and
 * settlement is its. While it is down (`onUnavailable: 'local'`), each process spends on its own
 * share: `localShare` of what the fleet had left in each window when this process last heard from
 * the store (the whole limit if it never did), and says so on the grant (`local: true`). A hold
 * ends where it was taken; settlements the store missed are dropped (its holds expire by their TTL).
 */
export class FallbackSpend implements SpendStore {
  private readonly localHolds = new Set<string>();
  /** Each window's total as the shared store last reported it. */
  private readonly lastSeen = new Map<string, number>();

  constructor(private readonly core: FallbackCore, private readonly primary: SpendStore) {}

  reserveSpend(req: SpendReservation, nowMs: number): MaybePromise<SpendGrant> {
    const local = (): SpendGrant => {
      const share = req.localShare ?? 1;
      const windows = req.windows.map((w) => (Object.assign({}, w, { limitUsd: Math.max(0, w.limitUsd - (this.lastSeen.get(slot(req.budget, w.window)) ?? 0)) * share })));
      const grant = this.core.local.reserveSpend(Object.assign({}, req, { windows }), nowMs);
      if (grant.ok) this.localHolds.add(slot(req.budget, req.holdId));
      return Object.assign({}, grant, { local: true });
    };
    return this.core.decide(async () => {
      const grant = await this.primary.reserveSpend(req, nowMs);
      if (grant.ok) {
        req.windows.forEach((w, i) => this.lastSeen.set(slot(req.budget, w.window), grant.totalsUsd[i]!));
      } else {
        this.lastSeen.set(slot(req.budget, grant.window), grant.totalUsd);
      }
      return grant;
    }, local);
  }

  settleSpend(s: SpendSettlement, nowMs: number): MaybePromise<SpendAlert[]> {
    if (this.localHolds.delete(slot(s.budget, s.holdId))) return this.core.local.settleSpend(s, nowMs);
    if (!this.core.up) return [];
    return this.core.health.bounded(() => this.primary.settleSpend(s, nowMs)).catch((err: unknown) => {
      this.core.failed(err);
      return [];
    });
  }

  readSpend(windows: readonly string[], budget?: string): MaybePromise<SpendRow[]> {
    return this.core.decide(() => this.primary.readSpend(windows, budget), () => this.core.local.readSpend(windows, budget));
  }
}
