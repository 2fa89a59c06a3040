import type { ResolvedConfig } from '../../config/index.js';
import type { Budget } from '../admission/budget.js';
import { paced } from '../admission/pacing.js';

/** Who a call is for: its fair-queue weight and, when configured, a budget of its own across every target. */
export interface TenantRuntime {
  name: string;
  share: number;
  budget?: Budget;
}

/** Calls without a tenant run as this one. */
export const DEFAULT_TENANT = 'default';

/**
 * Resolves tenants by name. Names come from callers, so they are looked up as own keys only (a
 * tenant named `constructor` or `__proto__` is an unknown tenant, never an inherited property), and
 * each tenant with a budget gets its own budget key.
 */
export class Tenants {
  private readonly cache = new Map<string, TenantRuntime>();
  private static readonly MAX_CACHED = 10_000;

  constructor(private readonly config: ResolvedConfig['tenants']) {}

  resolve(name: string = DEFAULT_TENANT): TenantRuntime {
    let tenant = this.cache.get(name);
    if (tenant) return tenant;
    const conf = Object.hasOwn(this.config, name) ? this.config[name] : Object.hasOwn(this.config, '*') ? this.config['*'] : undefined;
    tenant = { name, share: conf?.share ?? 1 };
    if (conf && (conf.rpm !== undefined || conf.tpm !== undefined || conf.concurrency !== undefined)) {
      // Paced like a target's budget (pacing.ts): released evenly through the window, not all at its start.
      tenant.budget = { key: `tenant:${name}`, limits: paced({ rpm: conf.rpm, tpm: conf.tpm, concurrency: conf.concurrency, windowMs: conf.windowMs }) };
    }
    // Tenant names are unbounded: keep the cache from growing with them.
    if (this.cache.size >= Tenants.MAX_CACHED) this.cache.clear();
    this.cache.set(name, tenant);
    return tenant;
  }
}
