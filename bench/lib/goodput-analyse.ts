import { failureLabel } from './arms.js';
import type { Spent } from './goodput-arms.js';
import type { CallRecord } from './load.js';
import { countBetween, total, type SimTimeline } from './sim-process.js';
import { quantile } from './stats.js';

/** A target's `limits.maxQueueMs` by default (`retry.maxInlineWaitMs`). */
const DEFAULT_MAX_QUEUE_MS = 5_000;

/** The windows one case's provider enforces, per `windowMs` (the compressed minute). */
export interface CaseLimits {
  rpm: number;
  tpm: number;
  itpm?: number;
  otpm?: number;
  windowMs: number;
}

/** What one arm achieved in one case. */
export interface ArmResult {
  case: string;
  arm: string;
  /** Share of what the provider admits over the measured span, per window: by the limit that binds, and each. */
  goodput: number;
  binding: 'rpm' | 'tpm' | 'otpm';
  byLimit: Record<string, number>;
  /** The same over the whole run, from the exhausted start. */
  goodputWholeRun: number;
  /** ITPM spent (uncached input) and input served from the prompt cache, per window, over the ITPM limit. */
  itpmUsed?: number;
  cachedPerWindow?: number;
  attempts: number;
  attemptsPerSuccess: number;
  share429: number;
  /** 429s over every attempt of the whole run, the start included. */
  share429WholeRun: number;
  failedShare: number;
  /**
   * Router arms: failed calls whose error said a target would take them back (`retryAfterMs`) within
   * what their queue limit had left: calls that should have waited instead of failing.
   */
  failedWithinQueue: number;
  failures: Record<string, number>;
  p95WaitMs: number;
  offeredPerSec: number;
  /** Logical calls started a second in the span (callers wait for their call, so slow answers push back). */
  startedPerSec: number;
  /** 429s by half second of the run (ms since the arm started): when they came, to tell a stall from a steady leak. */
  rateLimitedAt: Record<string, number>;
  upstream: Record<string, number>;
}

export interface Span {
  startMs: number;
  fromMs: number;
  untilMs: number;
}

/**
 * Goodput against what the provider admits: from an exhausted account, every window refills exactly
 * its limit per `windowMs`, so what it can admit over a span is the limit times the span's windows.
 * The limit that binds is the one the arm used most of. Attempts and 429s are counted at the simulator.
 */
export function analyse(
  kase: string, arm: string, records: CallRecord<Spent>[], timeline: SimTimeline, provider: string,
  span: Span, limits: CaseLimits, offeredPerSec: number, maxQueueMs = DEFAULT_MAX_QUEUE_MS,
): ArmResult {
  const windows = (from: number, until: number) => (until - from) / limits.windowMs;
  const done = (from: number, until: number) => records.filter((r) => r.ok && r.endMs >= from && r.endMs < until).map((r) => r.value!);
  const utilisation = (spent: Spent[], w: number): Record<string, number> => {
    const out: Record<string, number> = { rpm: spent.length / w / limits.rpm };
    if (limits.otpm !== undefined) out.otpm = spent.reduce((s, x) => s + x.output, 0) / w / limits.otpm;
    else out.tpm = spent.reduce((s, x) => s + x.charge, 0) / w / limits.tpm;
    return out;
  };
  const spanDone = done(span.fromMs, span.untilMs);
  const spanWindows = windows(span.fromMs, span.untilMs);
  const byLimit = utilisation(spanDone, spanWindows);
  const binding = (Object.entries(byLimit).sort((a, b) => b[1] - a[1])[0]![0]) as ArmResult['binding'];
  const whole = utilisation(done(span.startMs, span.untilMs), windows(span.startMs, span.untilMs));

  const up = countBetween(timeline, provider, span.fromMs, span.untilMs);
  const upWhole = countBetween(timeline, provider, span.startMs, span.untilMs);
  const attempts = total(up);
  const measured = records.filter((r) => r.dueMs >= span.fromMs && r.dueMs < span.untilMs && r.endMs > 0);
  const failures: Record<string, number> = {};
  for (const r of measured) if (!r.ok) failures[failureLabel(r.error)] = (failures[failureLabel(r.error)] ?? 0) + 1;
  const result: ArmResult = {
    case: kase, arm, goodput: byLimit[binding]!, binding, byLimit, goodputWholeRun: whole[binding]!,
    attempts, attemptsPerSuccess: attempts / Math.max(1, up['200'] ?? 0),
    share429: (up['429'] ?? 0) / Math.max(1, attempts),
    share429WholeRun: (upWhole['429'] ?? 0) / Math.max(1, total(upWhole)),
    failedShare: measured.filter((r) => !r.ok).length / Math.max(1, measured.length),
    failedWithinQueue: measured.filter((r) => !r.ok && couldHaveWaited(r, maxQueueMs)).length,
    failures, p95WaitMs: quantile(measured.map((r) => r.endMs - r.dueMs), 0.95), offeredPerSec, upstream: up,
    startedPerSec: measured.length / ((span.untilMs - span.fromMs) / 1000),
    rateLimitedAt: rateLimitedAt(timeline, provider, span),
  };
  if (limits.itpm !== undefined) {
    result.itpmUsed = spanDone.reduce((s, x) => s + x.uncachedInput, 0) / spanWindows / limits.itpm;
    result.cachedPerWindow = spanDone.reduce((s, x) => s + x.cachedInput, 0) / spanWindows;
  }
  return result;
}

/** A router call that failed though a target was back within its queue limit (counted from when it started). */
function couldHaveWaited(r: CallRecord<Spent>, maxQueueMs: number): boolean {
  // A RouterError (its `kind`) from whichever router source the bench runs: read by shape.
  const e = r.error as { kind?: unknown; retryAfterMs?: unknown } | undefined;
  if (typeof e?.kind !== 'string' || typeof e.retryAfterMs !== 'number') return false;
  return r.endMs - r.startMs + e.retryAfterMs <= maxQueueMs;
}

function rateLimitedAt(timeline: SimTimeline, provider: string, span: Span): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [bucket, counts] of Object.entries(timeline[provider] ?? {})) {
    const at = Number(bucket) - span.startMs;
    if (!counts['429'] || at < 0 || Number(bucket) >= span.untilMs) continue;
    const half = String(Math.floor(at / 500) * 500);
    out[half] = (out[half] ?? 0) + counts['429'];
  }
  return out;
}
