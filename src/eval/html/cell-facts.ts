import { normaliseAnswer, percentile } from '../stats.js';
import type { ViewCell, ViewRun } from './report-view.js';

/** One line under an answer: a failed or scored expectation, a grader error or a call error. */
export interface CheckLine {
  kind: 'fail' | 'scored' | 'grader' | 'error';
  text: string;
}

const score = (s: number | undefined) => (s === undefined || !Number.isFinite(s) ? '' : ` (score ${s.toFixed(2)})`);

/**
 * What went wrong or was graded in these runs, each distinct line once, in run order: failed
 * expectations with their reason (the judge's reason for `judge`) and score, passed expectations that
 * carry a score (the judge's and similarity verdicts), grader errors, call errors.
 */
export function checkLines(runs: readonly ViewRun[]): CheckLine[] {
  const seen = new Set<string>();
  const lines: CheckLine[] = [];
  const add = (kind: CheckLine['kind'], text: string) => {
    if (seen.has(text)) return;
    seen.add(text);
    lines.push({ kind, text });
  };
  for (const run of runs) {
    for (const c of run.checks) {
      if (!c.pass) add('fail', `${c.name}${score(c.score)}: ${c.reason ?? 'failed'}`);
      else if (c.score !== undefined) add('scored', `${c.name}${score(c.score)}${c.reason ? `: ${c.reason}` : ''}`);
    }
    if (run.gradeError) add('grader', `grader error, ${run.gradeError.expectation}: ${run.gradeError.message}`);
    if (run.error) add('error', `error ${run.error.kind}: ${run.error.message}`);
  }
  return lines;
}

/** The run whose text the cell shows: the first answer equal to the cell's most common one. */
export function shownRun(cell: ViewCell, runs: readonly ViewRun[]): ViewRun | undefined {
  const answered = runs.filter((r) => r.ok);
  return answered.find((r) => normaliseAnswer(r.text ?? '') === cell.answer) ?? answered[0];
}

/** Latency (median of answered runs), mean cost per run, grader cost and cache hits of a cell's runs. */
export function cellNumbers(runs: readonly ViewRun[]): { latencyMs: number | null; costUsd: number | null; graderCostUsd: number | null; cached: number } {
  const answered = runs.filter((r) => r.ok);
  const latencies = answered.map((r) => r.latencyMs);
  const costs = answered.map((r) => r.costUsd);
  const known = costs.every((c): c is number => typeof c === 'number');
  const graderCosts = runs.map((r) => r.graderCostUsd).filter((c): c is number => typeof c === 'number');
  return {
    latencyMs: latencies.length > 0 ? percentile(latencies, 50) : null,
    costUsd: answered.length > 0 && known ? costs.reduce((a, b) => a + b, 0) / answered.length : null,
    graderCostUsd: graderCosts.length > 0 ? graderCosts.reduce((a, b) => a + b, 0) : null,
    cached: runs.filter((r) => r.cached).length,
  };
}
