import { peakEwma } from '../../decide/peak-ewma.js';

/**
 * One peak-EWMA average and when it was last updated (NaN: never measured), and the requests sent
 * and not yet answered (for a stream: no first token yet), as a count and the sum of their send times.
 */
export class LatencyAverage {
  averageMs = 0;
  atMs = Number.NaN;
  awaiting = 0;
  private awaitingSinceSumMs = 0;

  get measured(): boolean {
    return this.atMs === this.atMs;
  }

  observe(sampleMs: number, nowMs: number): void {
    if (!this.measured) this.averageMs = sampleMs;
    else this.averageMs = peakEwma(this.averageMs, nowMs - this.atMs, sampleMs);
    this.atMs = nowMs;
  }

  /** A request was sent at `sentAtMs`; `answered` with the same time when it ends, however it ends. */
  sent(sentAtMs: number): void {
    this.awaiting++;
    this.awaitingSinceSumMs += sentAtMs;
  }

  answered(sentAtMs: number): void {
    this.awaiting--;
    // Back at none, start the sum afresh, so no rounding is carried from one busy spell to the next.
    this.awaitingSinceSumMs = this.awaiting === 0 ? 0 : this.awaitingSinceSumMs - sentAtMs;
  }

  /** How long, on average, the requests awaiting their answer have waited so far (0 when none does). */
  awaitingAgeMs(nowMs: number): number {
    return this.awaiting === 0 ? 0 : nowMs - this.awaitingSinceSumMs / this.awaiting;
  }
}

/**
 * What a `pick: 'latency'` pool knows of how fast one endpoint answers, fed by every answered attempt
 * (src/policy/steps/record-outcome.ts): whole latency for chat and embeddings (each endpoint has its
 * own tracker), time to first visible token for streams. Only endpoints of a latency pool have one,
 * so a chain without such a pool pays nothing.
 */
export class LatencyTracker {
  readonly whole = new LatencyAverage();
  readonly firstToken = new LatencyAverage();

  /** The average a call of this kind is scored by. */
  of(stream: boolean): LatencyAverage {
    return stream ? this.firstToken : this.whole;
  }

  /** Records an answered attempt: for a stream `latencyMs` is its time to first token. */
  observe(stream: boolean, latencyMs: number, nowMs: number): void {
    (stream ? this.firstToken : this.whole).observe(latencyMs, nowMs);
  }
}
