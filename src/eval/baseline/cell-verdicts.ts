import type { RunRecord } from '../report-types.js';
import { columnOf, isGraded } from '../stats/run-facts.js';

/** A case on a column over its graded repeats: passed every one, or not (an error counts as not passing, as in the pass rate). */
export type Verdict = 'pass' | 'fail' | 'error';

/**
 * Each case × column's verdict, keyed `column` → `caseId`: `pass` when every graded repeat passed,
 * `error` when none answered, `fail` otherwise. A cell whose every run had a grader error has no
 * verdict and is absent.
 */
export function cellVerdicts(runs: readonly RunRecord[]): Map<string, Map<string, Verdict>> {
  const out = new Map<string, Map<string, Verdict>>();
  const answered = new Map<string, boolean>();
  for (const run of runs) {
    if (!isGraded(run)) continue;
    const column = columnOf(run);
    let cells = out.get(column);
    if (!cells) out.set(column, (cells = new Map()));
    const key = `${column}\u0000${run.caseId}`;
    answered.set(key, (answered.get(key) ?? false) || run.ok);
    const before = cells.get(run.caseId);
    if (run.pass && (before === undefined || before === 'pass')) cells.set(run.caseId, 'pass');
    else cells.set(run.caseId, answered.get(key) ? 'fail' : 'error');
  }
  return out;
}
