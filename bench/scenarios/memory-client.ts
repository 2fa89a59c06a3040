// Child process for scenario 5 (started with --expose-gc): either holds N calls in flight against a
// slow upstream and reports memory and event-loop delay, or soaks a steady load and samples the heap.
import { get } from 'node:http';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { benchRouter, chainConfig, loadCreateRouter, routerCall, sdkCall, sdkClient } from '../lib/arms.js';
import { openLoop } from '../lib/load.js';
import { request } from '../lib/prompts.js';

export interface InFlightInput {
  kind: 'in-flight';
  arm: 'direct' | 'router';
  /** The router source (lib/refs.ts) of a router arm: this checkout, or a materialised git ref. */
  root?: string;
  simURL: string;
  /** The simulator's name for the slow provider (its in-flight count is polled). */
  slowProvider: string;
  slowURL: string;
  fastURL: string;
  n: number;
  holdMs: number;
  /** Give up waiting for every call to reach the simulator after this. */
  launchLimitMs: number;
  warmup: number;
}

export interface SoakInput {
  kind: 'soak';
  root: string;
  fastURL: string;
  ratePerSec: number;
  durationMs: number;
  sampleEveryMs: number;
  windowMs?: number;
  warmup: number;
}

export interface Mem {
  heapUsed: number;
  rss: number;
  external: number;
  arrayBuffers: number;
}

const gc = (globalThis as { gc?: () => void }).gc!;

async function settledMem(): Promise<Mem> {
  gc();
  await sleep(50);
  gc();
  const m = process.memoryUsage();
  return { heapUsed: m.heapUsed, rss: m.rss, external: m.external, arrayBuffers: m.arrayBuffers };
}

function inFlightAt(simURL: string, provider: string): Promise<number> {
  return new Promise((resolve, reject) => {
    get(`${simURL}/_sim/stats`, { agent: false }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => resolve(JSON.parse(body).providers[provider].inFlight as number));
    }).on('error', reject);
  });
}

const req = request('Write a haiku about queues.', 64);

async function inFlight(o: InFlightInput) {
  const create = o.arm === 'router' ? await loadCreateRouter(o.root) : undefined;
  const warm = create ? benchRouter(chainConfig({ primary: o.fastURL, secondary: o.fastURL }), create) : undefined;
  const warmClient = sdkClient(o.fastURL, 0);
  for (let i = 0; i < o.warmup; i++) await (warm ? routerCall(warm, req) : sdkCall(warmClient, req));
  await warm?.close();
  const router = create ? benchRouter(chainConfig({ primary: o.slowURL, secondary: o.slowURL }, { timeoutMs: 300_000 }), create) : undefined;
  const client = sdkClient(o.slowURL, 0, 300_000);
  const call = router ? () => routerCall(router, req) : () => sdkCall(client, req);

  const base = await settledMem();
  const eld = monitorEventLoopDelay({ resolution: 1 });
  eld.enable();
  const t0 = Date.now();
  let ok = 0;
  let failed = 0;
  const calls: Promise<unknown>[] = [];
  for (let i = 0; i < o.n; i++) {
    calls.push(call().then(() => void ok++, () => void failed++));
    if (i % 200 === 199) await new Promise((r) => setImmediate(r));
  }
  let reached = 0;
  while (Date.now() - t0 < o.launchLimitMs) {
    reached = await inFlightAt(o.simURL, o.slowProvider);
    if (reached >= o.n) break;
    await sleep(200);
  }
  const launchMs = Date.now() - t0;
  const launchEldP99Ms = eld.percentile(99) / 1e6;
  eld.reset();
  await sleep(o.holdMs);
  const holdEldP99Ms = eld.percentile(99) / 1e6;
  const holdEldMaxMs = eld.max / 1e6;
  const hold = await settledMem();
  const stillInFlight = await inFlightAt(o.simURL, o.slowProvider);
  await Promise.all(calls);
  const doneMs = Date.now() - t0;
  eld.disable();
  await router?.close();
  await sleep(200);
  const after = await settledMem();
  return { base, hold, after, reached, stillInFlight, launchMs, doneMs, launchEldP99Ms, holdEldP99Ms, holdEldMaxMs, ok, failed };
}

async function soak(o: SoakInput) {
  const router = benchRouter(chainConfig({ primary: o.fastURL, secondary: o.fastURL }, o.windowMs ? { windowMs: o.windowMs } : {}), await loadCreateRouter(o.root));
  for (let i = 0; i < o.warmup; i++) await routerCall(router, req);
  const samples: Array<{ tMs: number } & Mem> = [];
  const eld = monitorEventLoopDelay({ resolution: 1 });
  const t0 = Date.now();
  let sampling = Promise.resolve();
  // The forced gc() of a sample is ours, not the router's: the delay monitor is off while it runs.
  const timer = setInterval(() => {
    sampling = sampling.then(async () => {
      eld.disable();
      samples.push({ tMs: Date.now() - t0, ...(await settledMem()) });
      eld.enable();
    });
  }, o.sampleEveryMs);
  eld.enable();
  let calls = 0;
  let failed = 0;
  await openLoop({
    ratePerSec: o.ratePerSec, maxDurationMs: o.durationMs, drainMs: 5_000, keep: false,
    job: async () => void (await routerCall(router, req)),
    onSettled: (r) => {
      calls++;
      if (!r.ok) failed++;
    },
  });
  clearInterval(timer);
  await sampling;
  eld.disable();
  await router.close();
  return {
    samples, calls, failed,
    eldP99Ms: eld.percentile(99) / 1e6, eldMaxMs: eld.max / 1e6,
  };
}

process.once('message', (msg: InFlightInput | SoakInput) => {
  (msg.kind === 'in-flight' ? inFlight(msg) : soak(msg)).then(
    (out) => process.send!({ type: 'result', out }, () => process.exit(0)),
    (err) => process.send!({ type: 'error', message: (err as Error)?.stack ?? String(err) }, () => process.exit(1)),
  );
});
