import { peakEwma } from '../../decide/peak-ewma.js';

/** One peak-EWMA average and when it was last updated (NaN: never measured). */
export class LatencyAverage {
  averageMs = 0;
  atMs = Number.NaN;

  get measured(): boolean {
    return this.atMs === this.atMs;
  }

  observe(sampleMs: number, nowMs: number): void {
    if (!this.measured) this.averageMs = sampleMs;
    else this.averageMs = peakEwma(this.averageMs, nowMs - this.atMs, sampleMs);
    this.atMs = nowMs;
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
