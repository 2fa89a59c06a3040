import { DEFAULTS } from '../../config/defaults.js';
import { configuredBurst, Pace } from '../../store/pace.js';
import type { BudgetLimits } from '../../store/state-store.js';
import type { RefusalReason, TokenEstimate } from './budget.js';

/** The paced limits in the store's order (requests, tokens, input tokens, output tokens), with what one attempt costs in each. */
const LIMITS = ['rpm', 'tpm', 'itpm', 'otpm'] as const;
const cost = (d: number, tokens: TokenEstimate): number => (d === 0 ? 1 : d === 1 ? tokens.input + tokens.output : d === 2 ? tokens.input : tokens.output);

/**
 * How much of a target budget's paced room this process sees left, without asking the store: each
 * configured limit as a bucket like the store's (refilled at `limit / windowMs` up to its burst),
 * charged what this process admitted and emptied when the store refused for that limit (which is
 * how use by other processes sharing a Redis budget shows). Pools order their members by it; the
 * store alone admits.
 */
export class BudgetLevel {
  private readonly paces: Array<Pace | undefined> = [];

  private constructor(private readonly limits: BudgetLimits) {}

  /** A level for a paced budget (one with `burstMs` and a request or token limit), else undefined. */
  static of(limits: BudgetLimits): BudgetLevel | undefined {
    if (limits.burstMs === undefined || LIMITS.every((name) => limits[name] === undefined)) return undefined;
    return new BudgetLevel(limits);
  }

  /** An attempt was admitted: its request and estimated tokens leave the buckets. */
  took(tokens: TokenEstimate, nowMs: number): void {
    for (let d = 0; d < LIMITS.length; d++) {
      const pace = this.pace(d, nowMs);
      if (!pace) continue;
      pace.refill(nowMs);
      pace.take(cost(d, tokens));
    }
  }

  /** An admitted attempt was not sent after all (a spend refusal, a failure before sending): what `took` took comes back. */
  gaveBack(tokens: TokenEstimate): void {
    // No refill first: capped at the burst either way, refilling before or after gives the same level.
    for (let d = 0; d < LIMITS.length; d++) {
      const pace = this.paces[d];
      if (!pace) continue;
      pace.giveBack(cost(d, tokens));
    }
  }

  /** The store refused an attempt for one of the limits: that bucket is empty now, whatever this process counted. */
  refused(reason: RefusalReason, nowMs: number): void {
    const pace = this.pace(LIMITS.indexOf(reason as (typeof LIMITS)[number]), nowMs);
    if (!pace) return;
    pace.refill(nowMs);
    pace.level = Math.min(pace.level, 0);
  }

  /** The share of the emptiest bucket left, 0 to 1; undefined before anything was taken. */
  share(nowMs: number): number | undefined {
    let share: number | undefined;
    for (const pace of this.paces) {
      if (!pace) continue;
      pace.refill(nowMs);
      share = Math.min(share ?? 1, Math.max(0, pace.level / pace.burst));
    }
    return share;
  }

  private pace(d: number, nowMs: number): Pace | undefined {
    const limit = d < 0 ? undefined : this.limits[LIMITS[d]!];
    if (limit === undefined) return undefined;
    let pace = this.paces[d];
    if (!pace) {
      const windowMs = this.limits.windowMs ?? DEFAULTS.limits.windowMs;
      const burst = configuredBurst(limit, windowMs, this.limits.burstMs!);
      this.paces[d] = pace = new Pace(limit / windowMs, burst, burst, limit, true, Infinity, nowMs);
    }
    return pace;
  }
}
