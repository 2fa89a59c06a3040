import type { Usage } from '../types.js';

/** USD per million tokens (the shape of src/spend/price-table.ts's Price, repeated here to keep decide/ free of imports). */
export interface PerMTok {
  inputPerMTok: number;
  outputPerMTok: number;
  cachedInputPerMTok?: number;
  /** 5-minute cache writes (and writes whose lifetime is not reported). @default inputPerMTok */
  cacheWritePerMTok?: number;
  /** 1-hour cache writes. @default cacheWritePerMTok */
  cacheWrite1hPerMTok?: number;
}

/** Usage as a cost needs it: output may be unknown (an embedding's is none). */
export type CostedUsage = Pick<Usage, 'inputTokens' | 'cachedInputTokens' | 'cacheWriteTokens' | 'cacheWrite1hTokens'> & { outputTokens?: number };

/**
 * What one answer cost at a price: uncached input, cached input (at its own price, or the input
 * price when none is known), cache writes (1-hour ones at `cacheWrite1hPerMTok`, the rest, 5-minute
 * or of unreported lifetime, at `cacheWritePerMTok`; each defaults down to the input price), and
 * output. Reads and writes are parts of `inputTokens`, each capped by what is left of it.
 * @example costUsd({ inputTokens: 1_000_000, outputTokens: 0 }, { inputPerMTok: 2.5, outputPerMTok: 10 }) // 2.5
 */
export function costUsd(usage: CostedUsage, price: PerMTok): number {
  const cached = Math.min(usage.cachedInputTokens ?? 0, usage.inputTokens);
  const written = Math.min(usage.cacheWriteTokens ?? 0, usage.inputTokens - cached);
  const hour = Math.min(usage.cacheWrite1hTokens ?? 0, written);
  const fresh = usage.inputTokens - cached - written;
  const write5m = price.cacheWritePerMTok ?? price.inputPerMTok;
  const write1h = price.cacheWrite1hPerMTok ?? write5m;
  return (fresh * price.inputPerMTok + cached * (price.cachedInputPerMTok ?? price.inputPerMTok)
    + (written - hour) * write5m + hour * write1h + (usage.outputTokens ?? 0) * price.outputPerMTok) / 1_000_000;
}

/**
 * The most one attempt can cost before its answer is known: the prompt estimate uncached, and every
 * reserved output token. Cache writes priced above input (Anthropic's 1.25x and 2x) are not in it:
 * reserving every prompt at the 1-hour write price would double the input share of every Anthropic
 * call's hold, cached or not, and the settled cost (`costUsd`) counts the writes in the budget.
 */
export function worstCaseUsd(inputTokens: number, outputTokens: number, price: PerMTok): number {
  return (inputTokens * price.inputPerMTok + outputTokens * price.outputPerMTok) / 1_000_000;
}

/** One UTC calendar window of a spend budget: its name, and when it ends (epoch ms). */
export interface SpendWindow {
  /** `day:2026-12-02` or `month:2026-12` (UTC). */
  name: string;
  period: 'day' | 'month';
  endsAtMs: number;
}

const pad = (n: number) => String(n).padStart(2, '0');

/** The UTC day and month windows `nowMs` falls in. */
export function spendWindows(nowMs: number): { day: SpendWindow; month: SpendWindow } {
  const d = new Date(nowMs);
  const y = d.getUTCFullYear();
  const m = d.getUTCMonth();
  const day = d.getUTCDate();
  return {
    day: { name: `day:${y}-${pad(m + 1)}-${pad(day)}`, period: 'day', endsAtMs: Date.UTC(y, m, day + 1) },
    month: { name: `month:${y}-${pad(m + 1)}`, period: 'month', endsAtMs: Date.UTC(y, m + 1, 1) },
  };
}

/** The day windows from `fromMs` to `toMs`, both included, oldest first (for a report). */
export function dayWindowsBetween(fromMs: number, toMs: number): string[] {
  const last = spendWindows(toMs).day.name;
  const out: string[] = [];
  // Names sort as dates do; the bound stops a nonsense range (a year 9999 `--since`) from looping long.
  for (let w = spendWindows(fromMs).day; w.name <= last && out.length < 3_700; w = spendWindows(w.endsAtMs).day) out.push(w.name);
  return out;
}

/** The thresholds (fractions of `limitUsd`) that `spentUsd` has reached, lowest first. */
export function reachedThresholds(spentUsd: number, limitUsd: number, alertAt: readonly number[]): number[] {
  return alertAt.filter((t) => spentUsd >= t * limitUsd).sort((a, b) => a - b);
}
