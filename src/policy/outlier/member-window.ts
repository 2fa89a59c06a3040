import { MIN_LATENCY_SAMPLES, OUTLIER_WINDOW, medianOfSorted, type MemberRecord } from '../../decide/outlier-verdict.js';

/**
 * One pool member's recent record, allocation-free after construction: its last OUTLIER_WINDOW
 * verdicts (answer or counted failure), the latencies of its last OUTLIER_WINDOW answers with their
 * median kept current, and its counted failures in a row. Emptied when the member is ejected, so a
 * member that returns is judged on what it does after.
 */
export class MemberWindow implements MemberRecord {
  consecutiveFailures = 0;
  outcomes = 0;
  failures = 0;
  p50Ms: number | undefined = undefined;
  private readonly failed = new Uint8Array(OUTLIER_WINDOW);
  private next = 0;
  private readonly latencies = new Float64Array(OUTLIER_WINDOW);
  private readonly sorted = new Float64Array(OUTLIER_WINDOW);
  private latencyCount = 0;
  private latencyNext = 0;

  /** A verdict: an answer (`ok`) or a counted failure. */
  outcome(ok: boolean): void {
    if (ok) this.consecutiveFailures = 0;
    else this.consecutiveFailures++;
    if (this.outcomes === OUTLIER_WINDOW) this.failures -= this.failed[this.next]!;
    else this.outcomes++;
    this.failed[this.next] = ok ? 0 : 1;
    if (!ok) this.failures++;
    this.next = (this.next + 1) % OUTLIER_WINDOW;
  }

  /** An answer's latency (time to the answer, or to a stream's first token). */
  latency(ms: number): void {
    this.latencies[this.latencyNext] = ms;
    this.latencyNext = (this.latencyNext + 1) % OUTLIER_WINDOW;
    if (this.latencyCount < OUTLIER_WINDOW) this.latencyCount++;
    if (this.latencyCount < MIN_LATENCY_SAMPLES) return;
    // An insertion sort of at most OUTLIER_WINDOW numbers into a buffer kept for it: no array per answer.
    const n = this.latencyCount;
    const sorted = this.sorted;
    for (let i = 0; i < n; i++) {
      const x = this.latencies[i]!;
      let j = i;
      while (j > 0 && sorted[j - 1]! > x) {
        sorted[j] = sorted[j - 1]!;
        j--;
      }
      sorted[j] = x;
    }
    this.p50Ms = medianOfSorted(sorted, n);
  }

  /** Forgets everything (an ejection). */
  clear(): void {
    this.consecutiveFailures = 0;
    this.outcomes = 0;
    this.failures = 0;
    this.p50Ms = undefined;
    this.next = 0;
    this.latencyCount = 0;
    this.latencyNext = 0;
  }
}
