import type { EvalCase } from './case-types.js';
import { EXPECTATION_NAMES, type ExpectationName } from './expectations.js';
import type { CaseCell, CaseSummary, CellStatus, RunRecord } from './report-types.js';
import { mostCommon, normaliseAnswer } from './stats.js';

function cellStatus(all: readonly RunRecord[]): CellStatus {
  // Runs a grader gave no verdict for say nothing of the target; a cell of nothing else is an error.
  const runs = all.filter((r) => !r.gradeError);
  if (runs.length === 0) return 'error';
  const passed = runs.filter((r) => r.pass).length;
  if (passed === runs.length) return 'pass';
  if (passed > 0) return 'mixed';
  return runs.some((r) => r.ok) ? 'fail' : 'error';
}

/** One case on one column (a target, or a target under a prompt), over its repeats. */
export function summariseCell(target: string, runs: readonly RunRecord[], column: { column: string; prompt?: string } = { column: target }): CaseCell {
  const answers = runs.filter((r) => r.ok).map((r) => normaliseAnswer(r.text ?? ''));
  const failures = new Set<string>();
  const errorKinds = new Set<string>();
  for (const run of runs) {
    for (const c of run.checks) if (!c.pass) failures.add(`${c.name}: ${c.reason ?? 'failed'}`);
    if (run.error) errorKinds.add(run.error.kind);
    if (run.gradeError) errorKinds.add('grade_error');
  }
  const answer = mostCommon(answers)?.value;
  return {
    target, column: column.column, ...(column.prompt !== undefined ? { prompt: column.prompt } : {}), status: cellStatus(runs), runs: runs.length, passed: runs.filter((r) => r.pass).length,
    ...(answer !== undefined ? { answer } : {}),
    failures: [...failures], errorKinds: [...errorKinds],
  };
}

/** The expectation names a case sets, in report order. */
export function expectationNames(evalCase: EvalCase): ExpectationName[] {
  return EXPECTATION_NAMES.filter((name) => evalCase.expect[name] !== undefined && evalCase.expect[name] !== false);
}

/** A column of the run: its name, its target's key and its prompt's id. */
export interface ColumnRef {
  column: string;
  target: string;
  prompt?: string;
}

/**
 * One case across columns (given in order; a plain target key stands for its own column). Targets disagree when those that answered do not
 * all have the same status (a target that never answered is an outage, reported by its error kinds,
 * not a disagreement); answers are grouped by their normalised text so a split in wording shows too.
 */
export function summariseCase(evalCase: EvalCase, columns: ReadonlyArray<string | ColumnRef>, runs: readonly RunRecord[]): CaseSummary {
  const refs = columns.map((c): ColumnRef => (typeof c === 'string' ? { column: c, target: c } : c));
  const cells = refs.map((ref) => summariseCell(ref.target, runs.filter((r) => r.caseId === evalCase.id && (r.column ?? r.target) === ref.column), ref));
  const groups = new Map<string, string[]>();
  for (const cell of cells) {
    if (cell.answer === undefined) continue;
    const group = groups.get(cell.answer);
    if (group) group.push(cell.column);
    else groups.set(cell.answer, [cell.column]);
  }
  const answerGroups = [...groups].map(([answer, ts]) => ({ answer, targets: ts })).sort((a, b) => b.targets.length - a.targets.length);
  return {
    id: evalCase.id,
    messages: evalCase.messages,
    weight: evalCase.weight ?? 1,
    expectations: expectationNames(evalCase),
    cells,
    disagree: new Set(cells.filter((c) => c.status !== 'error').map((c) => c.status)).size > 1,
    passing: cells.filter((c) => c.status === 'pass').map((c) => c.column),
    notPassing: cells.filter((c) => c.status !== 'pass').map((c) => c.column),
    answerGroups,
  };
}
