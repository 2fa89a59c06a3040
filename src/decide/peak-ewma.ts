/**
 * Peak-sensitive EWMA of a member's latency, as Finagle's and Linkerd's `peakEwma` balancers keep
 * it: a sample above the average replaces it at once (a slowdown is believed at once), a sample
 * below it is blended in with weight `1 - exp(-gap / TAU)`, where `gap` is the time since the
 * previous sample (so a member answering often moves slowly, one not heard from for long moves to
 * its new sample almost entirely). Read while idle, the average decays towards the pool's median
 * with the same time constant, so a member that was slow is tried again once it has been left
 * alone long enough; past IDLE_FLOOR of weight left, it is the median exactly.
 */

/** The time constant of both the blend and the idle decay (Finagle's and Linkerd's default). */
export const LATENCY_TAU_MS = 10_000;
/** Below this weight of its own average, an idle member scores the pool's median exactly (after ~4.6 TAU, 46 s). */
export const IDLE_FLOOR = 0.01;
/** The least latency a score counts with, so a member measured at 0 ms still weighs its in-flight calls. */
export const MIN_LATENCY_MS = 1;

/** The average after one sample, given the previous average and how long ago it was last updated. */
export function peakEwma(average: number, gapMs: number, sampleMs: number): number {
  if (sampleMs >= average) return sampleMs;
  const w = Math.exp(-Math.max(0, gapMs) / LATENCY_TAU_MS);
  return average * w + sampleMs * (1 - w);
}

/** The average as read `idleMs` after its last sample: decayed towards `median`. */
export function idleDecayed(average: number, idleMs: number, median: number): number {
  const w = Math.exp(-Math.max(0, idleMs) / LATENCY_TAU_MS);
  return w < IDLE_FLOOR ? median : median + (average - median) * w;
}

/** A member's P2C score: its (decayed) latency times its requests in flight plus one. Lower is better. */
export function latencyScore(latencyMs: number, inflight: number): number {
  return Math.max(MIN_LATENCY_MS, latencyMs) * (inflight + 1);
}
