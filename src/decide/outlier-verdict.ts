import type { BreakerOutcome } from './breaker-verdict.js';

/**
 * A pool step's `outlier` settings, every field resolved (docs/routing.md, "Outlier ejection"). A
 * rule set to 0 is off. Modelled on Envoy's outlier detection (consecutive 5xx, success rate,
 * ejection time = base x times ejected, max ejection percent).
 */
export interface OutlierPolicy {
  /** Counted failures in a row that eject a member. */
  readonly consecutiveFailures: number;
  /** A member whose success rate is below this fraction of the other members' is ejected. */
  readonly successRateBelow: number;
  /** A member whose p50 latency is above this many times the other members' median p50 is ejected. */
  readonly latencyAboveMedianX: number;
  /** The first ejection's length; the n-th lasts n times as long, capped (`ejectionMs`). */
  readonly ejectMs: number;
  /** The most of the pool's members ejected at once, in percent; one always stays in (and one may always go). */
  readonly maxEjectedPercent: number;
}

/** Why a member was ejected: a rule's verdict, or its return probe failing or answering slowly. */
export type OutlierReason = 'consecutive_failures' | 'success_rate' | 'latency' | 'probe_failed' | 'probe_slow';

/** The outcomes (and latencies of answers) a member's window holds: its last this many. */
export const OUTLIER_WINDOW = 20;
/** The success-rate rule judges a member only with this many verdicts in its window (and the others together with as many). */
export const MIN_RATE_VOLUME = 10;
/** The latency rule judges a member only with this many answers' latencies in its window. */
export const MIN_LATENCY_SAMPLES = 5;
/** The longest ejection (Envoy's `max_ejection_time` default), unless `ejectMs` itself is longer. */
export const MAX_EJECTION_MS = 300_000;

/** What one member's window shows. */
export interface MemberRecord {
  /** Counted failures since its last answer. */
  readonly consecutiveFailures: number;
  /** Verdicts (answers and counted failures) in its window, and how many of them failed. */
  readonly outcomes: number;
  readonly failures: number;
  /** The median latency of the answers in its window (undefined with fewer than MIN_LATENCY_SAMPLES). */
  readonly p50Ms: number | undefined;
}

/** What the pool's other members in service show, taken together. */
export interface PeersRecord {
  /** Their answers over their verdicts (undefined with fewer than MIN_RATE_VOLUME verdicts among them). */
  readonly successRate: number | undefined;
  /** The median of their p50 latencies (undefined when none has MIN_LATENCY_SAMPLES). */
  readonly medianP50Ms: number | undefined;
}

/**
 * Whether a member in service is an outlier, and by which rule (the first that holds, in the order
 * of the settings): `consecutiveFailures` in a row; a success rate under `successRateBelow` times its
 * peers' (relative, so a provider-wide outage ejects nobody: that is the breaker's); a p50 latency
 * above `latencyAboveMedianX` times its peers' median p50.
 * @example outlierReason({ consecutiveFailures: 5, outcomes: 5, failures: 5, p50Ms: undefined }, { successRate: 1, medianP50Ms: 100 }, policy) // 'consecutive_failures'
 */
export function outlierReason(m: MemberRecord, peers: PeersRecord, policy: OutlierPolicy): OutlierReason | undefined {
  if (policy.consecutiveFailures > 0 && m.consecutiveFailures >= policy.consecutiveFailures) return 'consecutive_failures';
  if (policy.successRateBelow > 0 && m.outcomes >= MIN_RATE_VOLUME && peers.successRate !== undefined
    && (m.outcomes - m.failures) / m.outcomes < policy.successRateBelow * peers.successRate) return 'success_rate';
  if (policy.latencyAboveMedianX > 0 && m.p50Ms !== undefined && peers.medianP50Ms !== undefined
    && m.p50Ms > policy.latencyAboveMedianX * peers.medianP50Ms) return 'latency';
  return undefined;
}

/**
 * The one request an ejected member gets when its time is up: an answer returns it (unless the
 * latency rule is on and the answer took longer than that rule allows), a counted failure ejects it
 * again, anything neutral (a 429, the caller's abort) decides nothing and the next call probes.
 */
export function probeVerdict(outcome: BreakerOutcome, latencyMs: number | undefined, peersMedianP50Ms: number | undefined, policy: OutlierPolicy): 'return' | 'probe_failed' | 'probe_slow' | undefined {
  if (outcome === 'neutral') return undefined;
  if (outcome === 'failure') return 'probe_failed';
  if (policy.latencyAboveMedianX > 0 && latencyMs !== undefined && peersMedianP50Ms !== undefined && latencyMs > policy.latencyAboveMedianX * peersMedianP50Ms) return 'probe_slow';
  return 'return';
}

/** Whether one more member may be ejected: fewer than `maxEjectedPercent` of `members` are out (at least one may be, never all). */
export function mayEject(ejected: number, members: number, maxEjectedPercent: number): boolean {
  const cap = Math.min(members - 1, Math.max(1, Math.floor((members * maxEjectedPercent) / 100)));
  return ejected < cap;
}

/** How long the `ejections`-th ejection (1 for the first) lasts: `ejectMs` times it, at most MAX_EJECTION_MS (or `ejectMs` when longer). */
export function ejectionMs(ejections: number, ejectMs: number): number {
  return Math.min(ejectMs * ejections, Math.max(ejectMs, MAX_EJECTION_MS));
}

/**
 * The ejections a member still counts after serving `servedMs` since it last returned: one is
 * forgiven for every whole `ejectMs` it served (as Envoy lowers its multiplier while a host stays healthy).
 */
export function ejectionsAfterService(ejections: number, servedMs: number, ejectMs: number): number {
  return Math.max(0, ejections - Math.floor(servedMs / ejectMs));
}

/** The median of the first `n` values of `sorted` (ascending). */
export function medianOfSorted(sorted: ArrayLike<number>, n: number): number {
  const mid = n >> 1;
  return n % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}
