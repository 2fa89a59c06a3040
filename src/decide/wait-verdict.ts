/** A target of the chain that is out of rotation for a known time (cooling after a 429 with a hint). */
export interface WaitCandidate {
  /** Its place in the chain. */
  index: number;
  /** Milliseconds until it is known to accept again. */
  availableInMs: number;
  /** How long a call may queue for this target (its `limits.maxQueueMs`, default `retry.maxInlineWaitMs`). */
  maxQueueMs: number;
}

export type WaitVerdict =
  /** Queue for this target until it accepts (`forMs` from now). */
  | { wait: true; index: number; forMs: number }
  /** No wait fits: the call ends now, and `soonestMs` (if any target comes back at all) is why. */
  | { wait: false; soonestMs?: number };

/**
 * Whether a call whose chain has no target left to try now should wait for one rather than fail
 * (pure): `blocked` lists the targets that are out for a known time (the others failed in a way no
 * wait fixes); the call waits for the soonest of them that comes back within its own queue limit
 * and before the call's deadline (`remainingMs`). Ties go to the target earlier in the chain.
 * @example waitVerdict([{ index: 0, availableInMs: 900, maxQueueMs: 5_000 }], undefined) // { wait: true, index: 0, forMs: 900 }
 */
export function waitVerdict(blocked: readonly WaitCandidate[], remainingMs: number | undefined): WaitVerdict {
  let best: WaitCandidate | undefined;
  for (const c of blocked) {
    if (c.availableInMs > c.maxQueueMs) continue;
    if (remainingMs !== undefined && c.availableInMs >= remainingMs) continue;
    if (!best || c.availableInMs < best.availableInMs) best = c;
  }
  if (best) return { wait: true, index: best.index, forMs: Math.max(0, best.availableInMs) };
  let soonestMs: number | undefined;
  for (const c of blocked) soonestMs = Math.min(soonestMs ?? Infinity, Math.max(0, c.availableInMs));
  return soonestMs === undefined ? { wait: false } : { wait: false, soonestMs };
}
