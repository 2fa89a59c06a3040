import type { RunRecord } from '../report-types.js';
import { columnOf, isGraded } from './run-facts.js';

/**
 * With repeats, how much a case's verdict varies: per column, the variance of pass (1) or not (0)
 * over the case's graded repeats, p(1 − p) (0 when every repeat agrees, 0.25 at an even split),
 * averaged over the columns with at least two graded repeats. Undefined when no column has two.
 */
export function caseVariance(runs: readonly RunRecord[]): number | undefined {
  const byColumn = new Map<string, { n: number; passed: number }>();
  for (const run of runs) {
    if (!isGraded(run)) continue;
    const column = columnOf(run);
    const c = byColumn.get(column) ?? { n: 0, passed: 0 };
    c.n++;
    if (run.pass) c.passed++;
    byColumn.set(column, c);
  }
  const variances = [...byColumn.values()].filter((c) => c.n >= 2).map((c) => (c.passed / c.n) * (1 - c.passed / c.n));
  return variances.length === 0 ? undefined : variances.reduce((a, b) => a + b, 0) / variances.length;
}
