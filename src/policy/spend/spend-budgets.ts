import { DEFAULTS } from '../../config/defaults.js';
import type { ResolvedConfig } from '../../config/index.js';
import type { SpendConfig } from '../../config/schema.js';
import { costUsd, spendWindows } from '../../decide/cost.js';
import { RouterError, type ErrorKind } from '../../errors.js';
import { callEvent } from '../../observe/event-refs.js';
import type { EventHub } from '../../observe/events.js';
import type { Logger } from '../../observe/logger.js';
import type { Call } from '../state/call.js';
import { gatewayKeyId } from '../../spend/gateway-key.js';
import { Prices } from '../../spend/prices.js';
import type { SpendAlert, SpendGrant, SpendStore, SpendWindowLimit } from '../../store/spend-store.js';
import type { Clock } from '../../types.js';
import type { TargetRuntime } from '../state/target-runtime.js';

/** One USD budget: a tenant's or a gateway key's, as configured. */
export interface SpendBudget {
  /** The store's name for it: `tenant:<name>` or `key:<id>`. */
  key: string;
  /** Where the config sets it (`tenants.acme.spend`), for messages. */
  path: string;
  usdPerDay?: number;
  usdPerMonth?: number;
  alertAt: readonly number[];
  localShare: number;
}

/**
 * Failures after which the provider may have billed the request (it was running when it was cut
 * off), so the reservation stays spent. Every other failure (a 429, a 5xx, a refused connection)
 * gets it back: a brownout must not eat a budget in worst cases.
 */
export const MAY_HAVE_BILLED: ReadonlySet<ErrorKind> = new Set(['timeout', 'aborted']);

const NONE: readonly SpendBudget[] = Object.freeze([]);

function budgetOf(key: string, path: string, conf: SpendConfig | undefined): SpendBudget | undefined {
  if (!conf) return undefined;
  return { key, path, usdPerDay: conf.usdPerDay, usdPerMonth: conf.usdPerMonth, alertAt: conf.alertAt ?? DEFAULTS.spend.alertAt, localShare: conf.localShare ?? DEFAULTS.spend.localShare };
}

/**
 * Prices and spend budgets. Every attempt is priced from its usage at its target's price
 * (`costUsd` on events and results). A call under a tenant's or gateway key's `spend` budget
 * reserves each attempt's worst case (the prompt estimate and every reserved output token at that
 * target's price) in every budget before it is sent, and settles the reservation from what the
 * attempt cost when it ends; a call that cannot fit throws `budget_exceeded` with nothing sent.
 */
export class Spend {
  readonly prices: Prices;
  private readonly tenantBudgets = new Map<string, readonly SpendBudget[]>();
  private readonly keyBudgets = new Map<string, SpendBudget>();
  /** Budgets this process is spending on its own share of while the shared store is down (said once per outage). */
  private readonly local = new Set<string>();

  constructor(
    private readonly config: ResolvedConfig,
    private readonly store: SpendStore | undefined,
    private readonly clock: Clock,
    private readonly events: EventHub,
    private readonly logger: Logger,
  ) {
    this.prices = new Prices(config);
    config.gateway.keys.forEach((k, i) => {
      const budget = budgetOf(`key:${gatewayKeyId(k)}`, `gateway.keys[${i}].spend`, k.spend);
      if (budget) this.keyBudgets.set(gatewayKeyId(k), budget);
    });
  }

  /** The cost of one answer's usage at the target's price; undefined when either is unknown. */
  costOf(target: TargetRuntime, usage: Parameters<typeof costUsd>[0] | undefined): number | undefined {
    if (!usage) return undefined;
    const price = this.prices.of(target.target);
    return price ? costUsd(usage, price) : undefined;
  }

  /** The budgets a call spends against: its tenant's, then its gateway key's. */
  budgetsOf(call: Call): readonly SpendBudget[] {
    const name = call.tenant.name;
    let tenant = this.tenantBudgets.get(name);
    if (!tenant) {
      const { tenants } = this.config;
      const at = Object.hasOwn(tenants, name) ? name : Object.hasOwn(tenants, '*') ? '*' : undefined;
      const b = at === undefined ? undefined : budgetOf(`tenant:${name}`, `tenants.${at}.spend`, tenants[at]!.spend);
      tenant = b ? [b] : NONE;
      if (this.tenantBudgets.size >= 10_000) this.tenantBudgets.clear();
      this.tenantBudgets.set(name, tenant);
    }
    const key = call.gatewayKey === undefined ? undefined : this.keyBudgets.get(call.gatewayKey);
    return key ? [...tenant, key] : tenant;
  }

  /** A budget's windows as of now, each with its limit. */
  windowsOf(budget: SpendBudget, nowMs: number): SpendWindowLimit[] {
    const { day, month } = spendWindows(nowMs);
    const out: SpendWindowLimit[] = [];
    if (budget.usdPerDay !== undefined) out.push({ window: day.name, limitUsd: budget.usdPerDay, endsAtMs: day.endsAtMs });
    if (budget.usdPerMonth !== undefined) out.push({ window: month.name, limitUsd: budget.usdPerMonth, endsAtMs: month.endsAtMs });
    return out;
  }

  /** The spend role, or a config error when a budget needs one the store does not play. */
  role(budget: SpendBudget): SpendStore {
    if (!this.store) throw new RouterError('config', `${budget.path} needs a state store that plays the spend role (reserveSpend, settleSpend, readSpend)`);
    return this.store;
  }

  /** Hears how a reservation went: a local decision is said once per outage, a shared one ends it. */
  noteGrant(call: Call, budget: SpendBudget, grant: SpendGrant): void {
    if (!grant.local) {
      this.local.delete(budget.key);
      return;
    }
    if (this.local.has(budget.key)) return;
    this.local.add(budget.key);
    this.logger.warn({ budget: budget.key, localShare: budget.localShare }, 'shared store unavailable: this spend budget holds per process (its local share of what the fleet had left) until the store answers');
    if (this.events.has('spend')) this.events.emit('spend', callEvent(call, { budget: budget.key, reason: 'local' as const, localShare: budget.localShare }));
  }

  alerted(call: Call, budget: SpendBudget, alerts: readonly SpendAlert[]): void {
    for (const a of alerts) {
      this.logger.warn({ budget: budget.key, window: a.window, threshold: a.threshold, spentUsd: a.spentUsd, limitUsd: a.limitUsd }, 'spend budget crossed an alert threshold');
      if (this.events.has('spend')) {
        this.events.emit('spend', callEvent(call, { budget: budget.key, reason: 'threshold' as const, window: a.window, threshold: a.threshold, spentUsd: a.spentUsd, limitUsd: a.limitUsd }));
      }
    }
  }

  warn(err: unknown): void {
    this.logger.warn({ err: String(err) }, 'state store failed while settling spend: the answer stands, the hold expires by its TTL');
  }

  now(): number {
    return this.clock.now();
  }
}

