import type { Price } from '../spend/price-table.js';
import type { ErrorKind } from '../errors.js';
import type { FinishReason, Message, Usage } from '../types.js';
import type { ExpectationName, ExpectationResult } from './expectations.js';
import type { BaselineDiff, Comparison, Power, Suggestion } from './analysis-types.js';

/** USD per million tokens, as in the config's `prices` and the shipped table (src/spend/price-table.ts). */
export type { Price } from '../spend/price-table.js';

/** Why a run got no answer. `kind` is the underlying failure (a capacity failure's cause, not `exhausted`). */
export interface RunError {
  kind: ErrorKind | 'unexpected';
  message: string;
  status?: number;
  code?: string;
}

/** One call: one case, one target, one repeat. */
export interface RunRecord {
  caseId: string;
  /** The target's `provider:model`. */
  target: string;
  /** 0-based repeat index. */
  repeat: number;
  /** What is compared: the target's key, or `${target} · ${prompt}` when the run has prompts. */
  column: string;
  /** The prompt's id, when the run has prompts. */
  prompt?: string;
  /** The case's weight in the column's score. */
  weight: number;
  /** True when the target answered (whether or not the answer passed). */
  ok: boolean;
  /** True when it answered and every expectation held. */
  pass: boolean;
  text?: string;
  finishReason?: FinishReason;
  /** As the provider reported it; absent when it reported none (unknown, never 0). */
  usage?: Usage;
  /** Estimated cost of this call; null when the target has no price or the call's usage is unknown. */
  costUsd?: number | null;
  /** Whole call: retries and their waits included. */
  latencyMs: number;
  /** Requests sent (skips without a request are not counted). */
  requests: number;
  checks: ExpectationResult[];
  error?: RunError;
  /** Time spent waiting for the target's capacity (a cooldown, a local budget) between calls. */
  capacityWaitMs?: number;
  /** The answer came from the disk cache: no request was sent (`latencyMs` and `costUsd` are the original call's). */
  cached?: true;
  /** What the graders' calls (judge, embeddings) cost in this run, apart from `costUsd`; absent when none was priced. */
  graderCostUsd?: number;
  /** A grader gave no verdict: the run is neither passed nor failed, and counts in no pass rate. */
  gradeError?: { expectation: string; message: string };
}

/** Everything measured about one column (a target, or a target under a prompt) over every case and repeat. */
export interface TargetSummary {
  /** The target's `provider:model`. */
  key: string;
  /** The column summarised: `key`, or `${key} · ${prompt}`. */
  column: string;
  prompt?: string;
  provider: string;
  model: string;
  runs: number;
  passed: number;
  /** Answered, but at least one expectation failed. */
  failed: number;
  /** No answer: the call ended in an error. */
  errored: number;
  /** passed / graded runs (runs minus gradeErrors): errors of the target count as not passed. */
  passRate: number;
  /** Weighted mean of pass over graded runs, weights the cases' `weight`; 0 when no run was graded. */
  score: number;
  /** Runs a grader gave no verdict for (judge unreachable, malformed verdict): counted in no rate. */
  gradeErrors: number;
  /** Summed graders' cost (judge and embeddings), apart from `costUsd`; null when none was priced. */
  graderCostUsd: number | null;
  /** Runs answered from the disk cache. */
  cachedRuns: number;
  /** Runs that failed each expectation. */
  failuresByExpectation: Partial<Record<ExpectationName, number>>;
  /** Errored runs by error kind. */
  errorKinds: Partial<Record<string, number>>;
  /** Nearest-rank percentiles over answered runs; null when none answered. */
  latencyMs: { p50: number; p95: number } | null;
  /** Summed over answered runs whose usage is known. */
  tokens: { input: number; output: number };
  /** Answered runs whose provider reported no usage: `tokens` and `costUsd` are then lower bounds. */
  usageUnknown: number;
  /** Summed over answered runs whose usage is known; null when the config has no price for the target. */
  costUsd: number | null;
  price: Price | null;
  /** With repeats: mean over cases (with two or more answers) of the share of answers equal to the most common one; else null. */
  stability: number | null;
  /** With repeats: cases whose repeats did not all get the same verdict; else null. */
  flakyCases: number | null;
  /** Wilson 95% interval of the pass rate over graded runs, as rates 0..1 (runEval always sets it). */
  passInterval?: [number, number];
}

/** `pass`: every repeat passed; `fail`: none passed, some answered; `error`: none answered; `mixed`: some passed. */
export type CellStatus = 'pass' | 'fail' | 'error' | 'mixed';

/** One case on one target, over its repeats. */
export interface CaseCell {
  target: string;
  column: string;
  prompt?: string;
  status: CellStatus;
  runs: number;
  passed: number;
  /** The most common answer (normalised), when the target answered at all. */
  answer?: string;
  /** Distinct `expectation: reason` lines of the failed runs. */
  failures: string[];
  /** Distinct error kinds of the errored runs. */
  errorKinds: string[];
}

/** One case across every target, and whether the targets disagree on it. */
export interface CaseSummary {
  id: string;
  messages: Message[];
  /** The case's weight in every column's score. */
  weight: number;
  expectations: ExpectationName[];
  /** In column order. */
  cells: CaseCell[];
  /** True when the columns that answered do not all have the same status (pass, fail, mixed). */
  disagree: boolean;
  passing: string[];
  notPassing: string[];
  /** Targets grouped by their (normalised) most common answer, largest group first. */
  answerGroups: Array<{ answer: string; targets: string[] }>;
  /** With --repeat: the variance of pass across repeats, p(1 - p), averaged over columns. */
  variance?: number;
}

/** The whole evaluation: what `--json` writes and the terminal and HTML reports render. */
export interface EvalReport {
  /** 2 since the graders, prompts and cache (issue 35); readers accept `version >= 1`. */
  version: 2;
  chain: string;
  startedAt: string;
  durationMs: number;
  repeat: number;
  concurrency: number;
  /** One per column, in column order (chain order; under each target, its prompts in order). */
  targets: TargetSummary[];
  /** The columns compared, in order. */
  columns: string[];
  prompts?: Array<{ id: string; template: string }>;
  /** The default judge chain of the run, when it had one. */
  judgeChain?: string;
  /** The default embeddings chain of the run, when it had one. */
  embedChain?: string;
  /** Every run's `graderCostUsd` summed; null when none was priced. */
  graderCostUsd: number | null;
  /** The disk cache: where, and its lookups (answers, verdicts and embeddings) found and not. */
  cache?: { dir: string; hits: number; misses: number };
  /** In cases-file order. */
  cases: CaseSummary[];
  /** Ordered by case, then column, then repeat, whatever order they finished in. */
  runs: RunRecord[];
  /** Set when a minimum pass rate was asked for: the targets under it. */
  minPass?: { rate: number; below: string[] };
  /** Every pair of columns compared on the same cases (src/eval/compare/compare-columns.ts). */
  comparisons: Comparison[];
  /** "a 5-point difference would need ~N cases" (src/eval/stats/power.ts). */
  power: Power;
  /** With --baseline: cells that passed before and fail now, and the reverse. */
  baseline?: BaselineDiff;
  /** With --suggest: a proposed chain order from quality, cost and latency. */
  suggestion?: Suggestion;
}
