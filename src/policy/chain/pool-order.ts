import type { Endpoint, TargetRuntime } from '../state/target-runtime.js';
import { headroom } from './headroom.js';
import { LatencyPick } from './latency-pick.js';
import { WeightedPick } from './weighted-pick.js';

/** What a weighted pool with `sticky` reads of a call: its tenant, or its end user. */
export interface StickyKeys {
  readonly tenant?: string;
  readonly user?: string;
}

/** Which endpoint of a target a call uses: chat (and streams), or embeddings. */
export const chatEndpoint = (t: TargetRuntime): Endpoint => t.chat;
export const embeddingsEndpoint = (t: TargetRuntime): Endpoint => t.embeddings;

/**
 * A chain's targets in the order one call tries them: a pool's members by headroom (most room
 * first; ties keep the configured order), in turns (`round_robin`), by power of two choices on
 * their latency (`latency`, src/policy/chain/latency-pick.ts) or by weight, sticky per tenant or
 * user if asked (`weighted`, src/policy/chain/weighted-pick.ts); everything else as configured.
 * A chain without pools is returned as it is.
 */
export class PoolOrder {
  private readonly turns = new Map<string, number>();
  /** Whether a chain's target list holds a pool: fixed by the config, so worked out once per list. */
  private readonly pooled = new WeakMap<readonly TargetRuntime[], boolean>();
  private readonly latency: LatencyPick;
  private readonly weighted: WeightedPick;

  /** `random`: the router's injected source (seeded in tests), for the picks that draw. */
  constructor(random: () => number = Math.random) {
    this.latency = new LatencyPick(random);
    this.weighted = new WeightedPick(random);
  }

  /**
   * `stream`: the call is a stream, so a latency pool scores members by their time to first token.
   * `keys`: the call's tenant and user, for a weighted pool with `sticky` (usually the request).
   */
  order(targets: readonly TargetRuntime[], nowMs: number, endpointOf: (t: TargetRuntime) => Endpoint = chatEndpoint, stream = false, keys?: StickyKeys): readonly TargetRuntime[] {
    let pooled = this.pooled.get(targets);
    if (pooled === undefined) this.pooled.set(targets, (pooled = targets.some((t) => t.target.pool)));
    if (!pooled) return targets;
    const out: TargetRuntime[] = [];
    for (let i = 0; i < targets.length;) {
      const pool = targets[i]!.target.pool;
      if (!pool) {
        out.push(targets[i++]!);
        continue;
      }
      let j = i;
      while (j < targets.length && targets[j]!.target.pool?.id === pool.id) j++;
      if (pool.pick === 'weighted') {
        const sticky = pool.sticky === 'tenant' ? keys?.tenant : pool.sticky === 'user' ? keys?.user : undefined;
        this.weighted.order(targets, i, j, pool.id, pool.weights!, nowMs, endpointOf, sticky, out);
      } else if (pool.pick === 'latency') {
        this.latency.order(targets, i, j, pool.id, nowMs, endpointOf, stream, out);
      } else if (pool.pick === 'round_robin') {
        const members = targets.slice(i, j);
        const turn = this.turns.get(pool.id) ?? 0;
        this.turns.set(pool.id, turn + 1);
        for (let k = 0; k < members.length; k++) out.push(members[(turn + k) % members.length]!);
      } else {
        const members = targets.slice(i, j);
        const scored = members.map((m, k) => ({ m, k, room: headroom(m, endpointOf(m), nowMs) }));
        scored.sort((a, b) => b.room - a.room || a.k - b.k);
        for (const s of scored) out.push(s.m);
      }
      i = j;
    }
    return out;
  }
}
