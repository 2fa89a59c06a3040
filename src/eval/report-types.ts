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
}

/** Everything measured about one target over every case and repeat. */
export interface TargetSummary {
  key: string;
  provider: string;
  model: string;
  runs: number;
  passed: number;
  /** Answered, but at least one expectation failed. */
  failed: number;
  /** No answer: the call ended in an error. */
  errored: number;
  /** passed / runs: errors count as not passed. */
  passRate: number;
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
  expectations: ExpectationName[];
  /** In target order. */
  cells: CaseCell[];
  /** True when the targets that answered do not all have the same status (pass, fail, mixed). */
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
  version: 1;
  chain: string;
  startedAt: string;
  durationMs: number;
  repeat: number;
  concurrency: number;
  /** In chain order. */
  targets: TargetSummary[];
  /** In cases-file order. */
  cases: CaseSummary[];
  /** Ordered by case, then target, then repeat, whatever order they finished in. */
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
