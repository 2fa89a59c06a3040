import type { CaseCell, CaseSummary, EvalReport, RunRecord, TargetSummary } from '../report-types.js';

/** What the viewer reads: the report itself (named here so the viewer's files say what they show). */
export type ViewRun = RunRecord;
export type ViewTarget = TargetSummary;
export type ViewCell = CaseCell;
export type ViewCase = CaseSummary;
export type ViewReport = EvalReport;
export interface CaseColumn { caseId: string; column: string }

/** The thing a summary, cell or run is compared as: its column, or its target in a version 1 report. */
export const columnOfTarget = (t: ViewTarget): string => t.column ?? t.key;
export const columnOfCell = (c: ViewCell): string => c.column ?? c.target;
export const columnOfRun = (r: ViewRun): string => r.column ?? r.target;

/** The report's columns in order: `columns` when the report has them, else its targets. */
export function columnsOf(report: ViewReport): string[] {
  return report.columns ?? report.targets.map(columnOfTarget);
}

const key = (caseId: string, column: string) => `${caseId}\u0000${column}`;

/** Every run of a case on a column, in repeat order, looked up by `runsOf(caseId, column)`. */
export function runIndex(report: ViewReport): (caseId: string, column: string) => ViewRun[] {
  const index = new Map<string, ViewRun[]>();
  for (const run of report.runs) {
    const k = key(run.caseId, columnOfRun(run));
    const list = index.get(k);
    if (list) list.push(run);
    else index.set(k, [run]);
  }
  return (caseId, column) => index.get(key(caseId, column)) ?? [];
}

/** A set of `caseId, column` pairs (the baseline's regressions or fixes), asked by `has(caseId, column)`. */
export function pairSet(pairs: readonly CaseColumn[] | undefined): { has(caseId: string, column: string): boolean; cases: Set<string> } {
  const keys = new Set((pairs ?? []).map((p) => key(p.caseId, p.column)));
  return { has: (caseId, column) => keys.has(key(caseId, column)), cases: new Set((pairs ?? []).map((p) => p.caseId)) };
}
