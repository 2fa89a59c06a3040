import type { BaselineDiff } from '../analysis-types.js';
import type { RunRecord } from '../report-types.js';
import { cellVerdicts } from './cell-verdicts.js';

const onlyIn = (a: Iterable<string>, b: ReadonlySet<string>) => [...a].filter((x) => !b.has(x));

/**
 * What changed since a baseline report (any version, read from its runs): every case × column that
 * passed before and does not now (a regression; `now` says whether it failed or errored) and the
 * reverse (a fix). A column or a case on one side only is listed under `missing`, never as a
 * regression; a cell without a verdict on either side (every run a grader error) is not compared.
 */
export function compareBaseline(file: string, before: readonly RunRecord[], now: readonly RunRecord[]): BaselineDiff {
  const old = cellVerdicts(before);
  const cur = cellVerdicts(now);
  const oldCases = new Set(before.map((r) => r.caseId));
  const curCases = new Set(now.map((r) => r.caseId));
  const oldColumns = new Set(old.keys());
  const curColumns = new Set(cur.keys());
  const regressions: BaselineDiff['regressions'] = [];
  const fixes: BaselineDiff['fixes'] = [];
  for (const [column, cells] of cur) {
    const was = old.get(column);
    if (!was) continue;
    for (const [caseId, verdict] of cells) {
      const prior = was.get(caseId);
      if (prior === undefined) continue;
      if (prior === 'pass' && verdict !== 'pass') regressions.push({ caseId, column, now: verdict });
      else if (prior !== 'pass' && verdict === 'pass') fixes.push({ caseId, column });
    }
  }
  return {
    file, regressions, fixes,
    missing: {
      columnsOnlyBefore: onlyIn(oldColumns, curColumns), columnsOnlyNow: onlyIn(curColumns, oldColumns),
      casesOnlyBefore: onlyIn(oldCases, curCases), casesOnlyNow: onlyIn(curCases, oldCases),
    },
  };
}
