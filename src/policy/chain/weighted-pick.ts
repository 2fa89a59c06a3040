import { fnv1a, rendezvousScore, unitHash, weightedDraw } from '../../decide/weighted-order.js';
import type { Endpoint, TargetRuntime } from '../state/target-runtime.js';
import { headroom } from './headroom.js';

/** What one weighted pool reuses from call to call, so a pick allocates nothing. */
class Scratch {
  readonly members: Int32Array;
  readonly scores: Float64Array;

  constructor(size: number) {
    this.members = new Int32Array(size);
    this.scores = new Float64Array(size);
  }
}

/**
 * `pick: 'weighted'`: orders the pool `targets[from..to)` into `out`. Among the members that may be
 * sent to now (breaker admitting, room in their budgets), a call with a sticky key (its tenant or
 * `user`, as the pool's `sticky` says) goes first to its rendezvous member and then to the others in
 * its rendezvous order; a call without one goes to a weighted draw of the router's random, then to
 * the others by weight. The members that may not be sent to follow, in configured order.
 */
export class WeightedPick {
  private readonly scratch = new Map<string, Scratch>();

  constructor(private readonly random: () => number) {}

  order(targets: readonly TargetRuntime[], from: number, to: number, poolId: string, weights: readonly number[], nowMs: number,
    endpointOf: (t: TargetRuntime) => Endpoint, stickyKey: string | undefined, out: TargetRuntime[]): void {
    const size = to - from;
    let s = this.scratch.get(poolId);
    if (!s) this.scratch.set(poolId, (s = new Scratch(size)));
    let n = 0;
    for (let k = 0; k < size; k++) {
      const t = targets[from + k]!;
      if (headroom(t, endpointOf(t), nowMs) > 0) s.members[n++] = k;
    }
    if (stickyKey !== undefined) {
      const seed = fnv1a(stickyKey);
      for (let i = 0; i < n; i++) {
        const k = s.members[i]!;
        s.scores[i] = rendezvousScore(unitHash(fnv1a(targets[from + k]!.target.key, fnv1a('\u0000', seed))), weights[k]!);
      }
    } else {
      const first = weightedDraw(weights, s.members, n, this.random());
      for (let i = 0; i < n; i++) s.scores[i] = weights[s.members[i]!]!;
      if (first >= 0) s.scores[first] = Infinity;
    }
    // Highest score first (insertion sort, stable: ties keep configured order).
    for (let i = 1; i < n; i++) {
      const m = s.members[i]!;
      const score = s.scores[i]!;
      let j = i - 1;
      while (j >= 0 && s.scores[j]! < score) {
        s.members[j + 1] = s.members[j]!;
        s.scores[j + 1] = s.scores[j]!;
        j--;
      }
      s.members[j + 1] = m;
      s.scores[j + 1] = score;
    }
    for (let i = 0; i < n; i++) out.push(targets[from + s.members[i]!]!);
    // The members that may not be sent to now, in configured order.
    for (let k = 0; k < size; k++) {
      let eligible = false;
      for (let i = 0; i < n && !eligible; i++) eligible = s.members[i] === k;
      if (!eligible) out.push(targets[from + k]!);
    }
  }
}
