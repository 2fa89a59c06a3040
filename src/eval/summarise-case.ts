import type { EvalCase } from './case-types.js';
import { EXPECTATION_NAMES, type ExpectationName } from './expectations.js';
import type { CaseCell, CaseSummary, CellStatus, RunRecord } from './report-types.js';
import { mostCommon, normaliseAnswer } from './stats.js';

function cellStatus(runs: readonly RunRecord[]): CellStatus {
  const passed = runs.filter((r) => r.pass).length;
  if (passed === runs.length) return 'pass';
  if (passed > 0) return 'mixed';
  return runs.some((r) => r.ok) ? 'fail' : 'error';
}

/** One case on one target, over its repeats. */
export function summariseCell(target: string, runs: readonly RunRecord[]): CaseCell {
  const answers = runs.filter((r) => r.ok).map((r) => normaliseAnswer(r.text ?? ''));
  const failures = new Set<string>();
  const errorKinds = new Set<string>();
  for (const run of runs) {
    for (const c of run.checks) if (!c.pass) failures.add(`${c.name}: ${c.reason ?? 'failed'}`);
    if (run.error) errorKinds.add(run.error.kind);
  }
  const answer = mostCommon(answers)?.value;
  return {
    target, status: cellStatus(runs), runs: runs.length, passed: runs.filter((r) => r.pass).length,
    ...(answer !== undefined ? { answer } : {}),
    failures: [...failures], errorKinds: [...errorKinds],
  };
}

/** The expectation names a case sets, in report order. */
export function expectationNames(evalCase: EvalCase): ExpectationName[] {
  return EXPECTATION_NAMES.filter((name) => evalCase.expect[name] !== undefined && evalCase.expect[name] !== false);
}

/**
 * One case across targets (given in chain order). Targets disagree when those that answered do not
 * all have the same status (a target that never answered is an outage, reported by its error kinds,
 * not a disagreement); answers are grouped by their normalised text so a split in wording shows too.
 */
export function summariseCase(evalCase: EvalCase, targets: readonly string[], runs: readonly RunRecord[]): CaseSummary {
  const cells = targets.map((t) => summariseCell(t, runs.filter((r) => r.caseId === evalCase.id && r.target === t)));
  const groups = new Map<string, string[]>();
  for (const cell of cells) {
    if (cell.answer === undefined) continue;
    const group = groups.get(cell.answer);
    if (group) group.push(cell.target);
    else groups.set(cell.answer, [cell.target]);
  }
  const answerGroups = [...groups].map(([answer, ts]) => ({ answer, targets: ts })).sort((a, b) => b.targets.length - a.targets.length);
  return {
    id: evalCase.id,
    messages: evalCase.messages,
    expectations: expectationNames(evalCase),
    cells,
    disagree: new Set(cells.filter((c) => c.status !== 'error').map((c) => c.status)).size > 1,
    passing: cells.filter((c) => c.status === 'pass').map((c) => c.target),
    notPassing: cells.filter((c) => c.status !== 'pass').map((c) => c.target),
    answerGroups,
  };
}
