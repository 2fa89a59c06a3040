// npx tsx bench/lab/discrepancy.ts [options]   (run it under `taskset -c 1` to pin the client)
//
// A laboratory for "why do two overhead methods disagree": the c=1 overhead measurement with every
// factor a variant of an arm, so that an A/B changes one factor at a time *inside one process and one
// run*, interleaved call by call like the scenario's arms (a shared 2-core VM drifts too much for
// A/B across runs). Prints one JSON line, and a summary on stderr. Not part of `npm run bench`;
// bench/README.md ("Why the interleaved figures differ") says which runs were made and what they showed.
//
//   --arms LIST        comma-separated ARM@UPSTREAM, ARM = direct | router | before, with modifiers
//                      :heuristic (tokenizer) :nonascii (prompt with one non-ASCII character)
//                      :fetch (transport 'fetch', the SDK's own) :deadline (every call with timeoutMs 60 s)
//                      :cold (a fresh copy of the router's code that has not run: no JIT warm-up)
//                      :aged (gets --prefill extra calls before measuring)
//                      :copy (a second copy of the same code, warmed up: what a before arm's mere
//                      presence does to the other arms, since both feed the same SDK code)
//                      UPSTREAM = sim | sim-inproc | plain | plain-inproc | plain-h | plain-h-inproc
//                      | plain-core1 | sim-core1  (plain-h: with the simulator's rate-limit headers;
//                      *-core1: the upstream child on the client's core)           [direct@sim,router@sim]
//                      A #TAG after the upstream makes a second, separate pair (A/A runs)
//   --pin              pin upstream children (core 0, or 1 for *-core1); pin this process yourself
//   --warmup N         sequential calls per arm before measuring (not for :cold arms)          [600]
//   --prefill N        extra calls per :aged router arm before measuring (aged N calls)        [0]
//   --rounds R         rounds                                                                   [7]
//   --calls N          calls per arm per round                                                  [800]
//   --loop interleaved|blocks|alternate   call by call, or N calls of one arm then N of the next,
//                      or the two in turn round by round (rounds are then reported per mode) [interleaved]
//   --ref REF          the router from git ref REF instead of the working tree
//   --baseline-ref REF the "before" arm's router
//   --profile FILE     write a CPU profile (.cpuprofile) of the measured rounds
//   --semi MB          (informational) the --max-semi-space-size this process was started with
//   --hog PCT          a competing process on core 1 (the client's), busy PCT% of every 10 ms: the
//                      shared VM's other tenants, made controllable                             [0]
//   --hog-alternate    the hog only in odd rounds (SIGSTOP/SIGCONT): an A/B of load inside one run
import { spawn, type ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { foreignLoad } from '../lib/contention.js';
import { Session } from 'node:inspector';
import { PerformanceObserver } from 'node:perf_hooks';
import { UNLIMITED_SIM, makeArm, type Arm, type ArmSpec } from '../lib/arms.js';
import { plainUpstream } from '../lib/plain-upstream.js';
import { cleanUpRefs, materialise, workingTree, type RouterSource } from '../lib/refs.js';
import { quantile, spread, type Spread } from '../lib/stats.js';

function flags(argv: string[]): Map<string, string> {
  const out = new Map<string, string>();
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (!a.startsWith('--')) throw new Error(`unexpected ${a}`);
    const next = argv[i + 1];
    if (next === undefined || next.startsWith('--')) out.set(a.slice(2), 'true');
    else out.set(a.slice(2), argv[++i]!);
  }
  return out;
}

interface CallRow {
  arm: string;
  t0: number;
  t1: number;
  wallUs: number;
  cpuUs: number;
  /** Voluntary context switches of the process during the call: how often it went to sleep (waiting). */
  vcs: number;
}

let hogChild: ChildProcess | undefined;
let srcImportRef: (<T>(rel: string) => Promise<T>) | undefined;
const srcImport = <T>(rel: string): Promise<T> => srcImportRef!<T>(rel);

interface Upstream {
  baseURLs: { primary: string; secondary: string };
  close(): Promise<void>;
}

async function startUpstream(name: string): Promise<Upstream> {
  const { SimProcess } = await import('../lib/sim-process.js');
  const simOptions = { seed: 7, providers: { primary: { type: 'openai', limits: UNLIMITED_SIM }, secondary: { type: 'openai', limits: UNLIMITED_SIM } } } as const;
  if (name === 'sim' || name === 'sim-core1') {
    const sim = await SimProcess.launch(simOptions, 100, name === 'sim-core1' ? '1' : undefined);
    return { baseURLs: { primary: sim.baseURL('primary'), secondary: sim.baseURL('secondary') }, close: () => sim.close() };
  }
  if (name === 'sim-inproc') {
    const { startSimulator } = await srcImport<typeof import('../../src/sim/index.js')>('src/sim/index.ts');
    const sim = await startSimulator(simOptions as never);
    return { baseURLs: { primary: sim.baseURL('primary'), secondary: sim.baseURL('secondary') }, close: () => sim.stop() };
  }
  const m = /^plain(-h)?(-inproc|-core1)?$/.exec(name);
  if (!m) throw new Error(`unknown upstream ${name}`);
  const up = await plainUpstream(m[2] === '-inproc' ? 'in-process' : 'separate process', { headers: m[1] ? 'openai' : 'none', core: m[2] === '-core1' ? '1' : '0' });
  return { baseURLs: { primary: up.baseURL, secondary: up.baseURL }, close: () => up.close() };
}

async function main(): Promise<void> {
  const f = flags(process.argv.slice(2));
  const opt = {
    arms: (f.get('arms') ?? 'direct@sim,router@sim').split(','),
    pin: f.has('pin'),
    warmup: Number(f.get('warmup') ?? 600),
    prefill: Number(f.get('prefill') ?? 0),
    rounds: Number(f.get('rounds') ?? 7),
    calls: Number(f.get('calls') ?? 800),
    loop: f.get('loop') ?? 'interleaved',
    ref: f.get('ref'),
    baselineRef: f.get('baseline-ref'),
    profile: f.get('profile'),
    semi: f.get('semi'),
    hog: f.get('hog') ?? '0',
    execArgv: process.execArgv.filter((a) => !a.includes('tsx')),
  };
  process.env.BENCH_PIN = opt.pin ? '1' : '0';
  const hogPct = Number(f.get('hog') ?? 0);
  const hog = hogPct > 0
    ? spawn('taskset', ['-c', '1', process.execPath, '-e', `const d=${hogPct / 10};for(;;){const t=performance.now();while(performance.now()-t<d);const s=Atomics.wait(new Int32Array(new SharedArrayBuffer(4)),0,0,10-d);}`], { stdio: 'ignore' })
    : undefined;
  hogChild = hog;
  const now: RouterSource = opt.ref ? materialise(opt.ref) : workingTree();
  const before = opt.baselineRef ? materialise(opt.baselineRef) : undefined;
  // The simulator and prompt helpers from the same code as the router (lib/source.ts reads this at import).
  if (opt.ref) process.env.BENCH_SRC_ROOT = now.root;
  const { request } = await import('../lib/prompts.js');
  const { srcImport } = await import('../lib/source.js');
  srcImportRef = srcImport;

  const upstreams = new Map<string, Upstream>();
  const arms: Arm[] = [];
  for (const id of opt.arms) {
    const [armPart, upTagged = 'sim'] = id.split('@') as [string, string?];
    const up = upTagged.split('#')[0]!;
    const [base, ...mods] = armPart.split(':');
    if (!upstreams.has(upTagged)) upstreams.set(upTagged, await startUpstream(up));
    const content = mods.includes('nonascii') ? 'Say hello in one short sentence, please — merci.' : 'Say hello in one short sentence, please.';
    const req = request(content, 64);
    const tokenizer = mods.includes('heuristic') ? 'heuristic' : 'auto';
    let spec: ArmSpec;
    if (base === 'direct') spec = { name: id, label: id, kind: 'sdk' };
    else {
      const src = base === 'before' ? before : now;
      if (!src) throw new Error(`${id} needs --baseline-ref`);
      // A cold arm gets code no other arm has run: a copy of its own, so V8 compiles it from scratch.
      const root = mods.includes('cold') || mods.includes('copy') ? materialise(src.ref ?? 'HEAD').root : src.root;
      spec = { name: id, label: id, kind: 'router', root, tokenizer, ...(mods.includes('fetch') ? { transport: 'fetch' as const } : {}), ...(mods.includes('deadline') ? { deadlineMs: 60_000 } : {}) };
    }
    arms.push(await makeArm(spec, upstreams.get(upTagged)!.baseURLs, req));
  }
  const cold = (a: Arm) => a.spec.name.includes(':cold');
  for (const a of arms) if (!cold(a)) for (let i = 0; i < opt.warmup; i++) await a.call();
  for (const a of arms) if (a.spec.name.includes(':aged')) for (let i = 0; i < opt.prefill; i++) await a.call();

  const gcs: Array<{ at: number; ms: number; kind: number }> = [];
  const obs = new PerformanceObserver((list) => {
    for (const e of list.getEntries()) gcs.push({ at: e.startTime, ms: e.duration, kind: (e as unknown as { detail?: { kind?: number } }).detail?.kind ?? 0 });
  });
  obs.observe({ entryTypes: ['gc'] });

  let session: Session | undefined;
  if (opt.profile) {
    session = new Session();
    session.connect();
    const post = (m: string, p?: object) => new Promise<any>((res, rej) => session!.post(m as never, p as never, (e: Error | null, r: unknown) => (e ? rej(e) : res(r))));
    await post('Profiler.enable');
    await post('Profiler.setSamplingInterval', { interval: 50 });
    await post('Profiler.start');
  }

  const rows: CallRow[] = [];
  const perRound: Array<Record<string, { p50: number; p99: number }>> = [];
  /** Per round, what varied between rounds: the loop shape and whether the hog ran. */
  const mode: Array<{ loop: string; hog: boolean }> = [];
  const hogAlternate = f.has('hog-alternate') && hog !== undefined;
  /** Per round: the share of core 1 that neither this process nor its threads used (other processes), and steal. */
  const foreign: Array<{ share: number; steal: number }> = [];
  const one = async (a: Arm) => {
    const v0 = process.resourceUsage().voluntaryContextSwitches;
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    const s = process.hrtime.bigint();
    await a.call();
    const wallUs = Number(process.hrtime.bigint() - s) / 1000;
    const t1 = performance.now();
    const c = process.cpuUsage(c0);
    const vcs = process.resourceUsage().voluntaryContextSwitches - v0;
    rows.push({ arm: a.spec.name, t0, t1, wallUs, cpuUs: c.user + c.system, vcs });
  };
  for (let r = 0; r < opt.rounds; r++) {
    const order = arms.map((_, i) => arms[(i + r) % arms.length]!);
    const from = rows.length;
    const loop = opt.loop === 'alternate' ? (r % 2 === 0 ? 'interleaved' : 'blocks') : opt.loop;
    const hogOn = hog !== undefined && (!hogAlternate || r % 2 === 1);
    if (hogAlternate) {
      hog!.kill(hogOn ? 'SIGCONT' : 'SIGSTOP');
      await new Promise((res) => setTimeout(res, 50));
    }
    mode.push({ loop, hog: hogOn });
    const load = foreignLoad('1');
    if (loop === 'interleaved') {
      for (let i = 0; i < opt.calls; i++) for (const a of order) await one(a);
    } else {
      for (const a of order) for (let i = 0; i < opt.calls; i++) await one(a);
    }
    foreign.push(load());
    const mine = rows.slice(from);
    perRound.push(Object.fromEntries(arms.map((a) => {
      const w = mine.filter((x) => x.arm === a.spec.name).map((x) => x.wallUs);
      return [a.spec.name, { p50: quantile(w, 0.5), p99: quantile(w, 0.99) }];
    })));
  }
  await new Promise((res) => setTimeout(res, 20));
  obs.disconnect();
  if (session && opt.profile) {
    const profile = await new Promise<any>((res, rej) => session!.post('Profiler.stop', (e, r) => (e ? rej(e) : res(r))));
    writeFileSync(opt.profile, JSON.stringify(profile.profile));
    session.disconnect();
  }

  // Which calls a GC started inside.
  const gcIn = new Map<CallRow, number>();
  let j = 0;
  const sortedGc = [...gcs].sort((a, b) => a.at - b.at);
  for (const row of rows) {
    while (j < sortedGc.length && sortedGc[j]!.at < row.t0) j++;
    let k = j;
    let ms = 0;
    while (k < sortedGc.length && sortedGc[k]!.at < row.t1) ms += sortedGc[k++]!.ms;
    if (ms > 0) gcIn.set(row, ms);
  }

  const out: Record<string, unknown> = { options: { ...opt, now: now.label, before: before?.label } };
  // A router arm is compared with the bare SDK on the same upstream (and the same #tag, for A/A runs).
  const pairOf = (name: string) => `direct@${name.split('@')[1] ?? 'sim'}`;
  const byArm: Record<string, unknown> = {};
  for (const a of arms) {
    const name = a.spec.name;
    const mine = rows.filter((x) => x.arm === name);
    const clean = mine.filter((x) => !gcIn.has(x));
    byArm[name] = {
      p50: spread(perRound.map((x) => x[name]!.p50)),
      p99: spread(perRound.map((x) => x[name]!.p99)),
      p50NoGc: quantile(clean.map((x) => x.wallUs), 0.5),
      cpuP50: quantile(mine.map((x) => x.cpuUs), 0.5),
      cpuMean: mine.reduce((s, x) => s + x.cpuUs, 0) / mine.length,
      wallMean: mine.reduce((s, x) => s + x.wallUs, 0) / mine.length,
      callsWithGc: mine.length - clean.length,
      sleepsPerCall: mine.reduce((s, x) => s + x.vcs, 0) / mine.length,
      gcMsPerCall: [...gcIn].filter(([r]) => r.arm === name).reduce((s, [, ms]) => s + ms, 0) / mine.length,
    };
  }
  out.arms = byArm;
  out.perRound = perRound;
  out.foreign = foreign;
  out.mode = mode;
  {
    const added: Record<string, { p50: Spread; p99: Spread; p50NoGc: number; cpuMean: number; wallMean: number }> = {};
    for (const a of arms) {
      const name = a.spec.name;
      const direct = pairOf(name);
      if (a.spec.kind === 'sdk' || !byArm[direct]) continue;
      const A = byArm[name] as any;
      const D = byArm[direct] as any;
      added[name] = {
        p50: spread(perRound.map((x) => x[name]!.p50 - x[direct]!.p50)),
        p99: spread(perRound.map((x) => x[name]!.p99 - x[direct]!.p99)),
        p50NoGc: A.p50NoGc - D.p50NoGc,
        cpuMean: A.cpuMean - D.cpuMean,
        wallMean: A.wallMean - D.wallMean,
      };
    }
    out.added = added;
    const fmt = (s: Spread) => `${s.median.toFixed(1)} [${s.q1.toFixed(1)}–${s.q3.toFixed(1)}]`;
    for (const [name, v] of Object.entries(added)) {
      process.stderr.write(`${name}: added p50 ${fmt(v.p50)} µs, p99 ${fmt(v.p99)} µs; no-GC p50 ${v.p50NoGc.toFixed(1)}; mean wall ${v.wallMean.toFixed(1)}, mean CPU ${v.cpuMean.toFixed(1)} µs\n`);
    }
    process.stderr.write(`core 1 taken by other processes per round: ${foreign.map((x) => `${(x.share * 100).toFixed(0)}%`).join(' ')}\n`);
    for (const a of arms) if (a.spec.kind === 'sdk') process.stderr.write(`${a.spec.name} p50 ${fmt((byArm[a.spec.name] as any).p50)} µs, CPU/call ${(byArm[a.spec.name] as any).cpuMean.toFixed(0)} µs\n`);
    process.stderr.write(`sleeps (voluntary context switches) per call: ${arms.map((a) => `${a.spec.name} ${(byArm[a.spec.name] as any).sleepsPerCall.toFixed(2)}`).join(', ')}\n`);
  }
  console.log(JSON.stringify(out));
  for (const a of arms) await a.close();
  for (const u of upstreams.values()) await u.close();
  hog?.kill('SIGCONT');
  hog?.kill();
  cleanUpRefs();
  process.exit(0);
}

main().catch((err) => {
  console.error(err);
  hogChild?.kill();
  cleanUpRefs();
  process.exit(1);
});
