import type { MaybePromise } from './maybe-promise.js';

/** One calendar window of a spend budget, as a reservation asks it. */
export interface SpendWindowLimit {
  /** `day:2026-12-02` or `month:2026-12` (UTC). */
  window: string;
  /** USD the window may hold (spent plus reserved). */
  limitUsd: number;
  /** When the window ends (epoch ms): its record is kept a while after for `switchyard spend`. */
  endsAtMs: number;
}

/** One attempt reserving its worst-case cost in every window of one budget, all or none. */
export interface SpendReservation {
  /** The budget: `tenant:<name>` or `key:<id>`. */
  budget: string;
  /** Unique per attempt. */
  holdId: string;
  usd: number;
  windows: SpendWindowLimit[];
  /** A hold of a process that died is given back after this. */
  holdTtlMs: number;
  /**
   * While a shared store is down: the share of what the fleet had left (as this process last saw
   * it) that this process may spend on its own. @default 1
   */
  localShare?: number;
}

/**
 * A reservation's answer: taken (with each window's total after it), or the first window it did not
 * fit. `local`: decided on this process's share while the shared store is down.
 */
export type SpendGrant =
  | { ok: true; totalsUsd: number[]; local?: boolean }
  | { ok: false; window: string; totalUsd: number; limitUsd: number; local?: boolean };

/** How a held attempt ended: what it cost (0 gives the hold back whole), and the thresholds to watch. */
export interface SpendSettlement {
  budget: string;
  holdId: string;
  /** The windows the hold was taken in (a settle after midnight still ends in yesterday's). */
  windows: SpendWindowLimit[];
  actualUsd: number;
  /** `provider:model`, whose spend the report shows. */
  model: string;
  /** Fractions of each window's limit at which an alert fires, once per window. */
  alertAt: readonly number[];
}

/** A threshold a settlement carried a window's spend across, first in the fleet. */
export interface SpendAlert {
  window: string;
  threshold: number;
  spentUsd: number;
  limitUsd: number;
}

/** Spend recorded in one window of one budget, by model. */
export interface SpendRow {
  budget: string;
  window: string;
  model: string;
  usd: number;
}

/**
 * The spend role: USD budgets over UTC calendar windows, reserved per attempt and settled from what
 * it cost. Each reservation and each settlement is one atomic operation (one Lua script in Redis),
 * so processes sharing the store never exceed a budget by more than what one call reserved.
 */
export interface SpendStore {
  reserveSpend(req: SpendReservation, nowMs: number): MaybePromise<SpendGrant>;
  /** Ends a hold: the hold leaves, `actualUsd` is spent; returns the alerts it fired. */
  settleSpend(settlement: SpendSettlement, nowMs: number): MaybePromise<SpendAlert[]>;
  /** Spend by budget and model in the given windows (every budget when `budget` is unset). */
  readSpend(windows: readonly string[], budget?: string): MaybePromise<SpendRow[]>;
}
