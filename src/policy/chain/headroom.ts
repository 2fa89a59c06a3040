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
export function headroom(target: TargetRuntime, endpoint: Endpoint, nowMs: number): number {
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
