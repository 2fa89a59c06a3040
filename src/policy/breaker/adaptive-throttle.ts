/**
 * Client-side adaptive throttling (Google SRE book, "Handling Overload"): over a recent window, with
 * `requests` sent and `accepts` not failed by the server, a new request is refused locally with
 * probability max(0, (requests - K * accepts) / (requests + 1)). A provider answering half its
 * requests is still worth asking (K = 2); one answering none gets a trickle that shrinks as its
 * failures pile up. Counts decay continuously with a time constant of the window, so it forgets.
 */
export class AdaptiveThrottle {
  private requests = 0;
  private accepts = 0;
  private atMs = 0;

  constructor(private readonly windowMs: number, private readonly k = 2) {}

  /** Counts one request's outcome: accepted unless the server failed it (5xx, transport, timeout). */
  record(accepted: boolean, nowMs: number): void {
    this.decay(nowMs);
    this.requests++;
    if (accepted) this.accepts++;
  }

  /** Probability that a request is refused locally right now. */
  rejectProbability(nowMs: number): number {
    this.decay(nowMs);
    return Math.max(0, (this.requests - this.k * this.accepts) / (this.requests + 1));
  }

  allows(random: () => number, nowMs: number): boolean {
    return random() >= this.rejectProbability(nowMs);
  }

  private decay(nowMs: number): void {
    const elapsed = nowMs - this.atMs;
    this.atMs = nowMs;
    if (elapsed <= 0) return;
    const keep = Math.exp(-elapsed / this.windowMs);
    this.requests *= keep;
    this.accepts *= keep;
  }
}
