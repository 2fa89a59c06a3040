import { parseArgs } from 'node:util';
import { resolveConfig } from '../../config/index.js';
import { dayWindowsBetween, spendWindows } from '../../decide/cost.js';
import { isRouterError } from '../../errors.js';
import { gatewayKeyId } from '../../spend/gateway-key.js';
import { spendReport, type BudgetLimitsLine } from '../../spend/spend-report.js';
import { redisStore } from '../../store/redis-store.js';
import { systemClock } from '../../time/system-clock.js';
import { UsageError, type CliCommand } from '../command.js';
import { asUsage, cliConfig } from '../config-source.js';

const USAGE = `Usage: switchyard spend [--tenant NAME] [--key ID] [--since WHEN] [--config FILE]

Prints what was spent, in USD at the configured prices, by tenant, gateway key and model, from the
shared store (store.type 'redis': the spend budgets every process of the fleet shares), then each
configured spend budget's day and month against its limits. Settled calls only.

Options:
  --tenant NAME   only this tenant's budget (tenant:NAME)
  --key ID        only this gateway key's budget (its keyEnv, or the start of its keyHash)
  --since WHEN    first UTC day: YYYY-MM-DD, or Nd for the last N days, today included (default: 7d)
  --config FILE   router config (default: ./router.config.ts if there is one, else the built-in default)

Exit codes: 0 on a report, 2 for a usage error (bad flag, a config without a Redis store).`;

const DAY_MS = 86_400_000;

/** The first instant of `--since`, UTC. */
function sinceMs(text: string, nowMs: number): number {
  const days = /^(\d{1,4})d$/.exec(text);
  if (days) {
    const n = Number(days[1]);
    if (n < 1) throw new UsageError('--since Nd needs N of at least 1');
    return nowMs - (n - 1) * DAY_MS;
  }
  if (/^\d{4}-\d{2}-\d{2}$/.test(text)) {
    const at = Date.parse(`${text}T00:00:00Z`);
    if (Number.isFinite(at) && new Date(at).toISOString().startsWith(text)) {
      if (at > nowMs) throw new UsageError(`--since ${text} is in the future`);
      return at;
    }
  }
  throw new UsageError(`--since expects YYYY-MM-DD or Nd (days), got "${text}"`);
}

export const command: CliCommand = {
  name: 'spend',
  summary: 'print USD spend by tenant, key and model from the shared store',
  usage: USAGE,
  async run(argv, io) {
    let values: { tenant?: string; key?: string; since?: string; config?: string };
    try {
      values = parseArgs({ args: argv, strict: true, allowPositionals: false, options: { tenant: { type: 'string' }, key: { type: 'string' }, since: { type: 'string' }, config: { type: 'string' } } }).values;
    } catch (err) {
      throw new UsageError((err as Error).message.split('\n')[0]!);
    }
    if (values.tenant !== undefined && values.key !== undefined) throw new UsageError('give --tenant or --key, not both');
    const config = await cliConfig(io, values.config, io.env).then((c) => resolveConfig(c, io.env)).catch((err: unknown) => Promise.reject(asUsage(err)));
    if (config.store.type !== 'redis') {
      throw new UsageError("switchyard spend reads the shared store: this config's store is 'memory', whose spend lives and ends in each router's process (read it there: router `spend` events, result.costUsd)");
    }
    const nowMs = systemClock.now();
    const days = dayWindowsBetween(sinceMs(values.since ?? '7d', nowMs), nowMs);
    const { day, month } = spendWindows(nowMs);
    const budget = values.tenant !== undefined ? `tenant:${values.tenant}` : values.key !== undefined ? `key:${values.key}` : undefined;
    const limits: BudgetLimitsLine[] = [];
    for (const [name, t] of Object.entries(config.tenants)) if (t.spend && name !== '*') limits.push({ budget: `tenant:${name}`, usdPerDay: t.spend.usdPerDay, usdPerMonth: t.spend.usdPerMonth });
    for (const k of config.gateway.keys) if (k.spend) limits.push({ budget: `key:${gatewayKeyId(k)}`, usdPerDay: k.spend.usdPerDay, usdPerMonth: k.spend.usdPerMonth });
    const store = redisStore(config.store.url, { keyPrefix: config.store.keyPrefix });
    try {
      const rows = await store.readSpend([...days, ...(days.includes(day.name) ? [] : [day.name]), month.name], budget);
      io.stdout(spendReport(rows, days, { day: day.name, month: month.name }, limits.filter((l) => budget === undefined || l.budget === budget)));
      return 0;
    } catch (err) {
      if (isRouterError(err)) throw new UsageError(err.message);
      throw err;
    } finally {
      await store.close();
    }
  },
};
