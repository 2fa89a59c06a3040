import type { CaseCell, CaseSummary, EvalReport, RunRecord, TargetSummary } from '../report-types.js';

/**
 * What the viewer reads of a report: today's fields plus the ones issue 35 adds (see
 * /work/briefs/eval-contract.md), all optional here, so a version 1 report renders as it is and a
 * version 2 one shows its columns, intervals, comparisons, baseline and grader verdicts.
 */
export interface ViewRun extends RunRecord {
  column?: string;
  prompt?: string;
  weight?: number;
  cached?: true;
  graderCostUsd?: number;
  gradeError?: { expectation: string; message: string };
}

export interface ViewTarget extends TargetSummary {
  column?: string;
  prompt?: string;
  score?: number;
  gradeErrors?: number;
  graderCostUsd?: number | null;
  cachedRuns?: number;
  passInterval?: [number, number];
}

export interface ViewCell extends CaseCell {
  column?: string;
  prompt?: string;
}

export interface ViewCase extends Omit<CaseSummary, 'cells'> {
  cells: ViewCell[];
  weight?: number;
  variance?: number;
}

export interface Comparison {
  a: string;
  b: string;
  n: number;
  diff: number;
  interval: [number, number];
  method: string;
  shown: boolean;
  text: string;
}

export interface CaseColumn { caseId: string; column: string }

export interface ViewReport extends Omit<EvalReport, 'version' | 'targets' | 'cases' | 'runs'> {
  version: number;
  targets: ViewTarget[];
  cases: ViewCase[];
  runs: ViewRun[];
  columns?: string[];
  prompts?: Array<{ id: string; template: string }>;
  judgeChain?: string;
  embedChain?: string;
  graderCostUsd?: number | null;
  cache?: { dir: string; hits: number; misses: number };
  comparisons?: Comparison[];
  power?: { pointsDetectable: number; casesNeeded: number };
  baseline?: { file: string; regressions: CaseColumn[]; fixes: CaseColumn[]; missing?: unknown };
  suggestion?: { chain: string; order: Array<{ column: string; reason: string }>; pareto: string[]; snippet: string };
}

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
