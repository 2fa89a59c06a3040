// npm run bench [-- [--quick] [--out DIR] [--baseline-ref REF] [--ref-now REF] [--ci-width PCT] [--min-rounds N] [--max-rounds N] [--max-minutes M] [SCENARIO ...]]
// Runs the benchmark scenarios against the loopback simulator, prints each one's figures and ratios
// to its baselines, and writes bench/results/<stamp>-<scenario>.json plus bench/results/summary.md.
// --baseline-ref REF adds the arm "router (before: REF)" to the overhead and memory scenarios: REF is
// materialised outside the repo (git archive into a temp folder, node_modules symlinked) and its router
// imported next to this checkout's (the gateway scenario starts a `switchyard serve` of REF beside the
// one now). --ref-now REF takes "now" from REF instead of the working tree. The comparisons of the
// overhead and gateway scenarios add rounds until their 95% intervals are tight (bench/lib/noise.ts):
// --ci-width PCT, --min-rounds N, --max-rounds N and --max-minutes M override each scenario's rule.
import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { useRouterSource } from './lib/arms.js';
import { canPin, machine, type Machine } from './lib/machine.js';
import { TSX_LOADER } from './lib/node-child.js';
import { cleanUpRefs, materialise, workingTree, type RouterSource } from './lib/refs.js';
import { renderScenario, type ScenarioReport } from './lib/report.js';
import type { StoppingRule } from './lib/noise.js';
import type { BenchScenario } from './lib/scenario.js';

/** Scenario names and their modules, loaded only once the source root is known (lib/source.ts). */
const SCENARIOS: ReadonlyArray<{ name: string; load: () => Promise<BenchScenario> }> = [
  { name: 'overhead', load: async () => (await import('./scenarios/overhead.js')).overhead },
  { name: 'goodput', load: async () => (await import('./scenarios/goodput.js')).goodput },
  { name: 'retry-storm', load: async () => (await import('./scenarios/retry-storm.js')).retryStorm },
  { name: 'fallback', load: async () => (await import('./scenarios/fallback.js')).fallback },
  { name: 'memory', load: async () => (await import('./scenarios/memory.js')).memory },
  { name: 'gateway', load: async () => (await import('./scenarios/gateway.js')).gateway },
  { name: 'embed', load: async () => (await import('./scenarios/embed-overhead.js')).embedOverhead },
  { name: 'stream-memory', load: async () => (await import('./scenarios/stream-memory.js')).streamMemory },
  { name: 'fleet-shares', load: async () => (await import('./scenarios/fleet-shares.js')).fleetShares },
  { name: 'hedge', load: async () => (await import('./scenarios/hedge.js')).hedge },
  { name: 'routing', load: async () => (await import('./scenarios/routing.js')).routing },
];
const HERE = fileURLToPath(new URL('.', import.meta.url));

interface Args {
  quick: boolean;
  out: string;
  names: string[];
  /** --baseline-ref: the extra "router (before)" arm of the overhead and memory scenarios. */
  baselineRef?: string;
  /** --ref-now: "now" from this ref instead of the working tree (when the working tree does not run). */
  refNow?: string;
  /** Overrides of the scenarios' stopping rules (--ci-width, --min-rounds, --max-rounds, --max-minutes). */
  stopping: Partial<StoppingRule>;
}

function usage(): string {
  return `usage: npm run bench -- [--quick] [--out DIR] [--baseline-ref REF] [--ref-now REF] [--ci-width PCT] [--min-rounds N] [--max-rounds N] [--max-minutes M] [${SCENARIOS.map((s) => s.name).join('|')} ...]
  --ci-width PCT    stop adding rounds once every tracked 95% interval is at most PCT % wide (hi / lo - 1)
  --min-rounds N    never fewer rounds (rounded up to an even number: ABBA pairs)
  --max-rounds N    never more rounds
  --max-minutes M   start no new pair of rounds after M minutes (per set of rounds: overhead has one, gateway two)`;
}

function positive(argv: string[], i: number, name: string): number {
  const v = Number(argv[i]);
  if (!(v > 0)) throw new Error(`${name} needs a positive number\n${usage()}`);
  return v;
}

function refArg(argv: string[], i: number, name: string): string {
  const v = argv[i];
  if (!v || v.startsWith('-')) throw new Error(`${name} needs a git ref (a commit, tag or branch)\n${usage()}`);
  return v;
}

function parseArgs(argv: string[]): Args {
  const args: Args = { quick: false, out: join(HERE, 'results'), names: [], stopping: {} };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--quick') args.quick = true;
    else if (a === '--out') args.out = resolve(argv[++i] ?? '');
    else if (a === '--baseline-ref') args.baselineRef = refArg(argv, ++i, a);
    else if (a.startsWith('--baseline-ref=')) args.baselineRef = a.slice('--baseline-ref='.length);
    else if (a === '--ref-now') args.refNow = refArg(argv, ++i, a);
    else if (a.startsWith('--ref-now=')) args.refNow = a.slice('--ref-now='.length);
    else if (a === '--ci-width') args.stopping.width = positive(argv, ++i, a) / 100;
    else if (a === '--min-rounds') args.stopping.minRounds = positive(argv, ++i, a);
    else if (a === '--max-rounds') args.stopping.maxRounds = positive(argv, ++i, a);
    else if (a === '--max-minutes') args.stopping.maxMs = positive(argv, ++i, a) * 60_000;
    else if (a === '--help' || a === '-h') {
      console.log(usage());
      process.exit(0);
    } else if (a.startsWith('-')) throw new Error(`unknown option ${a}\n${usage()}`);
    else if (SCENARIOS.some((s) => s.name === a)) args.names.push(a);
    else throw new Error(`unknown scenario "${a}"\n${usage()}`);
  }
  return args;
}

function commandLine(argv: string[]): string {
  const rest = argv.length ? ` ${argv.join(' ')}` : '';
  return process.env.npm_lifecycle_event === 'bench' ? `npm run bench${rest ? ` --${rest}` : ''}` : `npx tsx bench/run.ts${rest}`;
}

/** Re-runs this script pinned to core 1 (the simulator children take core 0), as the anchors ask. */
function relaunchPinned(argv: string[]): Promise<number> {
  const child = spawn('taskset', ['-c', '1', process.execPath, '--import', TSX_LOADER, fileURLToPath(import.meta.url), ...argv], {
    stdio: 'inherit',
    env: { ...process.env, BENCH_PIN: '1', BENCH_COMMAND: commandLine(argv) },
  });
  const forward = (sig: NodeJS.Signals) => child.kill(sig);
  process.on('SIGINT', forward);
  process.on('SIGTERM', forward);
  return new Promise((res) => child.on('exit', (code, signal) => res(code ?? (signal ? 1 : 0))));
}

function summary(m: Machine, reports: ScenarioReport[], quick: boolean, sources: { now: RouterSource; before?: RouterSource }): string {
  const head = [
    `# Switchyard benchmarks${quick ? ' (--quick: a smoke run, not a measurement)' : ''}`,
    '',
    `- date: ${m.date}`,
    `- machine: ${m.cpuModel}, ${m.cores} cores, ${m.memoryGiB} GiB, ${m.platform}`,
    `- Node ${m.node} (V8 ${m.v8})`,
    `- commit: ${m.commit}${m.dirty ? ' (with uncommitted changes)' : ''}`,
    `- router now: ${sources.now.label}${sources.before ? `; router before: ${sources.before.label} (${sources.before.commit.slice(0, 12)})` : ''}`,
    `- command: \`${m.command}\``,
    `- pinning: ${m.pinning}`,
    '',
    'Targets come from the performance anchors (section 5); they are targets, not assertions.',
  ];
  const overview = reports.flatMap((r) => r.targets.map((t) => `| ${r.name} | ${t.name} | ${t.target} | ${t.measured} | ${t.pass === null ? 'n/a' : t.pass ? 'pass' : `**miss** ${t.by ?? ''}`} |`));
  const table = overview.length
    ? ['', '## Targets at a glance', '', '| scenario | target | goal | measured | result |', '|---|---|---|---:|---|', ...overview]
    : [];
  return [...head, ...table, '', ...reports.map((r) => `${renderScenario(r)}\n`)].join('\n');
}

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  const args = parseArgs(argv);
  // Pinning serves measurements; a --quick smoke run spreads its processes over every core instead.
  if (!args.quick && process.env.BENCH_PIN === undefined && canPin()) process.exit(await relaunchPinned(argv));
  const pinned = process.env.BENCH_PIN === '1';
  const m = machine(process.env.BENCH_COMMAND ?? commandLine(argv), pinned
    ? 'client (this process and client children) on core 1, simulator children on core 0 (taskset)'
    : args.quick ? 'none (--quick)' : 'none (taskset unavailable, fewer than 2 cores, or BENCH_NO_PIN=1): client and simulator share the cores');
  if (!pinned) process.env.BENCH_PIN = '0';
  const sources = {
    now: args.refNow ? materialise(args.refNow) : workingTree(),
    before: args.baselineRef ? materialise(args.baselineRef) : undefined,
    beforeTwin: args.baselineRef ? materialise(args.baselineRef) : undefined,
  };
  // The simulator and the token helpers come from the same code as the router now (lib/source.ts).
  if (args.refNow) process.env.BENCH_SRC_ROOT = sources.now.root;
  // A router that does not even load is reported here, before any scenario runs.
  try {
    await useRouterSource(sources.now.root);
  } catch (err) {
    throw new Error(`the router of ${sources.now.label} does not load (${(err as Error)?.message ?? err}); measure the last commit that does with --ref-now REF`);
  }
  mkdirSync(args.out, { recursive: true });
  const stamp = m.date.replace(/[:.]/g, '-');
  const chosen: BenchScenario[] = [];
  for (const s of SCENARIOS) if (!args.names.length || args.names.includes(s.name)) chosen.push(await s.load());
  const log = (line: string) => process.stderr.write(`[bench ${((performance.now()) / 1000).toFixed(1)}s] ${line}\n`);
  log(`${m.cpuModel}, ${m.cores} cores, Node ${m.node}, commit ${m.commit}${args.quick ? ', --quick' : ''}`);
  log(`router now: ${sources.now.label}${sources.now.ref ? ` in ${sources.now.root}` : ''}${sources.before ? `; before: ${sources.before.label} in ${sources.before.root}` : ''}`);

  const reports: ScenarioReport[] = [];
  let failed = false;
  for (const scenario of chosen) {
    const t0 = performance.now();
    log(`${scenario.name}: start`);
    let report: ScenarioReport;
    try {
      report = await scenario.run({ quick: args.quick, outDir: args.out, log, sources, stopping: args.stopping });
    } catch (err) {
      failed = true;
      log(`${scenario.name}: FAILED ${(err as Error)?.stack ?? String(err)}`);
      report = { name: scenario.name, title: scenario.title, method: [], tables: [], targets: [], notes: [`The scenario failed: ${(err as Error)?.message ?? String(err)}`], data: { error: String(err) } };
    }
    report.durationMs = performance.now() - t0;
    // A smoke run checks that every scenario runs and reports; its figures say nothing about targets.
    if (args.quick) report.targets = report.targets.map((t) => ({ ...t, pass: null, by: undefined }));
    reports.push(report);
    writeFileSync(join(args.out, `${stamp}-${scenario.name}.json`), JSON.stringify({ machine: m, sources, quick: args.quick, report }, null, 2));
    console.log(`\n${renderScenario(report, false)}\n`);
    log(`${scenario.name}: done in ${(report.durationMs / 1000).toFixed(1)} s`);
  }
  writeFileSync(join(args.out, 'summary.md'), summary(m, reports, args.quick, sources));
  log(`wrote ${join(args.out, 'summary.md')} and ${reports.length} result files`);
  cleanUpRefs();
  process.exit(failed ? 1 : 0);
}

main().catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  cleanUpRefs();
  process.exit(2);
});
