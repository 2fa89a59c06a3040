// What the report helper adds to an EvalReport (issue 35: statistics, baseline, suggestion). The
// field names are binding (the eval contract); pure functions under stats/, compare/, baseline/ and
// suggest/ compute them from the report's runs and summaries.

/** Two columns compared on the same cases: differences and intervals in points (rate × 100). */
export interface Comparison {
  a: string;
  b: string;
  /** Pairs compared: same case and repeat, both graded, not both errored. */
  n: number;
  /** Pass rate of a minus pass rate of b, in points. */
  diff: number;
  interval: [number, number];
  method: string;
  /** The interval excludes 0. */
  shown: boolean;
  /** "a beats b by +12 points [+4, +20]" or "no difference shown at n=10". */
  text: string;
  /** McNemar's exact two-sided p-value (unadjusted). */
  pValue: number;
  /** Pairs a passed and b did not, and the reverse. */
  discordant: [number, number];
  /** Pairs left out because both sides errored. */
  excludedBothErrored: number;
}

/** "a 5-point difference would need ~N cases". */
export interface Power {
  pointsDetectable: 5;
  casesNeeded: number;
  /** The discordant share the estimate assumed, and where it came from. */
  discordance: number;
  basis: 'observed' | 'pass rate' | 'floor';
}

export interface CaseColumn {
  caseId: string;
  column: string;
}

export interface BaselineDiff {
  file: string;
  /** Passed in the baseline, fails now. */
  regressions: Array<CaseColumn & { now: 'fail' | 'error' }>;
  /** Failed in the baseline, passes now. */
  fixes: CaseColumn[];
  /** On one side only: never a regression. */
  missing: { columnsOnlyBefore: string[]; columnsOnlyNow: string[]; casesOnlyBefore: string[]; casesOnlyNow: string[] };
}

export interface Suggestion {
  chain: string;
  order: Array<{ column: string; reason: string }>;
  pareto: string[];
  snippet: string;
  /** Set when the run compared prompts: the prompt the order is for. */
  prompt?: string;
  /** Columns left out of the order, and why. */
  left: Array<{ column: string; reason: string }>;
}
