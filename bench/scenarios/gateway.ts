import { spawnSync } from 'node:child_process';
import OpenAI from 'openai';
import { API_KEY, MODEL, benchRouter, chainConfig } from '../lib/arms.js';
import { num, withIqr } from '../lib/format.js';
import { closedLoop } from '../lib/load.js';
import { comparisonColumns, comparisonRow, roundsBrief, roundsLine } from '../lib/noise.js';
import { launchPlainUpstream, type PlainUpstream } from '../lib/plain-upstream.js';
import { check, overBy, type ScenarioReport, type TargetCheck } from '../lib/report.js';
import type { BenchContext, BenchScenario } from '../lib/scenario.js';
import { spread } from '../lib/stats.js';
import { nowVsBefore, type CompareArm, type NowVsBefore } from './gateway-compare.js';
import { latencyRounds, stoppingRule, TWIN_NAME } from './gateway-latency.js';
import { builtEntry, FLOOR_NAME, startFloor, startPortkey, startSwitchyard, tsxEntry, type GatewayProcess } from './gateway-processes.js';
import { hasWrk, runWrk, type WrkResult } from './gateway-wrk.js';

// S2 of the performance anchors: proxy mode. The same zero-latency upstream (plain node:http, one
// fixed completion with OpenAI's rate-limit headers) called directly with the openai SDK, through
// `switchyard serve` (one worker and --workers 2, each on the pass-through path and on the translated
// one), and through Portkey's open-source gateway, all in one run.

const MESSAGES = [{ role: 'user' as const, content: 'Say hello in five words.' }];
/**
 * The same prompt as a content part: a body the pass-through path does not forward as it is (see
 * src/decide/pass-through.ts), so the gateway converts it, the router sends it through the openai
 * SDK and the answer is converted back: what every translated request (an Anthropic target, tools) pays.
 */
const PART_MESSAGES = [{ role: 'user' as const, content: [{ type: 'text' as const, text: 'Say hello in five words.' }] }];
const TRANSLATED = ', translated';
const SWEEP = [1, 4, 16, 32, 64];
const MODERATE = 4;

/** An arm: the SDK pointed at it, what wrk posts to, its process (none for the direct arm); the comparison's arm shape. */
type Arm = CompareArm;

/** One arm's figures in the at-a-glance table (µs; req/s). */
interface Summary {
  addedP50Us: number;
  addedP99Us: number;
  /** The same at c=1 with wrk as the client (no client-side GC or SDK work in the figure): the wrk c=1 point minus the bare upstream's. */
  addedP50WrkUs: number;
  addedP99WrkUs: number;
  /** The same with the gateway on the client's and the upstream's core (no cross-core wake-ups). */
  addedP50OneCoreUs: number;
  addedP99OneCoreUs: number;
  addedP99ModerateUs: number;
  /** The best rate with p99 ≤ 10 ms and no errors: 0 when no point made it, NaN when none was measured. */
  rps10ms: number;
  rpsPerCore: number;
  peakRps: number;
  /** The gateway's CPU µs a request at its busiest wrk point. */
  cpuUs: number;
}

interface SweepPoint extends WrkResult {
  /** The gateway's CPU over the run, in cores (CPU seconds per second); NaN for the direct arm. */
  cpuCores: number;
  cpuUsPerRequest: number;
}

function armOf(name: string, baseURL: string, headers: Record<string, string>, gateway?: GatewayProcess, translated = false): Arm {
  const client = new OpenAI({ apiKey: API_KEY, baseURL, maxRetries: 0, defaultHeaders: headers });
  // Direct calls name the upstream's model; through a gateway, `model` names the chain (Portkey passes it on).
  const model = gateway?.name.startsWith('switchyard') ? 'default' : MODEL;
  const messages = translated ? PART_MESSAGES : MESSAGES;
  return {
    name: translated ? `${name}${TRANSLATED}` : name, url: `${baseURL}/chat/completions`, headers: { authorization: `Bearer ${API_KEY}`, ...headers }, gateway,
    body: JSON.stringify({ model, messages, max_completion_tokens: 16 }),
    call: () => client.chat.completions.create({ model, messages, max_completion_tokens: 16 }),
  };
}

/** The arms of a gateway process: Switchyard's on both paths, Portkey's as it is. */
function gatewayArms(p: GatewayProcess): Arm[] {
  const arm = armOf(p.name, p.baseURL, p.headers, p);
  return p.name.startsWith('switchyard') ? [arm, armOf(p.name, p.baseURL, p.headers, p, true)] : [arm];
}

async function sweep(arm: Arm, points: number[], seconds: number, core: string | undefined): Promise<SweepPoint[]> {
  const out: SweepPoint[] = [];
  for (const c of points) {
    const cpu0 = arm.gateway?.cpuSeconds() ?? Number.NaN;
    const t0 = performance.now();
    const r = await runWrk(arm.url, arm.body, arm.headers, c, seconds, core);
    const wallS = (performance.now() - t0) / 1000;
    const cpu = (arm.gateway?.cpuSeconds() ?? Number.NaN) - cpu0;
    out.push({ ...r, cpuCores: cpu / wallS, cpuUsPerRequest: (cpu * 1e6) / r.requests });
  }
  return out;
}

const ms = (us: number) => `${num(us / 1000, 3)} ms`;

/** Moves a running process, every thread of it, onto `cores` (taskset -a -p). */
function repin(pid: number, cores: string): void {
  const r = spawnSync('taskset', ['-a', '-p', '-c', cores, String(pid)], { stdio: 'ignore' });
  if (r.status !== 0) throw new Error(`taskset -a -p -c ${cores} ${pid} failed (${r.status})`);
}

/**
 * CPU µs per call of the bare SDK and of `router.chat` (the gateway's router, in this process), c=8:
 * what a gateway request costs before the gateway's own HTTP work, for the breakdown table.
 */
async function inProcessCpu(upstreamBaseURL: string, seconds: number): Promise<{ sdkUs: number; routerUs: number }> {
  const sdk = new OpenAI({ apiKey: API_KEY, baseURL: upstreamBaseURL, maxRetries: 0 });
  const router = benchRouter(chainConfig({ primary: upstreamBaseURL, secondary: upstreamBaseURL }));
  try {
    const sdkCall = () => sdk.chat.completions.create({ model: MODEL, messages: MESSAGES, max_completion_tokens: 16 });
    const routerCall = () => router.chat({ messages: MESSAGES, maxTokens: 16 });
    await closedLoop(8, 500, sdkCall);
    await closedLoop(8, 500, routerCall);
    const a = await closedLoop(8, seconds * 1000, sdkCall);
    const b = await closedLoop(8, seconds * 1000, routerCall);
    return { sdkUs: a.cpuUs / a.completed, routerUs: b.cpuUs / b.completed };
  } finally {
    await router.close();
  }
}

export const gateway: BenchScenario = {
  name: 'gateway',
  title: 'S2: proxy mode: switchyard serve and the Portkey gateway against the bare SDK, zero-latency upstream',
  async run(ctx: BenchContext): Promise<ScenarioReport> {
    const pinned = process.env.BENCH_PIN === '1';
    const gatewayCore = pinned ? '0' : undefined;
    const clientCore = pinned ? '1' : undefined;
    const notes: string[] = [];
    const upstream: PlainUpstream = await launchPlainUpstream({ headers: 'openai', core: clientCore });
    const processes: GatewayProcess[] = [];
    try {
      // --workers 2 gets both cores when pinning is on (the client and upstream then share them too).
      // The full run measures what `npx switchyard serve` runs (compiled); --quick, a smoke run, the sources through tsx.
      const { now, before } = ctx.sources;
      const entry = ctx.quick ? tsxEntry(now.root) : builtEntry(now.root);
      const [sy, pk, sy2, fl] = await Promise.allSettled([
        startSwitchyard(upstream.baseURL, gatewayCore, 1, entry), startPortkey(upstream.baseURL, gatewayCore),
        ctx.quick ? Promise.reject(new Error('skipped in --quick')) : startSwitchyard(upstream.baseURL, pinned ? '0,1' : undefined, 2, entry),
        startFloor(upstream.baseURL, gatewayCore),
      ]);
      if (sy.status === 'rejected') throw sy.reason;
      processes.push(sy.value);
      if (pk.status === 'fulfilled') processes.push(pk.value);
      else notes.push(`The Portkey gateway did not start, so it has no figures: ${(pk.reason as Error)?.message ?? pk.reason}`);
      if (sy2.status === 'fulfilled') processes.push(sy2.value);
      else notes.push(`switchyard serve --workers 2 has no figures: ${(sy2.reason as Error)?.message ?? sy2.reason}`);
      // The floor is closed with the rest but is not one of `processes` (processes[0] is switchyard's one worker).
      const floor = fl.status === 'fulfilled' ? fl.value : undefined;
      if (!floor) notes.push(`The node:http floor proxy did not start, so it has no figures: ${((fl as PromiseRejectedResult).reason as Error)?.message}`);
      const arms = [armOf('bare SDK (direct)', upstream.baseURL, {}), ...(floor ? [armOf(floor.name, floor.baseURL, {}, floor)] : []), ...processes.flatMap(gatewayArms)];
      if (floor) processes.push(floor);
      // --baseline-ref: switchyard serve of REF and its A/A twin (a second process of REF), run the way
      // the one now runs (compiled; --quick: through tsx), for the now-vs-before rounds only.
      const beforeProcs: GatewayProcess[] = [];
      if (before) {
        ctx.log(`gateway: starting switchyard serve of ${before.label} twice (before, and its A/A twin)`);
        const beforeEntry = ctx.quick ? tsxEntry(before.root) : builtEntry(before.root);
        const name = `switchyard serve (before: ${before.label})`;
        beforeProcs.push(await startSwitchyard(upstream.baseURL, gatewayCore, 1, beforeEntry, name));
        processes.push(beforeProcs[0]!);
        beforeProcs.push(await startSwitchyard(upstream.baseURL, gatewayCore, 1, beforeEntry, `${name}, A/A twin`));
        processes.push(beforeProcs[1]!);
      }
      ctx.log(`gateway: arms ${arms.map((a) => a.name).join(', ')}`);
      for (const a of arms) await a.call();

      const c1Rule = stoppingRule(ctx, 4);
      const twin = armOf(TWIN_NAME, upstream.baseURL, {});
      const measured = await latencyRounds(arms, twin, processes[0]!.name, c1Rule, ctx.quick ? 40 : 400, ctx.quick ? 20 : 500, ctx.log);
      const rounds = measured.stopped.rounds;
      const lat = measured.byArm;
      const direct = lat[arms[0]!.name]!;
      const busy = measured.foreign.filter((f) => f > 0.1).length;
      if (pinned && busy > 0) {
        notes.push(`${busy} of ${rounds} c=1 round(s) ran while other processes took over 10% of the client's core (median ${(spread(measured.foreign).median * 100).toFixed(0)}%): their tails say as much about the machine as about the gateways.`);
      }

      const wrk = hasWrk();
      let compared: NowVsBefore | undefined;
      if (before && beforeProcs.length === 2) {
        const nowArms = gatewayArms(processes[0]!);
        const [bArms, tArms] = beforeProcs.map(gatewayArms) as [Arm[], Arm[]];
        compared = await nowVsBefore({
          paths: nowArms.map((a, i) => ({ path: i === 0 ? 'pass-through' : 'translated', now: a, before: bArms[i]!, twin: tArms[i]! })),
          beforeLabel: before.label, rule: stoppingRule(ctx, 6), callsPerRound: ctx.quick ? 30 : 200, wrkSeconds: ctx.quick ? 1 : 2, wrk, core: clientCore, log: ctx.log,
        });
      }
      const sweeps: Record<string, SweepPoint[]> = {};
      if (wrk) {
        for (const a of arms) {
          ctx.log(`gateway: wrk sweep of ${a.name}`);
          sweeps[a.name] = await sweep(a, ctx.quick ? [MODERATE] : SWEEP, ctx.quick ? 1 : 5, clientCore);
        }
      } else {
        notes.push('wrk is not installed (Debian: apt-get install wrk), so there is no throughput sweep and no requests per second per core.');
      }
      // c=1 with the gateway moved onto the client's core: no request crosses between cores, so what is
      // added is the gateway's own work and one process switch, not the wake-ups between vCPUs (on a
      // VM an idle vCPU is woken through the hypervisor, four times a proxied request).
      const oneCore: Record<string, WrkResult> = {};
      if (wrk && pinned && !ctx.quick) {
        oneCore[arms[0]!.name] = await runWrk(arms[0]!.url, arms[0]!.body, arms[0]!.headers, 1, 5, clientCore);
        for (const a of arms.slice(1)) {
          if (!a.gateway || a.gateway.name.includes('--workers')) continue;
          repin(a.gateway.pid, clientCore!);
          try {
            oneCore[a.name] = await runWrk(a.url, a.body, a.headers, 1, 5, clientCore);
          } finally {
            repin(a.gateway.pid, gatewayCore!);
          }
        }
      }

      const cpu = await inProcessCpu(upstream.baseURL, ctx.quick ? 1 : 3);
      /** The gateway's CPU a request at its busiest wrk point: the figure load on the machine moves least. */
      const busiestCpuUs = (name: string) => {
        const busiest = (sweeps[name] ?? []).reduce<SweepPoint | undefined>((b, p) => (!b || p.cpuCores > b.cpuCores ? p : b), undefined);
        return busiest ? busiest.cpuUsPerRequest : Number.NaN;
      };
      const cpuTable = {
        title: 'Where a request\'s CPU goes (µs per request): in-process at c=8 in the client process, and each gateway\'s from /proc at its busiest wrk point',
        columns: ['what', 'CPU µs / request'],
        rows: [
          ['the openai SDK call alone (in-process)', num(cpu.sdkUs)],
          ['router.chat, router + SDK (in-process; the translated path without HTTP in and out)', num(cpu.routerUs)],
          ...arms.slice(1).map((a) => [a.name, num(busiestCpuUs(a.name))]),
        ],
      };
      const latencyTable = {
        title: `c=1, the openai SDK as the client, arms interleaved call by call (ABBA order): median of ${rounds} round(s) [IQR], µs; the last row is the bare SDK's A/A twin`,
        columns: ['arm', 'p50', 'p99', 'added p50', 'added p99'],
        rows: [...arms, twin].map((a) => {
          const l = lat[a.name]!;
          const added = (q: 'p50' | 'p99') => (a === arms[0] ? '-' : num(l[q].median - direct[q].median));
          return [a.name, withIqr(l.p50), withIqr(l.p99), added('p50'), added('p99')];
        }),
      };
      const sweepTable = {
        title: `wrk (1 thread${pinned ? ', pinned to core 1 with the upstream; each gateway alone on core 0' : ''}), ${ctx.quick ? 1 : 5} s per point`,
        columns: ['arm', 'connections', 'req/s', 'p50', 'p99', 'gateway CPU (cores)', 'CPU µs / request', 'errors'],
        rows: Object.entries(sweeps).flatMap(([name, points]) => points.map((p) => [
          name, String(p.connections), num(p.rps), ms(p.p50Us), ms(p.p99Us),
          Number.isFinite(p.cpuCores) ? num(p.cpuCores, 2) : '-', Number.isFinite(p.cpuUsPerRequest) ? num(p.cpuUsPerRequest) : '-', String(p.errors),
        ])),
      };

      const c1Table = {
        title: `c=1 against the bare SDK, same rounds: per-round p50 ratios with the A/A (a second bare SDK client) beside each (${roundsBrief(measured.stopped)})`,
        columns: comparisonColumns({ cmp: 'arm ÷ bare SDK', aa: 'A/A: bare SDK twin ÷ bare SDK' }),
        rows: measured.comparisons.map(comparisonRow),
      };
      const targets: TargetCheck[] = [...(compared?.targets ?? [])];
      const summary: Record<string, Summary> = {};
      for (const a of arms.slice(1)) {
        const addedP99 = lat[a.name]!.p99.median - direct.p99.median;
        const points = sweeps[a.name] ?? [];
        const directPoints = sweeps[arms[0]!.name] ?? [];
        const moderate = points.find((p) => p.connections === MODERATE);
        const directModerate = directPoints.find((p) => p.connections === MODERATE);
        const addedModerate = moderate && directModerate ? moderate.p99Us - directModerate.p99Us : Number.NaN;
        const single = points.find((p) => p.connections === 1);
        const directSingle = directPoints.find((p) => p.connections === 1);
        const addedWrk = (q: 'p50Us' | 'p99Us') => (single && directSingle ? single[q] - directSingle[q] : Number.NaN);
        const one = oneCore[a.name];
        const directOne = oneCore[arms[0]!.name];
        const addedOneCore = (q: 'p50Us' | 'p99Us') => (one && directOne ? one[q] - directOne[q] : Number.NaN);
        const ok = points.filter((p) => p.p99Us <= 10_000 && p.errors === 0);
        const best = ok.reduce<SweepPoint | undefined>((b, p) => (!b || p.rps > b.rps ? p : b), undefined);
        // Pinned, the gateway has one core: its best rate is per core. Unpinned, divide by the cores it used.
        const perCore = best ? (pinned ? best.rps : best.rps / Math.max(best.cpuCores, 1e-9)) : Number.NaN;
        const clean = points.filter((p) => p.errors === 0);
        const peak = clean.length > 0 ? Math.max(...clean.map((p) => p.rps)) : Number.NaN;
        // Measured points none of which kept p99 within 10 ms are a miss (0), not a gap in the data.
        const rate = best ? best.rps : points.length > 0 ? 0 : Number.NaN;
        summary[a.name] = { addedP50Us: lat[a.name]!.p50.median - direct.p50.median, addedP99Us: addedP99, addedP50WrkUs: addedWrk('p50Us'), addedP99WrkUs: addedWrk('p99Us'), addedP50OneCoreUs: addedOneCore('p50Us'), addedP99OneCoreUs: addedOneCore('p99Us'), addedP99ModerateUs: addedModerate, rpsPerCore: perCore, rps10ms: rate, peakRps: peak, cpuUs: busiestCpuUs(a.name) };
        // The done-when of issue 22 is on the pass-through path of one worker (and --workers 2 against it, below).
        if (!a.name.startsWith('switchyard') || a.name.includes('--workers') || a.name.endsWith(TRANSLATED)) continue;
        const addedP50 = summary[a.name]!.addedP50Us;
        targets.push(check('switchyard pass-through: added p50 at c=1 (SDK client)', '≤ 200 µs', `${num(addedP50)} µs`, addedP50 <= 200, overBy(addedP50, 200, 'µs', 0)));
        targets.push(check('switchyard pass-through: added p99 at c=1 (SDK client)', '≤ 400 µs', `${num(addedP99)} µs`, addedP99 <= 400, overBy(addedP99, 400, 'µs', 0)));
        const { addedP50WrkUs: w50, addedP99WrkUs: w99 } = summary[a.name]!;
        targets.push(check('switchyard pass-through: added p50 at c=1 (wrk client)', '≤ 200 µs', Number.isFinite(w50) ? `${num(w50)} µs` : 'n/a', Number.isFinite(w50) ? w50 <= 200 : null, overBy(w50, 200, 'µs', 0)));
        targets.push(check('switchyard pass-through: added p99 at c=1 (wrk client)', '≤ 400 µs', Number.isFinite(w99) ? `${num(w99)} µs` : 'n/a', Number.isFinite(w99) ? w99 <= 400 : null, overBy(w99, 400, 'µs', 0)));
        targets.push(check(`switchyard pass-through: added p99 at moderate load (wrk, c=${MODERATE})`, '≤ 0.5 ms', Number.isFinite(addedModerate) ? ms(addedModerate) : 'n/a',
          Number.isFinite(addedModerate) ? addedModerate <= 500 : null, overBy(addedModerate / 1000, 0.5, 'ms', 3)));
        const measuredRate = best ? num(best.rps) : points.length > 0 ? `none within p99 ≤ 10 ms (peak ${num(peak)} req/s)` : 'n/a';
        targets.push(check(`switchyard pass-through, one worker: req/s at p99 ≤ 10 ms${pinned ? ' (one core)' : ''}`, '≥ 3,000', measuredRate,
          Number.isFinite(rate) ? rate >= 3_000 : null, `${num(3_000 - rate)} req/s under (${(rate / 3_000).toFixed(2)}x the target)`));
      }
      const pkSummary = Object.entries(summary).find(([n]) => n.startsWith('Portkey'))?.[1];
      const sySummary = summary[processes[0]!.name]!;
      const headline = {
        title: 'At a glance',
        columns: ['arm', 'added p50 / p99 (c=1, SDK client)', 'added p50 / p99 (c=1, wrk)', 'added p50 / p99 (c=1, wrk, all on one core)', `added p99 (wrk c=${MODERATE})`, 'req/s at p99 ≤ 10 ms', 'the same per core', 'peak req/s (any p99)', 'gateway CPU µs / request'],
        rows: Object.entries(summary).map(([name, v]) => {
          const n = (x: number) => (x === 0 ? 'none' : Number.isFinite(x) ? num(x) : 'n/a');
          const us = (x: number) => (Number.isFinite(x) ? num(x) : 'n/a');
          return [name, `${num(v.addedP50Us)} / ${num(v.addedP99Us)} µs`, `${us(v.addedP50WrkUs)} / ${us(v.addedP99WrkUs)} µs`, `${us(v.addedP50OneCoreUs)} / ${us(v.addedP99OneCoreUs)} µs`, Number.isFinite(v.addedP99ModerateUs) ? ms(v.addedP99ModerateUs) : 'n/a', n(v.rps10ms), n(v.rpsPerCore), n(v.peakRps), n(v.cpuUs)];
        }),
      };
      const sy2Summary = Object.entries(summary).find(([n]) => n.includes('--workers 2') && !n.endsWith(TRANSLATED))?.[1];
      if (sy2Summary && sySummary) {
        const peakRatio = sy2Summary.peakRps / sySummary.peakRps;
        // With no point of either within p99 ≤ 10 ms (a busy machine), the peaks stand in, and say so.
        const both = sy2Summary.rps10ms > 0 && sySummary.rps10ms > 0;
        const ratio = both ? sy2Summary.rps10ms / sySummary.rps10ms : peakRatio;
        notes.push(`switchyard serve --workers 2 against one worker (pass-through): ${num(sy2Summary.rps10ms)} vs ${num(sySummary.rps10ms)} req/s at p99 ≤ 10 ms (${ratio.toFixed(2)}x), ` +
          `peak ${num(sy2Summary.peakRps)} vs ${num(sySummary.peakRps)} (${peakRatio.toFixed(2)}x). On a 2-core machine wrk and the upstream take the same cores, so this understates what a second core gives a gateway of its own.`);
        targets.push(check('switchyard --workers 2: req/s at p99 ≤ 10 ms against one worker', '≥ 1.7x', `${Number.isFinite(ratio) ? ratio.toFixed(2) : 'n/a'}x${both ? '' : ' (peaks: no point within 10 ms)'}`,
          Number.isFinite(ratio) ? ratio >= 1.7 : null, `${(1.7 - ratio).toFixed(2)}x under`));
      }
      if (pkSummary && sySummary) {
        const ratio = sySummary.rps10ms / pkSummary.peakRps;
        notes.push(`switchyard serve (pass-through) against Portkey in this run: added p99 ${num(sySummary.addedP99Us)} µs vs ${num(pkSummary.addedP99Us)} µs; ` +
          `req/s at p99 ≤ 10 ms ${num(sySummary.rps10ms)} against Portkey's peak ${num(pkSummary.peakRps)} (${ratio.toFixed(2)}x).`);
        targets.push(check('switchyard pass-through, one worker: req/s at p99 ≤ 10 ms against Portkey\'s peak', '≥ 3x', `${Number.isFinite(ratio) ? ratio.toFixed(2) : 'n/a'}x`,
          Number.isFinite(ratio) ? ratio >= 3 : null, `${(3 - ratio).toFixed(2)}x under`));
      }
      const floorSummary = summary[FLOOR_NAME];
      if (floorSummary && sySummary) {
        const f = (x: number) => (Number.isFinite(x) ? num(x) : 'n/a');
        notes.push(`The floor (${FLOOR_NAME}: node:http in and out, no router, no parse) adds at c=1, by wrk: ${f(floorSummary.addedP50WrkUs)} / ${f(floorSummary.addedP99WrkUs)} µs p50 / p99 across cores, ` +
          `${f(floorSummary.addedP50OneCoreUs)} / ${f(floorSummary.addedP99OneCoreUs)} µs on one core; switchyard serve (pass-through) ${f(sySummary.addedP50WrkUs)} / ${f(sySummary.addedP99WrkUs)} and ${f(sySummary.addedP50OneCoreUs)} / ${f(sySummary.addedP99OneCoreUs)} µs. ` +
          'What the floor adds, any Node.js gateway pays on this machine: the c=1 targets are met only where the floor leaves room under them.');
      }
      const translated = summary[`${processes[0]!.name}${TRANSLATED}`];
      if (translated && sySummary) {
        notes.push(`Translated against pass-through, one worker: added p50 ${num(translated.addedP50Us)} vs ${num(sySummary.addedP50Us)} µs; req/s at p99 ≤ 10 ms ${num(translated.rps10ms)} vs ${num(sySummary.rps10ms)}.`);
      }
      notes.push(`c=1 rounds: ${roundsLine(measured.stopped, c1Rule)} (tracked: ${processes[0]!.name} ÷ bare SDK and the A/A).${compared ? ` Now vs before: ${roundsLine(compared.stopped, compared.rule)} (tracked: pass-through c=1 p50${wrk ? ', req/s and CPU a request' : ''}, now ÷ before and the A/A).` : ''} A ratio is per round, its interval the 95% t-interval of the rounds' log ratios; a verdict says "beyond noise" only when the interval excludes 1 and lies wholly outside the A/A interval (bench/README.md, "Change or noise").`);
      notes.push('Added latency = the arm minus the bare SDK calling the upstream directly, from the same client, in the same rounds (kind D in the anchors). wrk is closed loop: its latencies include queueing at the gateway.');
      return {
        name: 'gateway', title: gateway.title,
        method: [
          'Upstream: a plain node:http server answering every request at once with one chat completion and OpenAI rate-limit headers, in its own process.',
          'switchyard serve: the overhead scenario\'s router (chain primary → secondary on that upstream, breaker, RPM/TPM/concurrency budgets, retries), request logs on at info, one worker and --workers 2, compiled as `npm run build` compiles it (what `npx switchyard serve` runs; --quick runs the sources through tsx). Each is measured twice: pass-through (a plain text body, forwarded as the client sent it) and translated (the same prompt as a content part, which the gateway converts and the router sends through the openai SDK, as it does for an Anthropic target or tools). Portkey: `@portkey-ai/gateway` 1.15.2 started with --headless, held to 127.0.0.1, provider openai with x-portkey-custom-host set to the upstream. The floor (bench/scenarios/gateway-floor.mjs): 40 lines of node:http in and out, the body relayed with no router and no parse, on the gateways\' core: the least any Node.js gateway adds here.',
          'c=1: the openai SDK (maxRetries 0) in this process, arms interleaved call by call in ABBA order after a warm-up; p50/p99 per round, median of rounds. Also with wrk as the client (its c=1 point of the sweep minus the bare upstream\'s): the SDK and this process\'s GC add their own jitter to the SDK figure\'s p99. And (pinned runs) with wrk, the upstream and the gateway all on the client\'s core, the gateway moved there for 5 s with taskset -a -p: what the gateway adds without the wake-ups between vCPUs.',
          `Rounds: c=1 rounds (the arms and a second bare SDK client, the A/A twin, in ABBA order) until the p50 ratio of ${processes[0]!.name} to the bare SDK and the A/A are each within ${(c1Rule.width * 100).toFixed(1)}% (${c1Rule.minRounds} to ${c1Rule.maxRounds} rounds, no new pair after ${(c1Rule.maxMs / 60_000).toFixed(1)} min).${compared ? ` Now vs before (--baseline-ref): switchyard serve of ${before!.label} in two processes (before and its A/A twin), compiled as the one now is, one worker each on the gateways' core; per round, in ABBA order over both paths of the three: c=1 by the openai SDK, interleaved call by call, then wrk at 16 connections per arm, with the gateway's CPU a request from /proc; rounds until the pass-through's c=1 p50, req/s and CPU a request (now ÷ before and twin ÷ before) are each within ${(compared.rule.width * 100).toFixed(1)}% (${compared.rule.minRounds} to ${compared.rule.maxRounds} rounds, no new pair after ${(compared.rule.maxMs / 60_000).toFixed(1)} min).` : ''}`,
          `Throughput: wrk with 1 thread at ${SWEEP.join(', ')} connections; the gateway's CPU from /proc. Requests per second per core = the best rate with p99 ≤ 10 ms and no errors${pinned ? ' (the gateway is pinned to one core)' : ', divided by the cores the gateway used (no pinning in this run)'}.`,
        ],
        tables: [headline, ...(compared ? [compared.table] : []), latencyTable, c1Table, ...(wrk ? [sweepTable] : []), cpuTable],
        targets, notes,
        data: {
          latency: lat, foreignLoadOnClientCore: measured.foreign, c1Rounds: { rule: c1Rule, ...measured.stopped, comparisons: measured.comparisons },
          nowVsBefore: compared && { rule: compared.rule, ...compared.stopped, comparisons: compared.comparisons, rounds: compared.rounds },
          sweeps, oneCore, summary, cpu, pinned,
        },
      };
    } finally {
      for (const p of processes) await p.close();
      await upstream.close();
    }
  },
};
