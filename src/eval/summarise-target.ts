import type { Target } from '../config/index.js';
import { EXPECTATION_NAMES, type ExpectationName } from './expectations.js';
import type { Price, RunRecord, TargetSummary } from './report-types.js';
import { mean, modalShare, normaliseAnswer, percentile } from './stats.js';

function answerStability(cases: readonly RunRecord[][]): number | null {
  const shares = cases
    .map((c) => c.filter((r) => r.ok).map((r) => normaliseAnswer(r.text ?? '')))
    .filter((answers) => answers.length >= 2)
    .map((answers) => modalShare(answers));
  return shares.length === 0 ? null : mean(shares);
}

function increment<K extends string>(counts: Partial<Record<K, number>>, key: K): void {
  counts[key] = (counts[key] ?? 0) + 1;
}

function byCase(runs: readonly RunRecord[]): RunRecord[][] {
  const groups = new Map<string, RunRecord[]>();
  for (const run of runs) {
    const group = groups.get(run.caseId);
    if (group) group.push(run);
    else groups.set(run.caseId, [run]);
  }
  return [...groups.values()];
}

/**
 * Summarises one column's runs (a target's, or a target's under one prompt). Pass rate and score
 * count the target's errors as not passed and leave out runs a grader gave no verdict for; score
 * weighs each run by its case's weight; latency percentiles cover
 * answered runs, and token and cost sums the answered runs whose usage is known (the others are
 * counted in `usageUnknown`, so the sums read as lower bounds). Stability (with `repeat` > 1): for each case with at
 * least two answered repeats, the share of those answers equal (normalised) to the most common one,
 * averaged over such cases; null when there are none. Errors are counted by `errorKinds`, not here.
 */
export function summariseTarget(target: Pick<Target, 'key' | 'provider' | 'model'>, runs: readonly RunRecord[], repeat: number, price: Price | undefined, column: { column: string; prompt?: string } = { column: target.key }): TargetSummary {
  const answered = runs.filter((r) => r.ok);
  const passed = runs.filter((r) => r.pass).length;
  // A run a grader gave no verdict for is neither passed nor failed: it is left out of every rate.
  const graded = runs.filter((r) => !r.gradeError);
  const weights = graded.reduce((sum, r) => sum + (r.weight ?? 1), 0);
  const weightedPass = graded.reduce((sum, r) => sum + (r.pass ? (r.weight ?? 1) : 0), 0);
  const graderCosts = runs.filter((r) => r.graderCostUsd !== undefined);
  const failureCounts: Partial<Record<ExpectationName, number>> = {};
  const errorKinds: Partial<Record<string, number>> = {};
  for (const run of runs) {
    if (run.error) increment(errorKinds, run.error.kind);
    for (const check of run.checks) if (!check.pass) increment(failureCounts, check.name);
  }
  // In the fixed expectation order, so every report lists them the same way.
  const failuresByExpectation: Partial<Record<ExpectationName, number>> = {};
  for (const name of EXPECTATION_NAMES) if (failureCounts[name]) failuresByExpectation[name] = failureCounts[name];
  const latencies = answered.map((r) => r.latencyMs);
  const tokens = { input: 0, output: 0 };
  for (const r of answered) {
    tokens.input += r.usage?.inputTokens ?? 0;
    tokens.output += r.usage?.outputTokens ?? 0;
  }
  const cases = byCase(runs);
  return {
    key: target.key, column: column.column, ...(column.prompt !== undefined ? { prompt: column.prompt } : {}),
    provider: target.provider, model: target.model,
    runs: runs.length, passed, failed: answered.length - passed - (runs.length - graded.length), errored: runs.length - answered.length,
    passRate: graded.length === 0 ? 0 : passed / graded.length,
    score: weights === 0 ? 0 : weightedPass / weights,
    gradeErrors: runs.length - graded.length,
    graderCostUsd: graderCosts.length === 0 ? null : graderCosts.reduce((sum, r) => sum + r.graderCostUsd!, 0),
    cachedRuns: runs.filter((r) => r.cached).length,
    failuresByExpectation, errorKinds,
    latencyMs: latencies.length === 0 ? null : { p50: percentile(latencies, 50), p95: percentile(latencies, 95) },
    tokens, usageUnknown: answered.filter((r) => !r.usage).length,
    costUsd: price ? answered.reduce((sum, r) => sum + (r.costUsd ?? 0), 0) : null,
    price: price ?? null,
    stability: repeat > 1 ? answerStability(cases) : null,
    flakyCases: repeat > 1 ? cases.filter((c) => new Set(c.filter((r) => !r.gradeError).map((r) => r.pass)).size > 1).length : null,
  };
}
