import { DEFAULTS } from './defaults.js';

/** How a pool orders its members for a call (`pick`). */
export type PoolPick = 'headroom' | 'round_robin' | 'latency' | 'weighted';

/** A pool step, resolved: shared by its members' targets. */
export interface PoolOf {
  /** `chain[step]`: consecutive targets with one id form the pool. */
  id: string;
  pick: PoolPick;
  /** `weighted`: each member's weight, in member order. */
  weights?: readonly number[];
  /** `weighted`: what keeps a caller on one member. */
  sticky?: 'tenant' | 'user';
}

/** A pool step as parsed: its members as written, and how it picks. */
interface PoolStep {
  pool: ReadonlyArray<string | { provider: string; model: string }>;
  pick?: PoolOf['pick'];
  weights?: Record<string, number>;
  sticky?: 'tenant' | 'user' | false;
}

const memberKey = (m: PoolStep['pool'][number]): string => (typeof m === 'string' ? m : `${m.provider}:${m.model}`);

/**
 * Resolves one pool step, pushing what is wrong with its `weights` and `sticky` onto `problems`:
 * both belong to `pick: 'weighted'`, which needs a weight for every member (keyed as written,
 * `provider:model`), none negative or unknown, not all zero.
 */
export function poolOf(id: string, step: PoolStep, path: string, problems: string[]): PoolOf {
  const pick = step.pick ?? DEFAULTS.pool.pick;
  const pool: PoolOf = { id, pick };
  if (pick !== 'weighted') {
    if (step.weights !== undefined) problems.push(`${path}.weights: weights need pick: 'weighted' (this pool picks by '${pick}')`);
    if (step.sticky !== undefined && step.sticky !== false) problems.push(`${path}.sticky: sticky needs pick: 'weighted' (this pool picks by '${pick}')`);
    return pool;
  }
  const keys = step.pool.map(memberKey);
  const weights = step.weights;
  if (weights === undefined) {
    problems.push(`${path}.weights: pick 'weighted' needs weights, one per member: { ${keys.map((k) => `'${k}': 1`).join(', ')} }`);
    return pool;
  }
  const before = problems.length;
  for (const [name, w] of Object.entries(weights)) {
    if (!keys.includes(name)) problems.push(`${path}.weights: '${name}' is not a member of this pool (members: ${keys.join(', ')})`);
    else if (!Number.isFinite(w) || w < 0) problems.push(`${path}.weights['${name}']: a weight is a number of 0 or more (got ${w})`);
  }
  for (const key of keys) if (!Object.hasOwn(weights, key)) problems.push(`${path}.weights: no weight for member '${key}'`);
  if (problems.length === before && keys.every((k) => weights[k] === 0)) problems.push(`${path}.weights: every weight is 0, so no member would get a call`);
  pool.weights = keys.map((k) => weights[k] ?? 0);
  if (step.sticky) pool.sticky = step.sticky;
  return pool;
}
