import type { TargetSummary } from '../report-types.js';
import { scoreOf, summaryColumn, summaryPrompt } from '../stats/run-facts.js';

/** What the suggestion weighs for one column. */
export interface ColumnFacts {
  column: string;
  /** The chain entry: the target's `provider:model`. */
  target: string;
  prompt?: string;
  score: number;
  /** Mean cost of an answered run; Infinity when unknown (unknown cost ranks as the dearest). */
  costPerRun: number;
  /** Infinity when it never answered. */
  p50: number;
  answered: number;
}

export function columnFacts(t: TargetSummary): ColumnFacts {
  const answered = t.runs - t.errored;
  const prompt = summaryPrompt(t);
  const facts: ColumnFacts = {
    column: summaryColumn(t), target: t.key, score: scoreOf(t),
    costPerRun: t.costUsd === null || answered === 0 ? Infinity : t.costUsd / answered,
    p50: t.latencyMs?.p50 ?? Infinity, answered,
  };
  if (prompt !== undefined) facts.prompt = prompt;
  return facts;
}

/** Whether `a` dominates `b`: at least as good on score, cost and latency, and better on one. */
export function dominates(a: ColumnFacts, b: ColumnFacts): boolean {
  const noWorse = a.score >= b.score && a.costPerRun <= b.costPerRun && a.p50 <= b.p50;
  return noWorse && (a.score > b.score || a.costPerRun < b.costPerRun || a.p50 < b.p50);
}

/** The columns no other column dominates (score high, cost low, latency p50 low), in the given order. */
export function paretoFront(columns: readonly ColumnFacts[]): ColumnFacts[] {
  return columns.filter((c) => !columns.some((o) => o !== c && dominates(o, c)));
}
