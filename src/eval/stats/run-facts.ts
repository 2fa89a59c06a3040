import type { EvalReport, RunRecord, TargetSummary } from '../report-types.js';

// The run helper's fields (issue 35: `column`, `prompt`, `weight`, `gradeError`, `EvalReport.columns`)
// read where they exist and defaulted where they do not, so a version 1 report (a baseline from an
// older run) is analysed the same way: a column is then its target.

type RunFacts = RunRecord & { column?: string; prompt?: string; weight?: number; gradeError?: unknown };
type SummaryFacts = TargetSummary & { column?: string; prompt?: string; score?: number; gradeErrors?: number };

/** The thing compared: the target, or target × prompt. */
export const columnOf = (run: RunRecord): string => (run as RunFacts).column ?? run.target;
/** A run whose grader failed is neither pass nor fail: it is left out of every rate. */
export const isGraded = (run: RunRecord): boolean => (run as RunFacts).gradeError === undefined;
export const summaryColumn = (t: TargetSummary): string => (t as SummaryFacts).column ?? t.key;
export const summaryPrompt = (t: TargetSummary): string | undefined => (t as SummaryFacts).prompt;
/** Runs that got a verdict: runs minus grader errors. */
export const gradedRuns = (t: TargetSummary): number => t.runs - ((t as SummaryFacts).gradeErrors ?? 0);
/** The weighted score where the run helper reports one, else the pass rate. */
export const scoreOf = (t: TargetSummary): number => (t as SummaryFacts).score ?? t.passRate;

/** The report's columns in order. */
export function columnsOf(report: Pick<EvalReport, 'targets'> & { columns?: string[] }): string[] {
  return report.columns ?? report.targets.map(summaryColumn);
}

/** Graded runs grouped by column, then by `caseId#repeat`. */
export function runsByColumn(runs: readonly RunRecord[]): Map<string, Map<string, RunRecord>> {
  const out = new Map<string, Map<string, RunRecord>>();
  for (const run of runs) {
    if (!isGraded(run)) continue;
    const column = columnOf(run);
    let byKey = out.get(column);
    if (!byKey) out.set(column, (byKey = new Map()));
    byKey.set(`${run.caseId}#${run.repeat}`, run);
  }
  return out;
}
