import { UNLIMITED_SIM } from '../lib/arms.js';
import { kib, ms, num } from '../lib/format.js';
import { nextMessage, spawnNode } from '../lib/node-child.js';
import { check, type ScenarioReport, type TargetCheck } from '../lib/report.js';
import type { BenchContext, BenchScenario } from '../lib/scenario.js';
import { SimProcess } from '../lib/sim-process.js';
import { linearFit } from '../lib/stats.js';
import type { InFlightInput, Mem, SoakInput } from './memory-client.js';

type InFlightOut = {
  base: Mem; hold: Mem; after: Mem; reached: number; stillInFlight: number; launchMs: number; doneMs: number;
  launchEldP99Ms: number; holdEldP99Ms: number; holdEldMaxMs: number; ok: number; failed: number;
};
type SoakOut = { samples: Array<{ tMs: number } & Mem>; calls: number; failed: number; eldP99Ms: number; eldMaxMs: number };

async function child<T>(input: InFlightInput | SoakInput): Promise<T> {
  const proc = spawnNode(new URL('./memory-client.ts', import.meta.url), { role: 'client', nodeFlags: ['--expose-gc'] });
  proc.send(input);
  const msg = await nextMessage<{ out: T }>(proc, (m) => m.type === 'result', 900_000);
  return msg.out;
}

export const memory: BenchScenario = {
  name: 'memory',
  title: '5. Memory: 10,000 calls in flight against a slow upstream, and a steady-load soak',
  async run(ctx: BenchContext): Promise<ScenarioReport> {
    const q = ctx.quick;
    const n = q ? 200 : 10_000;
    const slowMs = q ? 1_500 : 25_000;
    const holdMs = q ? 200 : 2_000;
    const soakMs = q ? 1_500 : 110_000;
    const soakRate = q ? 100 : 300;
    const sampleEveryMs = q ? 250 : 5_000;
    const soakWindowMs = q ? 1_000 : 60_000;
    const warmup = q ? 30 : 300;
    const fitFromMs = q ? 500 : 62_000;
    const { now, before } = ctx.sources;
    const arms = before ? ['direct', 'before', 'router'] : ['direct', 'router'];
    const LABEL: Record<string, string> = {
      direct: 'bare SDK', before: `router (before: ${before?.label})`, router: `router (${now.ref ? `now: ${now.label}` : 'now'})`,
    };
    const ROOT: Record<string, string | undefined> = { direct: undefined, before: before?.root, router: now.root };
    const sim = await SimProcess.launch({
      seed: 51,
      providers: {
        ...Object.fromEntries(arms.map((a) => [`slow-${a}`, { type: 'openai' as const, latency: { baseMs: slowMs }, limits: UNLIMITED_SIM }])),
        fast: { type: 'openai', limits: UNLIMITED_SIM },
      },
    });
    const held: Record<string, InFlightOut> = {};
    let soaked: SoakOut;
    const inFlight = async (arm: string) => {
      ctx.log(`memory: ${n.toLocaleString('en-US')} calls in flight, ${LABEL[arm]} (upstream answers after ${slowMs / 1000} s)`);
      held[arm] = await child<InFlightOut>({
        kind: 'in-flight', arm: arm === 'direct' ? 'direct' : 'router', root: ROOT[arm], simURL: sim.ready.url, slowProvider: `slow-${arm}`, slowURL: sim.baseURL(`slow-${arm}`), fastURL: sim.baseURL('fast'),
        n, holdMs, launchLimitMs: slowMs - holdMs - (q ? 300 : 3_000), warmup,
      });
    };
    const soak = async () => {
      ctx.log(`memory: soak, router at ${soakRate} calls/s for ${soakMs / 1000} s, heap sampled after gc() every ${sampleEveryMs / 1000} s`);
      return child<SoakOut>({ kind: 'soak', root: now.root, fastURL: sim.baseURL('fast'), ratePerSec: soakRate, durationMs: soakMs, sampleEveryMs, windowMs: q ? soakWindowMs : undefined, warmup });
    };
    try {
      if (q) {
        // A smoke test: every child at once.
        soaked = (await Promise.all([soak(), ...arms.map(inFlight)]))[0];
      } else {
        for (const arm of arms) await inFlight(arm);
        soaked = await soak();
      }
    } finally {
      await sim.close();
    }

    const per = (arm: string, k: keyof Mem, phase: 'hold' | 'after' = 'hold') => (held[arm]![phase][k] - held[arm]!.base[k]) / n;
    const over = (arm: string, k: keyof Mem) => per(arm, k) - per('direct', k);
    const addHeap = over('router', 'heapUsed');
    const addRss = over('router', 'rss');
    const fitted = soaked.samples.filter((s) => s.tMs >= fitFromMs);
    const slopeMbPerMin = linearFit(fitted.map((s) => s.tMs / 60_000), fitted.map((s) => s.heapUsed / 2 ** 20)).slope;
    const rssSlope = linearFit(fitted.map((s) => s.tMs / 60_000), fitted.map((s) => s.rss / 2 ** 20)).slope;

    const row = (label: string, f: (arm: string) => string) => [label, ...arms.map(f)];
    const rows = [
      row('calls reaching the upstream at once', (a) => `${held[a]!.reached.toLocaleString('en-US')} of ${n.toLocaleString('en-US')}`),
      row('time to launch them all', (a) => ms(held[a]!.launchMs)),
      row('heap per in-flight call', (a) => kib(per(a, 'heapUsed'))),
      row('RSS per in-flight call', (a) => kib(per(a, 'rss'))),
      row('external + array buffers per call', (a) => kib(per(a, 'external'))),
      row('heap left after all calls ended (per call)', (a) => kib(per(a, 'heapUsed', 'after'))),
      row('event-loop delay p99 while holding (max)', (a) => `${ms(held[a]!.holdEldP99Ms)} (${ms(held[a]!.holdEldMaxMs)})`),
      row('event-loop delay p99 while launching', (a) => ms(held[a]!.launchEldP99Ms)),
      row('failed calls', (a) => String(held[a]!.failed)),
    ];
    rows.push(row('heap over bare SDK, per in-flight call', (a) => (a === 'direct' ? '' : kib(over(a, 'heapUsed')))));
    rows.push(row('RSS over bare SDK, per in-flight call', (a) => (a === 'direct' ? '' : kib(over(a, 'rss')))));
    const soakRows = [
      ['calls (failed)', `${soaked.calls.toLocaleString('en-US')} (${soaked.failed})`],
      [`heap slope after ${fitFromMs / 1000} s (gc() before each sample)`, `${num(slopeMbPerMin, 2)} MB/min`],
      ['RSS slope over the same span', `${num(rssSlope, 2)} MB/min`],
      ['heap at first / last sample', `${num(soaked.samples[0]!.heapUsed / 2 ** 20)} / ${num(soaked.samples[soaked.samples.length - 1]!.heapUsed / 2 ** 20)} MB`],
      ['event-loop delay p99 (max)', `${ms(soaked.eldP99Ms)} (${ms(soaked.eldMaxMs)})`],
    ];
    const held99 = held.router!.holdEldP99Ms;
    const targets: TargetCheck[] = [
      check('router heap over bare SDK per in-flight call', '≤ 2 KiB', kib(addHeap), addHeap <= 2048, `+${kib(addHeap - 2048)} over (${num(addHeap / 2048, 2)}x)`),
      check('router RSS over bare SDK per in-flight call', '≤ 2 KiB', kib(addRss), addRss <= 2048, `+${kib(addRss - 2048)} over (${num(addRss / 2048, 2)}x)`),
      ...(before ? [
        check('router heap over bare SDK per in-flight call, now vs before', '≤ before\'s', `${kib(addHeap)} vs ${kib(over('before', 'heapUsed'))}`, addHeap <= over('before', 'heapUsed'), `+${kib(addHeap - over('before', 'heapUsed'))} worse`),
      ] : []),
      check('event-loop delay p99 with 10k in flight (router)', '≤ 10 ms', ms(held99), held99 <= 10, `${num(held99 - 10)} ms over`),
      check('soak heap slope (router)', '< 1 MB/min', `${num(slopeMbPerMin, 2)} MB/min`, slopeMbPerMin < 1, `${num(slopeMbPerMin - 1, 2)} MB/min over`),
    ];
    const notes: string[] = [];
    for (const a of arms) {
      if (held[a]!.reached < n) notes.push(`${a}: only ${held[a]!.reached} of ${n} calls reached the upstream before the measurement; per-call figures divide by ${n}.`);
      if (held[a]!.stillInFlight < n) notes.push(`${a}: ${n - held[a]!.stillInFlight} calls had already ended when memory was read.`);
    }
    return {
      name: 'memory', title: this.title,
      method: [
        `Upstream answers after ${slowMs / 1000} s. Each arm runs in a fresh child process (--expose-gc, core 1): warm up on a fast provider, gc(), read memory, start ${n.toLocaleString('en-US')} calls (200 per macrotask), wait until the simulator has them all in flight, hold ${holdMs / 1000} s, gc(), read memory again.`,
        `Per-call figures = (held − before) ÷ calls; the router\'s cost is its figure minus the bare SDK\'s (the fetch baseline itself costs tens of KiB per call). The router config is scenario 1\'s (two-target chain, breaker, budgets, retries; default tokenizer).${before ? ` The "before" arm runs the router of ${before.label} (materialised outside the repo, node_modules symlinked) in a fresh child of its own, like the others.` : ''}`,
        `Event-loop delay from perf_hooks.monitorEventLoopDelay (1 ms resolution) while holding, and separately while launching.`,
        `Soak: the same router at ${soakRate} calls/s (open loop, zero-latency upstream) for ${soakMs / 1000} s; heap read after gc() every ${sampleEveryMs / 1000} s; slope by least squares over samples after ${fitFromMs / 1000} s (the budgets' rolling ${soakWindowMs / 1000} s window holds an entry per request until then, which is bounded growth, not a leak).`,
      ],
      tables: [
        { title: `${n.toLocaleString('en-US')} calls in flight`, columns: ['metric', ...arms.map((a) => LABEL[a]!)], rows },
        { title: 'Soak (router)', columns: ['metric', 'value'], rows: soakRows },
      ],
      targets, notes,
      data: { n, slowMs, holdMs, arms, labels: LABEL, held, soak: { soakMs, soakRate, sampleEveryMs, fitFromMs, slopeMbPerMin, rssSlope, ...soaked } },
    };
  },
};
