import { idleDecayed, latencyScore } from '../../decide/peak-ewma.js';
import { lowerMedian, p2cOrder } from '../../decide/p2c-order.js';
import type { Endpoint, TargetRuntime } from '../state/target-runtime.js';
import { headroom } from './headroom.js';

/** What one latency pool reuses from call to call: its members' scores and order, so a pick allocates nothing. */
class Scratch {
  readonly scores: Float64Array;
  readonly stamps: Float64Array;
  readonly averages: Float64Array;
  readonly order: Int32Array;
  readonly members: Int32Array;

  constructor(size: number) {
    this.scores = new Float64Array(size);
    this.stamps = new Float64Array(size);
    this.averages = new Float64Array(size);
    this.order = new Int32Array(size);
    this.members = new Int32Array(size);
  }
}

/**
 * `pick: 'latency'`: orders the pool `targets[from..to)` into `out`. The members that may be sent to
 * now (breaker admitting, room in their budgets: what `headroom` counts above 0) are ordered by power
 * of two choices on peak-EWMA latency x (in flight + 1), the winner first and the rest by score; a
 * member never measured scores as the pool's median (so it is tried); a member whose requests still
 * awaiting their answer have waited longer, on average, than its latency scores that wait instead
 * (so a member that turned slow loses picks before its first slow answer is back); the others follow in
 * configured order, for the call's own rules (cooling, breakers) to skip as they do everywhere.
 */
export class LatencyPick {
  private readonly scratch = new Map<string, Scratch>();

  constructor(private readonly random: () => number) {}

  order(targets: readonly TargetRuntime[], from: number, to: number, poolId: string, nowMs: number,
    endpointOf: (t: TargetRuntime) => Endpoint, stream: boolean, out: TargetRuntime[]): void {
    const size = to - from;
    let s = this.scratch.get(poolId);
    if (!s) this.scratch.set(poolId, (s = new Scratch(size)));
    // The members that may be sent to, and the pool's median of their averages.
    let n = 0;
    let measured = 0;
    for (let k = 0; k < size; k++) {
      const t = targets[from + k]!;
      const endpoint = endpointOf(t);
      if (headroom(t, endpoint, nowMs) <= 0) continue;
      s.members[n++] = k;
      const avg = endpoint.latency?.of(stream);
      if (avg?.measured) s.averages[measured++] = avg.averageMs;
    }
    const median = lowerMedian(s.averages, measured);
    for (let i = 0; i < n; i++) {
      const endpoint = endpointOf(targets[from + s.members[i]!]!);
      const avg = endpoint.latency?.of(stream);
      const measuredHere = avg?.measured === true;
      const latency = measuredHere ? idleDecayed(avg.averageMs, nowMs - avg.atMs, median) : median;
      // Requests out longer than that are slower already: a brownout counts from its first late answer's send, not its return.
      s.scores[i] = latencyScore(avg === undefined ? latency : Math.max(latency, avg.awaitingAgeMs(nowMs)), endpoint.load.inflight);
      s.stamps[i] = measuredHere ? avg.atMs : -Infinity;
    }
    const r1 = n >= 3 ? this.random() : 0;
    const r2 = n >= 3 ? this.random() : 0;
    p2cOrder(s.scores, s.stamps, n, r1, r2, s.order);
    for (let i = 0; i < n; i++) out.push(targets[from + s.members[s.order[i]!]!]!);
    // The members that may not be sent to now, in configured order.
    for (let k = 0, i = 0; k < size; k++) {
      if (i < n && s.members[i] === k) i++;
      else out.push(targets[from + k]!);
    }
  }
}
