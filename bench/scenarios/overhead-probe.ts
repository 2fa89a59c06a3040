// Child process for scenario 1 (started with --expose-gc and a fixed 64 MB semi-space): heap bytes
// allocated per call, and CPU / allocation profiles that say where a router call's time goes.
import { PerformanceObserver } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { makeArm, type Arm, type ArmSpec } from '../lib/arms.js';
import { allocationProfile, cpuProfile, registerSourceRoot, type Breakdown } from '../lib/profile.js';
import { request } from '../lib/prompts.js';
import { balancedOrder } from '../lib/noise.js';
import { median } from '../lib/stats.js';

export interface ProbeInput {
  baseURLs: { primary: string; secondary: string };
  arms: ArmSpec[];
  warmup: number;
  trials: number;
  callsPerTrial: number;
  /** Calls to profile per arm (0: no profiles). */
  profileCalls: number;
  /** Arms not to profile (the A/A twin: its profile would repeat its original's). */
  profileSkip?: string[];
}

export interface ProbeOutput {
  /** Heap bytes allocated per call, one sample per clean trial (no GC ran inside it). */
  allocBytes: Record<string, number[]>;
  /**
   * Heap bytes per call by trial, null where a GC ran inside the trial: trial t of every arm ran in the
   * same block, so arms pair by trial (bench/lib/noise.ts), as rounds do.
   */
  allocByTrial: Record<string, Array<number | null>>;
  /** Trials thrown away because a GC ran inside them. */
  discarded: Record<string, number>;
  cpu?: Record<string, Breakdown>;
  alloc?: Record<string, Breakdown>;
}

const gc = (globalThis as { gc?: () => void }).gc;

async function main(input: ProbeInput): Promise<ProbeOutput> {
  if (!gc) throw new Error('run with --expose-gc');
  const req = request('Say hello in one short sentence, please.', 64);
  for (const spec of input.arms) if (spec.kind === 'router') registerSourceRoot(spec.root);
  const built: Arm[] = [];
  for (const spec of input.arms) built.push(await makeArm(spec, input.baseURLs, req));
  const fns: Record<string, () => Promise<unknown>> = Object.fromEntries(built.map((a) => [a.spec.name, a.call]));
  const arms = input.arms.map((a) => a.name);
  for (const arm of arms) for (let i = 0; i < input.warmup; i++) await fns[arm]!();

  const gcAt: number[] = [];
  const obs = new PerformanceObserver((list) => {
    for (const e of list.getEntries()) gcAt.push(e.startTime);
  });
  obs.observe({ entryTypes: ['gc'] });

  const allocBytes: Record<string, number[]> = Object.fromEntries(arms.map((a) => [a, []]));
  const allocByTrial: Record<string, Array<number | null>> = Object.fromEntries(arms.map((a) => [a, []]));
  const discarded: Record<string, number> = Object.fromEntries(arms.map((a) => [a, 0]));
  for (let t = 0; t < input.trials; t++) {
    for (const arm of balancedOrder(arms, t)) {
      gc();
      gc();
      await sleep(5);
      const t0 = performance.now();
      const h0 = process.memoryUsage().heapUsed;
      for (let i = 0; i < input.callsPerTrial; i++) await fns[arm]!();
      const h1 = process.memoryUsage().heapUsed;
      const t1 = performance.now();
      await sleep(5); // GC entries are delivered on a later tick
      if (gcAt.some((at) => at >= t0 && at <= t1)) {
        discarded[arm]!++;
        allocByTrial[arm]!.push(null);
      } else {
        allocBytes[arm]!.push((h1 - h0) / input.callsPerTrial);
        allocByTrial[arm]!.push((h1 - h0) / input.callsPerTrial);
      }
    }
  }
  obs.disconnect();

  const out: ProbeOutput = { allocBytes, allocByTrial, discarded };
  if (input.profileCalls > 0) {
    out.cpu = {};
    out.alloc = {};
    for (const arm of arms.filter((a) => !input.profileSkip?.includes(a))) {
      const fn = fns[arm]!;
      const run = async () => {
        for (let i = 0; i < input.profileCalls; i++) await fn();
      };
      out.cpu[arm] = (({ profile: _drop, ...rest }) => rest)(await cpuProfile(input.profileCalls, run));
      out.alloc[arm] = await allocationProfile(input.profileCalls, run);
    }
  }
  for (const a of built) await a.close();
  return out;
}

process.once('message', (msg: ProbeInput) => {
  main(msg).then(
    (out) => process.send!({ type: 'result', out, medians: Object.fromEntries(Object.entries(out.allocBytes).map(([k, v]) => [k, median(v)])) }, () => process.exit(0)),
    (err) => process.send!({ type: 'error', message: (err as Error)?.stack ?? String(err) }, () => process.exit(1)),
  );
});
