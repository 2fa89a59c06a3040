import { setTimeout as sleep } from 'node:timers/promises';

/** One logical request as the load generator saw it. */
export interface CallRecord<T = unknown> {
  /** Epoch ms the request was due (open loop) or started (callers): latency counts from here. */
  dueMs: number;
  startMs: number;
  endMs: number;
  ok: boolean;
  /** What the job returned, or the error it threw. */
  value?: T;
  error?: unknown;
}

/** Latencies in microseconds of `n` calls made one after another. */
export async function sequential(n: number, fn: () => Promise<unknown>): Promise<number[]> {
  const out = new Array<number>(n);
  for (let i = 0; i < n; i++) {
    const t0 = process.hrtime.bigint();
    await fn();
    out[i] = Number(process.hrtime.bigint() - t0) / 1000;
  }
  return out;
}

/** Sequential calls taking turns between arms (a, b, c, a, b, c, ...): latencies in µs per arm. */
export async function interleaved(n: number, arms: ReadonlyArray<readonly [string, () => Promise<unknown>]>): Promise<Record<string, number[]>> {
  const out: Record<string, number[]> = Object.fromEntries(arms.map(([name]) => [name, new Array<number>(n)]));
  for (let i = 0; i < n; i++) {
    for (const [name, fn] of arms) {
      const t0 = process.hrtime.bigint();
      await fn();
      out[name]![i] = Number(process.hrtime.bigint() - t0) / 1000;
    }
  }
  return out;
}

export interface ClosedLoopResult {
  completed: number;
  errors: number;
  elapsedMs: number;
  /** Process CPU (user + system) over the run, µs. */
  cpuUs: number;
  latenciesUs: number[];
}

/** `concurrency` workers calling back to back for `durationMs`: throughput, CPU and latency. */
export async function closedLoop(concurrency: number, durationMs: number, fn: () => Promise<unknown>): Promise<ClosedLoopResult> {
  const latenciesUs: number[] = [];
  let completed = 0;
  let errors = 0;
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const until = t0 + durationMs;
  const worker = async () => {
    while (performance.now() < until) {
      const s = process.hrtime.bigint();
      try {
        await fn();
        completed++;
      } catch {
        errors++;
      }
      latenciesUs.push(Number(process.hrtime.bigint() - s) / 1000);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  const elapsedMs = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  return { completed, errors, elapsedMs, cpuUs: cpu.user + cpu.system, latenciesUs };
}

export interface MixedLoopResult {
  elapsedMs: number;
  /** Process CPU (user + system) over the whole loop, µs: one figure for every arm together. */
  cpuUs: number;
  arms: Record<string, { completed: number; errors: number; latenciesUs: number[] }>;
}

/**
 * One closed loop of `concurrency` workers in which every worker takes the arms in turn, call by call
 * (worker w starts at arm w mod k, so at any moment the calls in flight are spread over the arms): every
 * arm sees the same load, the same GC and the same event loop. Latency and completions per arm.
 */
export async function mixedClosedLoop(concurrency: number, durationMs: number, arms: ReadonlyArray<readonly [string, () => Promise<unknown>]>): Promise<MixedLoopResult> {
  const out: MixedLoopResult['arms'] = Object.fromEntries(arms.map(([name]) => [name, { completed: 0, errors: 0, latenciesUs: [] as number[] }]));
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const until = t0 + durationMs;
  const worker = async (w: number) => {
    for (let i = w; performance.now() < until; i++) {
      const [name, fn] = arms[i % arms.length]!;
      const rec = out[name]!;
      const s = process.hrtime.bigint();
      try {
        await fn();
        rec.completed++;
      } catch {
        rec.errors++;
      }
      rec.latenciesUs.push(Number(process.hrtime.bigint() - s) / 1000);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, (_, w) => worker(w)));
  const elapsedMs = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  return { elapsedMs, cpuUs: cpu.user + cpu.system, arms: out };
}

async function settle<T>(rec: CallRecord<T>, job: () => Promise<T>): Promise<void> {
  try {
    rec.value = await job();
    rec.ok = true;
  } catch (err) {
    rec.error = err;
    rec.ok = false;
  }
  rec.endMs = Date.now();
}

export interface PacedCallersOptions<T> {
  callers: number;
  /** Offered load: logical requests per second over all callers. */
  ratePerSec: number;
  durationMs: number;
  job: (caller: number, seq: number) => Promise<T>;
  random: () => number;
}

/**
 * `callers` concurrent callers, each due to start a request every `callers / ratePerSec` seconds (random
 * phase). A caller whose request is still running when its next is due starts it as soon as it ends,
 * without catching up on the ones it missed: the offered load is an upper bound that slow answers
 * push back on, as real callers would.
 */
export async function pacedCallers<T>(o: PacedCallersOptions<T>): Promise<CallRecord<T>[]> {
  const records: CallRecord<T>[] = [];
  const intervalMs = (1000 * o.callers) / o.ratePerSec;
  const start = Date.now();
  const until = start + o.durationMs;
  let seq = 0;
  const caller = async (i: number) => {
    let due = start + o.random() * intervalMs;
    while (due < until) {
      const now = Date.now();
      if (due > now) await sleep(due - now);
      const rec: CallRecord<T> = { dueMs: due, startMs: Date.now(), endMs: 0, ok: false };
      records.push(rec);
      await settle(rec, () => o.job(i, seq++));
      due = Math.max(due + intervalMs, rec.endMs);
    }
  };
  await Promise.all(Array.from({ length: o.callers }, (_, i) => caller(i)));
  return records;
}

export interface OpenLoopOptions<T> {
  ratePerSec: number;
  /** Stops issuing when this returns false (checked every tick), or at `maxDurationMs`. */
  keepGoing?: (elapsedMs: number) => boolean;
  maxDurationMs: number;
  job: (seq: number) => Promise<T>;
  /** Give up waiting for stragglers after this. */
  drainMs?: number;
  /** Keep every record (the default); a soak keeps none, so the harness holds no memory per call. */
  keep?: boolean;
  /** Told about each call as it ends. */
  onSettled?: (rec: CallRecord<T>) => void;
}

/**
 * Open-loop arrivals at a fixed rate: each request starts when it is due, whatever happened to the
 * ones before it (no coordinated omission), and its latency counts from when it was due.
 */
export async function openLoop<T>(o: OpenLoopOptions<T>): Promise<CallRecord<T>[]> {
  const records: CallRecord<T>[] = [];
  const pending = new Set<Promise<void>>();
  const gapMs = 1000 / o.ratePerSec;
  const start = Date.now();
  let n = 0;
  for (;;) {
    const now = Date.now();
    const elapsed = now - start;
    if (elapsed >= o.maxDurationMs || (o.keepGoing && !o.keepGoing(elapsed))) break;
    while (start + n * gapMs <= now) {
      const rec: CallRecord<T> = { dueMs: start + n * gapMs, startMs: now, endMs: 0, ok: false };
      if (o.keep !== false) records.push(rec);
      const seq = n++;
      const p = settle(rec, () => o.job(seq)).then(() => {
        pending.delete(p);
        o.onSettled?.(rec);
      });
      pending.add(p);
    }
    await sleep(Math.max(1, Math.min(20, start + n * gapMs - Date.now())));
  }
  await Promise.race([Promise.all(pending), sleep(o.drainMs ?? 30_000)]);
  return records;
}

/** Latency of a record in ms, from when it was due. */
export const latencyMs = (r: CallRecord): number => r.endMs - r.dueMs;

/** Runs `fn` for each item one after another, or (for --quick smoke runs, where figures do not matter) all at once. */
export async function eachOf<T, R>(items: readonly T[], parallel: boolean, fn: (item: T, index: number) => Promise<R>): Promise<R[]> {
  if (parallel) return Promise.all(items.map(fn));
  const out: R[] = [];
  for (const [i, item] of items.entries()) out.push(await fn(item, i));
  return out;
}
