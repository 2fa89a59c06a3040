import { table } from '../report/text-table.js';
import type { SpendRow } from '../store/spend-store.js';

/** A budget's limits, as the report shows them beside what was spent. */
export interface BudgetLimitsLine {
  budget: string;
  usdPerDay?: number;
  usdPerMonth?: number;
}

const usd = (n: number) => `$${n.toFixed(4)}`;

/**
 * The lines of `switchyard spend`: USD by budget (tenant or gateway key) and model over the day
 * windows given, each budget's total, then each configured budget's spend today and this month
 * against its limits. Rows come from the store (`readSpend`): settled spend only, holds of calls
 * still running are not in them.
 */
export function spendReport(rows: readonly SpendRow[], days: readonly string[], today: { day: string; month: string }, limits: readonly BudgetLimitsLine[]): string {
  const inRange = rows.filter((r) => days.includes(r.window));
  const byBudget = new Map<string, Map<string, number>>();
  for (const r of inRange) {
    const models = byBudget.get(r.budget) ?? new Map<string, number>();
    models.set(r.model, (models.get(r.model) ?? 0) + r.usd);
    byBudget.set(r.budget, models);
  }
  const from = days[0]?.slice('day:'.length) ?? '-';
  const to = days[days.length - 1]?.slice('day:'.length) ?? '-';
  const lines = [`Spend from ${from} to ${to} (UTC days), settled calls only:`, ''];
  if (byBudget.size === 0) lines.push('  (no spend recorded)');
  else {
    const body: string[][] = [['budget', 'model', 'USD']];
    for (const budget of [...byBudget.keys()].sort()) {
      const models = byBudget.get(budget)!;
      let total = 0;
      for (const model of [...models.keys()].sort()) {
        body.push([budget, model, usd(models.get(model)!)]);
        total += models.get(model)!;
      }
      body.push([budget, '(all models)', usd(total)]);
    }
    lines.push(...table(body, 'llr').map((l) => `  ${l}`));
  }
  if (limits.length > 0) {
    const spent = (budget: string, window: string) => rows.filter((r) => r.budget === budget && r.window === window).reduce((s, r) => s + r.usd, 0);
    const of = (n: number, limit: number | undefined) => (limit === undefined ? usd(n) : `${usd(n)} of $${limit.toFixed(2)} (${Math.round((n / limit) * 100)}%)`);
    const body: string[][] = [['budget', `today (${today.day.slice(4)})`, `this month (${today.month.slice(6)})`]];
    for (const l of limits) body.push([l.budget, of(spent(l.budget, today.day), l.usdPerDay), of(spent(l.budget, today.month), l.usdPerMonth)]);
    lines.push('', 'Budgets:', '', ...table(body, 'lrr').map((l) => `  ${l}`));
  }
  return `${lines.join('\n')}\n`;
}
