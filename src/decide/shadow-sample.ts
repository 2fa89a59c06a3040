/**
 * Whether a successful call of a shadowed chain is copied to a shadow target: `send`, or why not.
 * `draw` is one value in [0, 1) from the router's `random` (one draw per call, so a seeded random
 * sends an exact share); a draw below `percent / 100` is sampled. A sampled copy beyond the chain's
 * `maxInFlight` shadows is dropped (`load`): shadows are the first thing shed, and never queue.
 */
export type ShadowVerdict = 'send' | 'unsampled' | 'load';

export function shadowVerdict(draw: number, percent: number, inFlight: number, maxInFlight: number): ShadowVerdict {
  if (draw * 100 >= percent) return 'unsampled';
  return inFlight >= maxInFlight ? 'load' : 'send';
}
