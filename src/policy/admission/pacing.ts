import { DEFAULTS } from '../../config/defaults.js';
import type { BudgetLimits } from '../../store/state-store.js';

/**
 * The fewest requests a default burst lets out at once: a burst that small is what any client
 * sends, and a limit below it (`rpm: 5`) goes whole, as before pacing. A provider whose bucket is
 * smaller still (per-second enforcement) shrinks it with its first headers or 429.
 */
const MIN_BURST_REQUESTS = 10;

/**
 * A target budget's limits, paced: with any request or token limit, each is released evenly
 * through the window, at most `burstMs` worth at once (by default a second's worth of a per-minute
 * limit, as OpenAI may enforce it, but at least MIN_BURST_REQUESTS requests' worth of `rpm`).
 */
export function paced(limits: BudgetLimits, burstMs?: number): BudgetLimits {
  if (limits.rpm === undefined && limits.tpm === undefined && limits.itpm === undefined && limits.otpm === undefined) return limits;
  const windowMs = limits.windowMs ?? DEFAULTS.limits.windowMs;
  const second = windowMs / 60;
  const floor = limits.rpm === undefined ? second : (MIN_BURST_REQUESTS * windowMs) / limits.rpm;
  return Object.assign({}, limits, { burstMs: burstMs ?? Math.min(windowMs, Math.max(second, floor)) });
}
