import type { RateLimitWindow } from '../../types.js';
import type { Endpoint, EndpointLoad, TargetRuntime } from '../state/target-runtime.js';

/** The share of a window the provider has left now: what it reported, refilled linearly until its reset. */
function windowShare(w: RateLimitWindow | undefined, elapsedMs: number, inflight: number): number | undefined {
  if (!w || w.limit === undefined || w.remaining === undefined || w.limit <= 0) return undefined;
  const refill = w.resetMs && w.resetMs > 0 ? Math.min(1, elapsedMs / w.resetMs) : elapsedMs > 0 ? 1 : 0;
  const now = w.remaining + (w.limit - w.remaining) * refill;
  return (now - inflight) / w.limit;
}

/**
 * How much room a member has, from 0 (none) to 1 (all of it): the least of its local budget's paced
 * room (as this process counts it, no store round trip), of what the provider last reported for
 * requests and tokens (refilled towards its reset, less the requests this process has in flight
 * there) and of its concurrency budget. A member whose breaker is open sorts last.
 */
function headroom(target: TargetRuntime, endpoint: Endpoint, nowMs: number): number {
  const load: EndpointLoad = endpoint.load;
  if (!target.breaker.admits()) return -1;
  let room = load.level?.share(nowMs) ?? 1;
  const elapsed = load.reportedAtMs === undefined ? 0 : nowMs - load.reportedAtMs;
  const requests = windowShare(load.reported?.requests, elapsed, load.inflight);
  if (requests !== undefined) room = Math.min(room, requests);
  const tokens = windowShare(load.reported?.tokens, elapsed, 0);
  if (tokens !== undefined) room = Math.min(room, tokens);
  const concurrency = endpoint.budget.limits.concurrency;
  if (concurrency !== undefined) room = Math.min(room, (concurrency - load.inflight) / concurrency);
  return room;
}

/** Which endpoint of a target a call uses: chat (and streams), or embeddings. */
export const chatEndpoint = (t: TargetRuntime): Endpoint => t.chat;
export const embeddingsEndpoint = (t: TargetRuntime): Endpoint => t.embeddings;

/**
 * A chain's targets in the order one call tries them: a pool's members by headroom (most room
 * first; ties keep the configured order) or in turns (`round_robin`); everything else as configured.
 * A chain without pools is returned as it is.
 */
export class PoolOrder {
  private readonly turns = new Map<string, number>();
  /** Whether a chain's target list holds a pool: fixed by the config, so worked out once per list. */
  private readonly pooled = new WeakMap<readonly TargetRuntime[], boolean>();

  order(targets: readonly TargetRuntime[], nowMs: number, endpointOf: (t: TargetRuntime) => Endpoint = chatEndpoint): readonly TargetRuntime[] {
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
      const members = targets.slice(i, j);
      if (pool.pick === 'round_robin') {
        const turn = this.turns.get(pool.id) ?? 0;
        this.turns.set(pool.id, turn + 1);
        for (let k = 0; k < members.length; k++) out.push(members[(turn + k) % members.length]!);
      } else {
        const scored = members.map((m, k) => ({ m, k, room: headroom(m, endpointOf(m), nowMs) }));
        scored.sort((a, b) => b.room - a.room || a.k - b.k);
        for (const s of scored) out.push(s.m);
      }
      i = j;
    }
    return out;
  }
}
