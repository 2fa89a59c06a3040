import type { SpendAlert, SpendGrant, SpendReservation, SpendRow, SpendSettlement, SpendStore } from './spend-store.js';

/** How long a window's record outlives the window, for `switchyard spend --since`. */
export const SPEND_RECORD_KEEP_MS = 400 * 86_400_000;

interface WindowRecord {
  spent: number;
  holds: Map<string, { usd: number; expiresAtMs: number }>;
  byModel: Map<string, number>;
  alerted: Set<number>;
  keepUntilMs: number;
}

/**
 * Spend budgets in process memory: the memory store's, and the reference the Redis scripts match
 * (test/store/spend-store.test.ts runs both). A window holds what was spent and the holds still out;
 * an expired hold (its process died) no longer counts.
 */
export class MemorySpend implements SpendStore {
  private readonly windows = new Map<string, WindowRecord>();

  reserveSpend(req: SpendReservation, nowMs: number): SpendGrant {
    const records = req.windows.map((w) => this.record(req.budget, w.window, w.endsAtMs, nowMs));
    const totals = records.map((r) => r.spent + held(r, nowMs));
    for (let i = 0; i < records.length; i++) {
      const w = req.windows[i]!;
      if (totals[i]! + req.usd > w.limitUsd) return { ok: false, window: w.window, totalUsd: totals[i]!, limitUsd: w.limitUsd };
    }
    for (const r of records) r.holds.set(req.holdId, { usd: req.usd, expiresAtMs: nowMs + req.holdTtlMs });
    return { ok: true, totalsUsd: totals.map((t) => t + req.usd) };
  }

  settleSpend(s: SpendSettlement, nowMs: number): SpendAlert[] {
    const alerts: SpendAlert[] = [];
    for (const w of s.windows) {
      const r = this.record(s.budget, w.window, w.endsAtMs, nowMs);
      r.holds.delete(s.holdId);
      if (s.actualUsd <= 0) continue;
      r.spent += s.actualUsd;
      r.byModel.set(s.model, (r.byModel.get(s.model) ?? 0) + s.actualUsd);
      for (const t of s.alertAt) {
        if (r.spent >= t * w.limitUsd && !r.alerted.has(t)) {
          r.alerted.add(t);
          alerts.push({ window: w.window, threshold: t, spentUsd: r.spent, limitUsd: w.limitUsd });
        }
      }
    }
    return alerts;
  }

  readSpend(windows: readonly string[], budget?: string): SpendRow[] {
    const wanted = new Set(windows);
    const rows: SpendRow[] = [];
    for (const [key, r] of this.windows) {
      const at = key.indexOf('\0');
      const [b, w] = [key.slice(0, at), key.slice(at + 1)];
      if (!wanted.has(w) || (budget !== undefined && b !== budget)) continue;
      for (const [model, usd] of r.byModel) rows.push({ budget: b, window: w, model, usd });
    }
    return rows;
  }

  /** Forgets windows long over. */
  sweep(nowMs: number): void {
    for (const [key, r] of this.windows) if (r.keepUntilMs <= nowMs) this.windows.delete(key);
  }

  clear(): void {
    this.windows.clear();
  }

  private record(budget: string, window: string, endsAtMs: number, nowMs: number): WindowRecord {
    const key = `${budget}\0${window}`;
    let r = this.windows.get(key);
    if (!r || r.keepUntilMs <= nowMs) {
      r = { spent: 0, holds: new Map(), byModel: new Map(), alerted: new Set(), keepUntilMs: endsAtMs + SPEND_RECORD_KEEP_MS };
      this.windows.set(key, r);
    }
    return r;
  }
}

/** The holds of a window still out, dropping the expired ones. */
function held(r: WindowRecord, nowMs: number): number {
  let sum = 0;
  for (const [id, h] of r.holds) {
    if (h.expiresAtMs <= nowMs) r.holds.delete(id);
    else sum += h.usd;
  }
  return sum;
}
