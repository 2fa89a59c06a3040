import { interleaved } from '../lib/load.js';
import { balancedOrder, compare, comparisonColumns, comparisonRow, formatInterval, roundsBrief, roundsLine, roundsUntilTight, type Comparison, type RoundsResult, type StoppingRule } from '../lib/noise.js';
import { check, type Table, type TargetCheck } from '../lib/report.js';
import { quantile } from '../lib/stats.js';
import type { GatewayProcess } from './gateway-processes.js';
import { runWrk } from './gateway-wrk.js';

// The gateway's "now against before" (with --baseline-ref): `switchyard serve` now, the same of REF,
// and a second process of REF (the A/A twin), one worker each on the gateways' core, every path of
// each measured in the same rounds, the arms in ABBA order, rounds added until the intervals are tight.

/** What the comparison needs of an arm of gateway.ts. */
export interface CompareArm {
  name: string;
  call: () => Promise<unknown>;
  url: string;
  headers: Record<string, string>;
  body: string;
  gateway?: GatewayProcess;
}

/** The three arms of one path (pass-through or translated). */
export interface PathArms {
  path: string;
  now: CompareArm;
  before: CompareArm;
  twin: CompareArm;
}

interface RoundFigures {
  p50: number[];
  p99: number[];
  rps: number[];
  wrkP99: number[];
  cpuUs: number[];
}

export interface NowVsBefore {
  stopped: RoundsResult;
  rule: StoppingRule;
  comparisons: Record<string, Comparison[]>;
  rounds: Record<string, RoundFigures>;
  table: Table;
  targets: TargetCheck[];
}

/** wrk's connections in the comparison: a loaded gateway (the sweep's 16) without the c=64 queueing. */
export const COMPARE_CONNECTIONS = 16;

/**
 * Per round, in the round's order: c=1 (the openai SDK, every arm interleaved call by call), then wrk at
 * 16 connections for `wrkSeconds` per arm (req/s, p99 and the gateway's CPU a request from /proc). The
 * first path's c=1 p50, req/s and CPU a request, now ÷ before and twin ÷ before, are what the rule waits for.
 */
export async function nowVsBefore(o: {
  paths: PathArms[]; beforeLabel: string; rule: StoppingRule; callsPerRound: number; wrkSeconds: number; wrk: boolean; core: string | undefined; log: (line: string) => void;
}): Promise<NowVsBefore> {
  const arms = o.paths.flatMap((p) => [p.before, p.twin, p.now]);
  const figures: Record<string, RoundFigures> = Object.fromEntries(arms.map((a) => [a.name, { p50: [], p99: [], rps: [], wrkP99: [], cpuUs: [] }]));
  // The same warm-up for every arm, whatever it served before (the process now has had the c=1 rounds).
  await interleaved(Math.max(20, o.callsPerRound / 4), arms.map((a) => [a.name, a.call] as const));
  if (o.wrk) for (const a of arms) await runWrk(a.url, a.body, a.headers, COMPARE_CONNECTIONS, o.wrkSeconds, o.core);
  const of = (p: PathArms, k: keyof RoundFigures, better: 'lower' | 'higher', metric: string) =>
    compare(`${p.path}: ${metric}`, better, figures[p.now.name]![k], figures[p.before.name]![k], figures[p.twin.name]![k], o.rule.width);
  const first = o.paths[0]!;
  const tracked = () => [of(first, 'p50', 'lower', ''), ...(o.wrk ? [of(first, 'rps', 'higher', ''), of(first, 'cpuUs', 'lower', '')] : [])].flatMap((c) => [c.cmp, c.aa]);
  const round = async (r: number) => {
    o.log(`gateway: now vs before, round ${r + 1} (at least ${o.rule.minRounds}, at most ${o.rule.maxRounds})`);
    const order = balancedOrder(arms, r);
    const lat = await interleaved(o.callsPerRound, order.map((a) => [a.name, a.call] as const));
    for (const a of arms) {
      figures[a.name]!.p50.push(quantile(lat[a.name]!, 0.5));
      figures[a.name]!.p99.push(quantile(lat[a.name]!, 0.99));
    }
    if (!o.wrk) return;
    for (const a of order) {
      const cpu0 = a.gateway?.cpuSeconds() ?? Number.NaN;
      const w = await runWrk(a.url, a.body, a.headers, COMPARE_CONNECTIONS, o.wrkSeconds, o.core);
      const cpu = (a.gateway?.cpuSeconds() ?? Number.NaN) - cpu0;
      const f = figures[a.name]!;
      f.rps.push(w.errors === 0 ? w.rps : Number.NaN);
      f.wrkP99.push(w.p99Us);
      f.cpuUs.push((cpu * 1e6) / w.requests);
    }
  };
  const stopped = await roundsUntilTight(o.rule, round, tracked, () => performance.now());
  o.log(`gateway: now vs before: ${roundsLine(stopped, o.rule)}`);

  const comparisons = Object.fromEntries(o.paths.map((p) => [p.path, [
    of(p, 'p50', 'lower', 'c=1 p50 (SDK client)'),
    of(p, 'p99', 'lower', 'c=1 p99 (SDK client)'),
    ...(o.wrk ? [
      of(p, 'rps', 'higher', `req/s (wrk, c=${COMPARE_CONNECTIONS})`),
      of(p, 'wrkP99', 'lower', `p99 (wrk, c=${COMPARE_CONNECTIONS})`),
      of(p, 'cpuUs', 'lower', 'gateway CPU a request'),
    ] : []),
  ]]));
  const targets: TargetCheck[] = [];
  for (const p of o.paths) {
    for (const c of comparisons[p.path]!.filter((x) => !x.metric.includes('p99'))) {
      targets.push(check(`switchyard serve ${c.metric}, now vs before`, 'not worse beyond its A/A interval', `${formatInterval(c.cmp)} (A/A ${formatInterval(c.aa)})`,
        c.verdict !== 'worse beyond noise', `worse beyond noise${c.tight ? '' : ' (interval wider than the rule\'s)'}`));
    }
  }
  return {
    stopped, rule: o.rule, comparisons, rounds: figures, targets,
    table: {
      title: `switchyard serve now against before (${o.beforeLabel}), one worker each, same run: per-round ratios with the A/A twin (a second process of ${o.beforeLabel}) beside each (${roundsBrief(stopped)})`,
      columns: comparisonColumns({ cmp: 'now ÷ before', aa: 'A/A: before twin ÷ before' }),
      rows: o.paths.flatMap((p) => comparisons[p.path]!.map(comparisonRow)),
    },
  };
}
