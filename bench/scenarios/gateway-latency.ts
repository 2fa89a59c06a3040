import { foreignLoad } from '../lib/contention.js';
import { interleaved } from '../lib/load.js';
import { balancedOrder, compare, roundsLine, roundsUntilTight, type Comparison, type RoundsResult, type StoppingRule } from '../lib/noise.js';
import type { BenchContext } from '../lib/scenario.js';
import { quantile, spread, type Spread } from '../lib/stats.js';

// The gateway scenario's c=1 rounds: every arm and a second bare SDK client (the A/A twin) called by the
// openai SDK, interleaved call by call in ABBA order, rounds added until the intervals are tight.

/** What a c=1 round needs of an arm. */
export interface LatencyArm {
  name: string;
  call: () => Promise<unknown>;
}

/** The name of the direct arm's A/A twin: a second openai client on the same upstream. */
export const TWIN_NAME = 'bare SDK (direct), A/A twin';

/**
 * The rounds' stopping rule (bench/lib/noise.ts): the c=1 rounds, and with --baseline-ref the rounds
 * of now against before, each until their tracked intervals are 3% wide, within the caps.
 */
export function stoppingRule(ctx: BenchContext, maxMinutes: number): StoppingRule {
  const defaults: StoppingRule = ctx.quick ? { width: 0.03, minRounds: 2, maxRounds: 2, maxMs: 60_000 } : { width: 0.03, minRounds: 6, maxRounds: 20, maxMs: maxMinutes * 60_000 };
  return Object.assign(defaults, ctx.stopping);
}

interface LatencyRounds {
  /** p50/p99 per arm (the twin too), median of rounds. */
  byArm: Record<string, { p50: Spread; p99: Spread }>;
  /** The share of the client's core other processes took, per round. */
  foreign: number[];
  /** Every arm's p50 ÷ the direct arm's, per round, beside the twin's (the A/A). */
  comparisons: Comparison[];
  stopped: RoundsResult;
}

/**
 * c=1 rounds, every arm and the direct arm's twin interleaved call by call, the order balanced across
 * rounds (ABBA), until the p50 ratio of `tracked` to the direct arm and the A/A are within the rule.
 */
export async function latencyRounds(arms: LatencyArm[], twin: LatencyArm, tracked: string, rule: StoppingRule, perRound: number, warmup: number, log: (line: string) => void): Promise<LatencyRounds> {
  const all = [...arms, twin];
  const direct = arms[0]!.name;
  await interleaved(warmup, all.map((a) => [a.name, a.call] as const));
  const samples: Record<string, { p50: number[]; p99: number[] }> = Object.fromEntries(all.map((a) => [a.name, { p50: [], p99: [] }]));
  const foreign: number[] = [];
  const p50Of = (name: string) => compare(`${name}: c=1 p50 (SDK client)`, 'lower', samples[name]!.p50, samples[direct]!.p50, samples[twin.name]!.p50, rule.width);
  const round = async (r: number) => {
    log(`gateway: c=1, round ${r + 1} (at least ${rule.minRounds}, at most ${rule.maxRounds})`);
    const load = foreignLoad('1');
    const lat = await interleaved(perRound, balancedOrder(all, r).map((a) => [a.name, a.call] as const));
    foreign.push(load().share);
    for (const [name, us] of Object.entries(lat)) {
      samples[name]!.p50.push(quantile(us, 0.5));
      samples[name]!.p99.push(quantile(us, 0.99));
    }
  };
  const stopped = await roundsUntilTight(rule, round, () => {
    const c = p50Of(tracked);
    return [c.cmp, c.aa];
  }, () => performance.now());
  log(`gateway: c=1: ${roundsLine(stopped, rule)}`);
  return {
    byArm: Object.fromEntries(Object.entries(samples).map(([name, s]) => [name, { p50: spread(s.p50), p99: spread(s.p99) }])),
    foreign, stopped, comparisons: arms.slice(1).map((a) => p50Of(a.name)),
  };
}
