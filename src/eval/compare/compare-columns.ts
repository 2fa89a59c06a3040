import type { RunRecord } from '../report-types.js';
import type { Comparison } from '../analysis-types.js';
import { mcnemarExactP } from '../stats/mcnemar.js';
import { newcombePaired } from '../stats/newcombe-paired.js';
import { pairRuns } from '../stats/pair-runs.js';
import { runsByColumn } from '../stats/run-facts.js';
import { comparisonText } from './comparison-text.js';

/** The family's confidence: each of m comparisons gets 1 − 0.05 / m (Bonferroni). */
export const FAMILY_CONFIDENCE = 0.95;

/**
 * Every pair of columns compared on the same cases and repeats (see `pairRuns`): the difference in
 * pass rate with Newcombe's paired interval, and McNemar's exact p-value on the discordant pairs.
 * With m pairs each interval is at 1 − 0.05/m (Bonferroni), so the chance that any "beats" in the
 * report is noise stays under 5%; `shown` is whether that interval excludes 0. Differences and
 * intervals are in points (rate × 100).
 */
export function compareColumns(columns: readonly string[], runs: readonly RunRecord[]): Comparison[] {
  const byColumn = runsByColumn(runs);
  const pairs = (columns.length * (columns.length - 1)) / 2;
  const confidence = 1 - (1 - FAMILY_CONFIDENCE) / Math.max(1, pairs);
  const level = `${(confidence * 100).toFixed(pairs > 1 ? 1 : 0)}%`;
  const out: Comparison[] = [];
  for (let i = 0; i < columns.length; i++) {
    for (let j = i + 1; j < columns.length; j++) {
      const a = columns[i]!;
      const b = columns[j]!;
      const table = pairRuns(byColumn.get(a) ?? new Map(), byColumn.get(b) ?? new Map());
      const n = table.both + table.onlyA + table.onlyB + table.neither;
      const { diff, interval } = newcombePaired(table, confidence);
      const shown = n > 0 && (interval[0] > 0 || interval[1] < 0);
      const pValue = mcnemarExactP(table.onlyA, table.onlyB);
      const method = `Newcombe paired interval at ${level}${pairs > 1 ? ` (Bonferroni over ${pairs} pairs)` : ''}; McNemar exact p=${pValue.toPrecision(2)}`;
      out.push({
        a, b, n, diff: n === 0 ? 0 : ((table.onlyA - table.onlyB) * 100) / n, interval: [interval[0] * 100, interval[1] * 100], method, shown,
        text: comparisonText(a, b, n, diff, interval, shown),
        pValue, discordant: [table.onlyA, table.onlyB], excludedBothErrored: table.bothErrored,
      });
    }
  }
  return out;
}
