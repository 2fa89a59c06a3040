/**
 * Telling a change from noise (pure: no IO, no clock of its own). Every "A against B" comparison of the
 * bench is a per-round ratio (B's figure ÷ A's, both from the same round), measured with:
 * - the arms' order balanced across rounds (`balancedOrder`: ABBA, so neither arm always goes first);
 * - rounds added until the 95% interval of the ratio is tight (`StoppingRule`, `stopReason`);
 * - an A/A ratio beside it: a twin of the baseline arm (same code, its own instance), measured the same
 *   way in the same rounds, whose interval is the noise floor of the method on this machine;
 * - a verdict that calls a change "beyond noise" only when its interval excludes 1 and lies wholly
 *   outside the A/A interval (`verdict`).
 */

/** A 95% interval of a ratio: the geometric mean of per-round ratios, t-based on their logs. */
export interface RatioInterval {
  /** Rounds with a usable ratio (finite and > 0). */
  n: number;
  /** exp(mean(log ratio)); NaN for none. */
  ratio: number;
  lo: number;
  hi: number;
  /** hi ÷ lo − 1: 0.03 is an interval 3% wide (about ±1.5%); Infinity below two rounds. */
  width: number;
}

/** Two-sided 95% Student t quantiles (0.975) for 1..30 degrees of freedom. */
const T975 = [12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.16, 2.145, 2.131,
  2.12, 2.11, 2.101, 2.093, 2.086, 2.08, 2.074, 2.069, 2.064, 2.06, 2.056, 2.052, 2.048, 2.045, 2.042];

/** The 0.975 quantile of Student's t with `df` degrees of freedom (table to 30, then a Cornish-Fisher expansion). */
export function t975(df: number): number {
  if (!(df >= 1)) return Number.NaN;
  if (df <= 30) return T975[Math.floor(df) - 1]!;
  const z = 1.959964;
  return z + (z ** 3 + z) / (4 * df) + (5 * z ** 5 + 16 * z ** 3 + 3 * z) / (96 * df * df);
}

/** Per-round ratios candidate[i] ÷ baseline[i] (the shorter length; a round missing either side is NaN). */
export function pairedRatios(candidate: readonly number[], baseline: readonly number[]): number[] {
  const n = Math.min(candidate.length, baseline.length);
  const out = new Array<number>(n);
  for (let i = 0; i < n; i++) out[i] = candidate[i]! / baseline[i]!;
  return out;
}

/** The 95% interval of per-round ratios (non-finite or non-positive ones are left out and not counted). */
export function ratioInterval(ratios: readonly number[]): RatioInterval {
  const logs = ratios.filter((r) => Number.isFinite(r) && r > 0).map(Math.log);
  const n = logs.length;
  if (n === 0) return { n, ratio: Number.NaN, lo: Number.NaN, hi: Number.NaN, width: Number.POSITIVE_INFINITY };
  const m = logs.reduce((s, x) => s + x, 0) / n;
  if (n === 1) return { n, ratio: Math.exp(m), lo: Number.NaN, hi: Number.NaN, width: Number.POSITIVE_INFINITY };
  const sd = Math.sqrt(logs.reduce((s, x) => s + (x - m) ** 2, 0) / (n - 1));
  const half = t975(n - 1) * sd / Math.sqrt(n);
  return { n, ratio: Math.exp(m), lo: Math.exp(m - half), hi: Math.exp(m + half), width: Math.exp(2 * half) - 1 };
}

/**
 * The arms' order in round `round`: rounds go in pairs, the second the first reversed (ABBA), and each
 * pair starts one arm later than the last. In every pair of rounds each two arms run once in each order,
 * and over 2 × arms rounds each arm holds every position equally often.
 */
export function balancedOrder<T>(arms: readonly T[], round: number): T[] {
  const k = arms.length === 0 ? 0 : Math.floor(round / 2) % arms.length;
  const rotated = arms.map((_, i) => arms[(i + k) % arms.length]!);
  return round % 2 === 0 ? rotated : rotated.reverse();
}

/** When to stop adding rounds. Rounds are added in pairs (an ABBA block), so the floor and cap are even. */
export interface StoppingRule {
  /** Stop once every tracked interval is at most this wide (hi ÷ lo − 1). */
  width: number;
  /** Never fewer rounds than this. */
  minRounds: number;
  /** Never more rounds than this. */
  maxRounds: number;
  /** Start no new pair of rounds after this long (ms, from the first round). */
  maxMs: number;
}

export type StopReason = 'tight' | 'round cap' | 'time cap';

/** A rule with the floor and cap rounded up to whole ABBA pairs (and the cap at least the floor). */
export function normaliseRule(rule: StoppingRule): StoppingRule {
  const even = (x: number) => Math.max(2, 2 * Math.ceil(x / 2));
  const minRounds = even(rule.minRounds);
  return { width: rule.width, minRounds, maxRounds: Math.max(minRounds, even(rule.maxRounds)), maxMs: rule.maxMs };
}

/** Why to stop after `rounds` rounds and `elapsedMs`, or undefined to add another pair. */
export function stopReason(rule: StoppingRule, rounds: number, elapsedMs: number, intervals: readonly RatioInterval[]): StopReason | undefined {
  const r = normaliseRule(rule);
  if (rounds < r.minRounds) return undefined;
  if (intervals.every((i) => i.width <= r.width)) return 'tight';
  if (rounds >= r.maxRounds) return 'round cap';
  if (elapsedMs >= r.maxMs) return 'time cap';
  return undefined;
}

export interface RoundsResult {
  rounds: number;
  stoppedBy: StopReason;
  elapsedMs: number;
}

/**
 * Runs rounds, two at a time, until `stopReason` says stop. `intervals` is asked after each pair for
 * every interval the rule tracks (comparisons and their A/A). `clock` is injected (ms).
 */
export async function roundsUntilTight(rule: StoppingRule, runRound: (round: number) => Promise<void>, intervals: () => readonly RatioInterval[], clock: () => number): Promise<RoundsResult> {
  const t0 = clock();
  for (let rounds = 0; ;) {
    await runRound(rounds++);
    await runRound(rounds++);
    const elapsedMs = clock() - t0;
    const stop = stopReason(rule, rounds, elapsedMs, intervals());
    if (stop) return { rounds, stoppedBy: stop, elapsedMs };
  }
}

/** Whether a larger or a smaller figure is the better one (req/s; latency, CPU, bytes). */
export type Better = 'higher' | 'lower';

export type Verdict = 'worse beyond noise' | 'better beyond noise' | 'within noise';

/**
 * "Beyond noise" only when the comparison's interval excludes 1 and lies wholly outside the A/A
 * interval, on the same side; otherwise "within noise". Without two rounds of either, "within noise".
 */
export function verdict(cmp: RatioInterval, aa: RatioInterval, better: Better): Verdict {
  if (!(cmp.n >= 2 && aa.n >= 2)) return 'within noise';
  const up = cmp.lo > 1 && cmp.lo > aa.hi;
  const down = cmp.hi < 1 && cmp.hi < aa.lo;
  if (!up && !down) return 'within noise';
  return up === (better === 'lower') ? 'worse beyond noise' : 'better beyond noise';
}

/** One comparison with its A/A line and verdict. */
export interface Comparison {
  metric: string;
  better: Better;
  /** candidate ÷ baseline, per round. */
  cmp: RatioInterval;
  /** twin ÷ baseline, per round: the noise floor. */
  aa: RatioInterval;
  verdict: Verdict;
  /** Both intervals within the rule's width. */
  tight: boolean;
}

/** Compares `candidate` with `baseline` round by round, beside the A/A of `twin` with `baseline`. */
export function compare(metric: string, better: Better, candidate: readonly number[], baseline: readonly number[], twin: readonly number[], width: number): Comparison {
  const cmp = ratioInterval(pairedRatios(candidate, baseline));
  const aa = ratioInterval(pairedRatios(twin, baseline));
  return { metric, better, cmp, aa, verdict: verdict(cmp, aa, better), tight: cmp.width <= width && aa.width <= width };
}

const fixed = (x: number, d: number) => (Number.isFinite(x) ? x.toFixed(d) : 'n/a');

/** `1.012x [0.998–1.027]`, or the ratio alone below two rounds. */
export function formatInterval(i: RatioInterval, digits = 3): string {
  if (!Number.isFinite(i.lo)) return `${fixed(i.ratio, digits)}x`;
  return `${fixed(i.ratio, digits)}x [${fixed(i.lo, digits)}–${fixed(i.hi, digits)}]`;
}

/** The column heads `comparisonRow` fills, after `labels` (e.g. "now ÷ before", "A/A: before ÷ before"). */
export function comparisonColumns(labels: { cmp: string; aa: string }): string[] {
  return ['metric', `${labels.cmp} [95% interval]`, `${labels.aa} [95% interval]`, 'verdict'];
}

/** A table row: metric, the ratio's interval, the A/A interval beside it, the verdict (flagged when not tight). */
export function comparisonRow(c: Comparison): string[] {
  const v = c.verdict === 'within noise' ? c.verdict : `**${c.verdict}**`;
  const aaOff = c.aa.n >= 2 && (c.aa.lo > 1 || c.aa.hi < 1) ? ' (the A/A interval excludes 1: the method has a bias here)' : '';
  const wide = c.tight ? '' : ' (interval wider than the rule\'s)';
  return [`${c.metric} (${c.better} is better)`, formatInterval(c.cmp), formatInterval(c.aa), `${v}${wide}${aaOff}`];
}

/** "12 rounds, intervals tight" or "30 rounds, stopped at the round cap": for a table's title. */
export function roundsBrief(r: RoundsResult): string {
  return `${r.rounds} rounds, ${r.stoppedBy === 'tight' ? 'intervals tight' : `stopped at the ${r.stoppedBy}`}`;
}

/** "12 rounds in 3.1 min, stopped: every tracked interval within 3%" (or at a cap, said as such). */
export function roundsLine(r: RoundsResult, rule: StoppingRule): string {
  const n = normaliseRule(rule);
  const why = r.stoppedBy === 'tight' ? `every tracked interval within ${(n.width * 100).toFixed(1)}%`
    : r.stoppedBy === 'round cap' ? `**hit the round cap** (${n.maxRounds}) before every tracked interval was within ${(n.width * 100).toFixed(1)}%`
      : `**hit the time cap** (${(n.maxMs / 60_000).toFixed(1)} min) before every tracked interval was within ${(n.width * 100).toFixed(1)}%`;
  return `${r.rounds} rounds (ABBA order) in ${(r.elapsedMs / 60_000).toFixed(1)} min, stopped: ${why}; floor ${n.minRounds}, cap ${n.maxRounds} rounds or ${(n.maxMs / 60_000).toFixed(1)} min.`;
}
