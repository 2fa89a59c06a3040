import type { SwitchyardConfig } from './schema.js';

/**
 * One worker's share of the config's limits, for `switchyard serve --workers N` on a store of one
 * process (the memory store): every budget that counts requests, tokens, calls in flight or money is
 * divided among the workers, so together they never exceed it. Worker `index` of `count` takes
 * floor(limit / count), plus one of the remainder while `index` is below it: 5 rpm over 2 workers is
 * 3 and 2, never 3 and 3. Money (`usdPer*`) divides exactly. Shares (`tenants.*.share`), timeouts
 * and windows are not budgets and stay as they are. With a shared store (Redis) the limits are
 * exact across the fleet and nothing is divided: this is not called.
 *
 * A limit smaller than the worker count would leave some worker a share of 0, which no budget can
 * hold: that is a `WorkerShareError` naming the field, before any worker starts.
 */

/** The fields divided, wherever they sit in a budget object. */
const COUNTED = ['rpm', 'tpm', 'itpm', 'otpm', 'concurrency'] as const;
const MONEY = ['usdPerDay', 'usdPerMonth'] as const;

/** One divided limit: where it is, the whole, and this worker's share of it. */
export interface SharedLimit {
  path: string;
  total: number;
  share: number;
}

export class WorkerShareError extends Error {
  constructor(readonly path: string, total: number, count: number) {
    super(`${path} is ${total}, less than the ${count} workers: a worker's share would be 0. Use a Redis store (limits shared exactly by every worker) or at most ${total} workers`);
    this.name = 'WorkerShareError';
  }
}

type Budget = Record<string, unknown>;

const isObject = (v: unknown): v is Budget => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * A copy of the config's plain objects and arrays, keeping anything else (a fake provider's
 * functions, a zod schema) by reference, which structuredClone would refuse.
 */
function copyPlain<T>(value: T, depth = 0): T {
  if (depth > 32) return value;
  if (Array.isArray(value)) return value.map((v) => copyPlain(v, depth + 1)) as T;
  if (isObject(value) && Object.getPrototypeOf(value) === Object.prototype) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, copyPlain(v, depth + 1)])) as T;
  }
  return value;
}

/** The budget objects of a config, each with its path: provider limits (and per-model, embeddings), tenants, spend. */
function budgets(config: SwitchyardConfig): Array<[string, Budget]> {
  const out: Array<[string, Budget]> = [];
  for (const [name, provider] of Object.entries(config.providers ?? {})) {
    const limits = (provider as { limits?: unknown }).limits;
    if (!isObject(limits)) continue;
    out.push([`providers.${name}.limits`, limits]);
    if (isObject(limits.embeddings)) out.push([`providers.${name}.limits.embeddings`, limits.embeddings]);
    if (isObject(limits.models)) {
      for (const [model, m] of Object.entries(limits.models)) if (isObject(m)) out.push([`providers.${name}.limits.models.${model}`, m]);
    }
  }
  for (const [name, tenant] of Object.entries(config.tenants ?? {})) {
    if (!isObject(tenant)) continue;
    out.push([`tenants.${name}`, tenant]);
    const spend = (tenant as Budget).spend;
    if (isObject(spend)) out.push([`tenants.${name}.spend`, spend]);
  }
  const keys = (config.gateway as { keys?: unknown } | undefined)?.keys;
  if (Array.isArray(keys)) {
    keys.forEach((key, i) => {
      if (isObject(key) && isObject(key.spend)) out.push([`gateway.keys[${i}].spend`, key.spend]);
    });
  }
  return out;
}

/** This worker's whole-number share of `total`. */
export function countedShare(total: number, index: number, count: number): number {
  return Math.floor(total / count) + (index < total % count ? 1 : 0);
}

/**
 * The config worker `index` (0-based) of `count` runs with, and every limit it divided. The input is
 * not changed. Throws `WorkerShareError` when a counted limit is below `count`.
 */
export function workerShare(config: SwitchyardConfig, index: number, count: number): { config: SwitchyardConfig; divided: SharedLimit[] } {
  if (!Number.isInteger(count) || count < 1 || !Number.isInteger(index) || index < 0 || index >= count) {
    throw new RangeError(`workerShare: worker ${index} of ${count} is not a worker`);
  }
  const copy = copyPlain(config);
  const divided: SharedLimit[] = [];
  if (count === 1) return { config: copy, divided };
  for (const [path, budget] of budgets(copy)) {
    for (const field of COUNTED) {
      const total = budget[field];
      if (typeof total !== 'number') continue;
      if (total < count) throw new WorkerShareError(`${path}.${field}`, total, count);
      const share = countedShare(total, index, count);
      budget[field] = share;
      divided.push({ path: `${path}.${field}`, total, share });
    }
    for (const field of MONEY) {
      const total = budget[field];
      if (typeof total !== 'number') continue;
      const share = total / count;
      budget[field] = share;
      divided.push({ path: `${path}.${field}`, total, share });
    }
  }
  return { config: copy, divided };
}

/** True when the config's store holds state for this process only (each worker would count apart). */
export function storeIsLocal(config: SwitchyardConfig): boolean {
  return (config.store as { type?: string } | undefined)?.type !== 'redis';
}
