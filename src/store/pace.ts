/**
 * The four limits a budget can pace, in a fixed order (the Redis scripts use the same indexes and
 * field letters): requests, tokens (TPM), input tokens (ITPM), output tokens (OTPM).
 */
export const DIMENSIONS = 4;

/**
 * A report describes the provider's bucket as of when the request reached its limiter, which is
 * some time after it left us. Taking it as of this long after (or when the answer came, if sooner)
 * leaves the provider this much refill of slack, so requests that reach it a little early or late
 * (network and event-loop jitter) still find room instead of an empty bucket.
 */
export const SYNC_LAG_MS = 25;
/** After a 429, a burst grows back by this share of its initial size per answer that showed room: slowly. */
export const GROWTH_SHARE = 1 / 16;
/** Float drift must never turn "room enough" into a refusal. */
const EPSILON = 1e-9;

/**
 * One limit as a token bucket: `level` units refilled at `rate` a ms up to `burst`. It is the
 * budget's model of the provider's own bucket (both providers document a continuously refilled
 * one): every answer's headers re-anchor `level`, and the bucket's size is learned from them and
 * from 429s. A bucket from a report without a limit has no rate: it holds what the provider said
 * is left until the reset (`until`), and is forgotten after it.
 */
export class Pace {
  level: number;
  at: number;
  /** The send time of the lease whose report last set `level` (older reports do not move it). */
  syncedAt = -Infinity;
  /** When a 429 last halved the burst (a lease admitted before then does not halve it again). */
  shrunkAt = -Infinity;
  /**
   * Everything taken so far, net of what was given back: a lease's mark is this right after it took
   * its cost, so what was taken after it is `taken - mark`, whatever the level did meanwhile.
   */
  taken = 0;

  constructor(
    public rate: number,
    public burst: number,
    /** What growth steps are a share of: the configured burst, or the first reported bucket. */
    public initial: number,
    /** The burst never grows past this (the configured limit). */
    public ceiling: number,
    /** Set from the budget's own limits (false: only from the provider's reports). */
    readonly configured: boolean,
    public until: number,
    nowMs: number,
  ) {
    this.level = burst;
    this.at = nowMs;
  }

  /** False once a rate-less report has passed its reset: the pace says nothing any more. */
  active(nowMs: number): boolean {
    return this.rate > 0 || this.until > nowMs;
  }

  refill(nowMs: number): void {
    if (nowMs <= this.at) return;
    if (this.rate > 0) this.level = Math.min(this.burst, this.level + (nowMs - this.at) * this.rate);
    this.at = nowMs;
  }

  /**
   * Milliseconds until `cost` may go, or 0 when it may go now. A cost larger than the whole burst
   * goes when the bucket is full and leaves it in debt, so the bucket keeps the rate.
   */
  waitFor(cost: number, nowMs: number): number {
    this.refill(nowMs);
    const need = Math.min(cost, this.burst);
    if (this.level + EPSILON >= need) return 0;
    if (this.rate > 0) return Math.max(1, Math.ceil((need - this.level) / this.rate));
    return this.until - nowMs;
  }

  /** Takes what a lease costs; returns its mark (see `taken`). */
  take(cost: number): number {
    this.level -= cost;
    this.taken += cost;
    return this.taken;
  }

  giveBack(amount: number): void {
    this.level = Math.min(this.burst, this.level + amount);
    this.taken -= amount;
  }

  /** A burst shrunk below `level` takes the excess with it. */
  clamp(): void {
    if (this.level > this.burst) this.level = this.burst;
  }

  /** Nothing learned and nothing owed: the pace can be forgotten and made again the same. */
  idle(nowMs: number): boolean {
    if (this.rate === 0) return this.until <= nowMs;
    this.refill(nowMs);
    return this.level >= this.burst && this.burst >= this.initial;
  }
}

/**
 * A pace for a configured limit: it refills at `limit / windowMs` and starts full, with a burst of
 * `burstMs` worth of the limit (at least one unit, at most the limit).
 */
export function configuredBurst(limit: number, windowMs: number, burstMs: number): number {
  return Math.min(limit, Math.max(1, (limit * burstMs) / windowMs));
}

/** What one report says of one window. */
export interface Report {
  remaining: number;
  resetMs: number;
  limit?: number;
}

/**
 * Re-anchors `pace` on a report. With the lease it came back on (`sentAt`, `mark`): the provider
 * had `remaining` left just after counting that request, taken SYNC_LAG_MS after it left; since
 * then it refilled at the rate and has been (or will be) charged what was admitted after it. So the
 * level is `remaining + rate × (now - then) - (taken - mark)`, at most the burst. A lease admitted
 * before the pace existed (`mark` NaN) counts `inflightAfter` instead, what the leases admitted
 * after it still hold. Without a lease (settled after its TTL ran out) the report is as of now,
 * everything counted. Reports older than the last one applied do not move it.
 */
export function syncPace(pace: Pace, report: Report, sentAt: number | undefined, mark: number, inflightAfter: number, nowMs: number, ownCap = false): void {
  if (sentAt !== undefined && sentAt < pace.syncedAt) return;
  let level = report.remaining;
  if (sentAt !== undefined) {
    const anchor = sentAt + Math.min(SYNC_LAG_MS, Math.max(0, nowMs - sentAt));
    level += pace.rate * (nowMs - anchor) - (Number.isNaN(mark) ? inflightAfter : pace.taken - mark);
  }
  // A configured request limit below the account's (the report names a larger limit) is the budget's
  // own cap, and a request's cost is exact: the report can say the provider has less room than
  // modelled, never more than the configured rate refilled (else such a limit held only as its rolling
  // window: a burst, then a stall). Token paces reserve worst cases, so their reports still correct
  // them upwards; a configured limit equal to the account's follows the provider's bucket.
  if (ownCap && pace.configured && report.limit !== undefined && report.limit > pace.ceiling) {
    pace.refill(nowMs);
    level = Math.min(level, pace.level);
  }
  pace.level = Math.min(pace.burst, level);
  pace.at = Math.max(pace.at, nowMs);
  pace.syncedAt = sentAt ?? nowMs;
  if (pace.rate === 0) pace.until = nowMs + report.resetMs;
}

/**
 * Learns the provider's bucket for a configured limit from a report that names it: with the refill
 * rate known (`limit / windowMs`), what is left now plus what refills before it is full again is
 * its size (`remaining + reset × limit / windowMs`: a minute's worth for a per-minute bucket, a
 * second's for per-second enforcement). A smaller bucket than the burst shrinks the burst at once;
 * a larger one is taken as it is until the first 429, and after one the burst grows back towards
 * it by a sixteenth of its initial size per answer; never on a 429, never past the configured limit.
 */
export function learnBurst(pace: Pace, report: Report, windowMs: number, rateLimited: boolean): void {
  if (!pace.configured || report.limit === undefined) return;
  const bucket = report.remaining + (report.resetMs * report.limit) / windowMs;
  if (bucket < pace.burst) pace.burst = Math.max(1, bucket);
  else if (!rateLimited) {
    const grown = pace.shrunkAt === -Infinity ? bucket : pace.burst + pace.initial * GROWTH_SHARE;
    pace.burst = Math.min(grown, bucket, pace.ceiling);
  }
  pace.clamp();
}

/**
 * A configured pace whose burst is smaller than one request's `cost` lets that request out once the
 * burst is there and goes into debt (pace.waitFor): right while nothing says the provider's bucket is
 * larger, wrong once a report shows it is (`remaining + reset × limit / windowMs`, as learnBurst
 * reads it). Then the provider refuses any request it cannot charge whole, so the burst is raised to
 * the cost (at most that bucket, never past the configured limit): the request waits until the
 * modelled bucket holds all of it. After every settle, a 429's halving included.
 */
export function holdCost(pace: Pace, report: Report, cost: number, windowMs: number): void {
  if (!pace.configured || report.limit === undefined || cost <= pace.burst) return;
  const bucket = report.remaining + (report.resetMs * report.limit) / windowMs;
  pace.burst = Math.max(pace.burst, Math.min(cost, bucket, pace.ceiling));
}

/** A pace for a window the provider reported and the budget does not configure (see `refreshReported`). */
export function reportedPace(nowMs: number): Pace {
  const pace = new Pace(0, Infinity, Infinity, Infinity, false, nowMs, nowMs);
  pace.level = 0; // set by the report it is made for
  return pace;
}

/**
 * A window the budget does not configure follows each report: the provider's bucket holds `limit`
 * and is full again at the reset, so room comes back at `(limit - remaining) / reset` a ms. Without
 * the limit, nothing is assumed back before the reset, and the pace is forgotten after it.
 */
export function refreshReported(pace: Pace, report: Report, nowMs: number): void {
  pace.refill(nowMs);
  const { remaining, resetMs, limit } = report;
  pace.rate = limit !== undefined && resetMs > 0 && limit > remaining ? (limit - remaining) / resetMs : 0;
  pace.burst = limit ?? Infinity;
  pace.initial = pace.burst;
  pace.until = pace.rate > 0 ? Infinity : nowMs + resetMs;
}

/**
 * A 429 on a request the budget admitted: the provider's bucket is smaller than the burst, so it
 * halves (once per round: leases admitted before the last halving do not halve it again).
 */
export function shrinkBurst(pace: Pace, sentAt: number, nowMs: number): void {
  if (sentAt < pace.shrunkAt) return;
  pace.burst = Math.max(1, pace.burst / 2);
  pace.shrunkAt = nowMs;
  pace.clamp();
}

/** An answer that showed room, without a report of this window: a shrunk burst grows back towards its initial size. */
export function regrowBurst(pace: Pace): void {
  if (pace.burst < pace.initial) pace.burst = Math.min(pace.initial, pace.burst + pace.initial * GROWTH_SHARE);
}
