import type { EvalReport } from './report-types.js';
import { compareColumns } from './compare/compare-columns.js';
import { casesForFivePoints } from './stats/power.js';
import { caseVariance } from './stats/repeat-variance.js';
import { columnsOf, gradedRuns } from './stats/run-facts.js';
import { wilson } from './stats/wilson.js';

/** A report before its statistics. */
export type UnanalysedReport = Omit<EvalReport, 'comparisons' | 'power'> & Partial<Pick<EvalReport, 'comparisons' | 'power'>>;

/**
 * The statistics of a report, from its runs and summaries alone (pure; `runEval` calls it last, and
 * it can be run again on a report read from JSON): every pass rate's Wilson 95% interval over graded
 * runs, every pair of columns compared on the same cases (`compareColumns`), the cases a 5-point
 * difference would need, and with repeats each case's variance across repeats.
 */
export function withAnalysis(report: UnanalysedReport): EvalReport {
  const comparisons = compareColumns(columnsOf(report), report.runs);
  const targets = report.targets.map((t) => Object.assign({}, t, { passInterval: wilson(t.passed, gradedRuns(t)) }));
  const runsByCase = new Map<string, EvalReport['runs']>();
  for (const run of report.runs) {
    const list = runsByCase.get(run.caseId);
    if (list) list.push(run);
    else runsByCase.set(run.caseId, [run]);
  }
  const cases = report.repeat > 1
    ? report.cases.map((c) => {
      const variance = caseVariance(runsByCase.get(c.id) ?? []);
      return variance === undefined ? c : Object.assign({}, c, { variance });
    })
    : report.cases;
  const power = casesForFivePoints(comparisons, targets.map((t) => t.passRate));
  return Object.assign({}, report, { targets, cases, comparisons, power });
}
