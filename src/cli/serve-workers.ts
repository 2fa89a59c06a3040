import cluster, { type Worker } from 'node:cluster';
import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { extname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { UsageError, type CliIO } from './command.js';

/**
 * `switchyard serve --workers N`: the primary process forks N gateway workers (node:cluster) that
 * share one listening socket, each running its own router. The primary serves no request: it starts
 * the workers one at a time (so a config or listen error is printed once, by the first), prints one
 * "listening" line, restarts a worker that dies, and on SIGINT/SIGTERM tells every worker to drain,
 * waits for them all and prints their summed drain report. Workers ignore signals themselves (a
 * Ctrl-C reaches the whole process group; the primary alone decides) and drain when told, or when the
 * primary is gone.
 */

/** Environment a worker is started with: its index and the worker count. */
export const WORKER_INDEX_ENV = 'SWITCHYARD_WORKER_INDEX';
export const WORKER_COUNT_ENV = 'SWITCHYARD_WORKER_COUNT';

/** Messages between the primary and a worker over the cluster's IPC channel. */
export type ToPrimary =
  | { type: 'listening'; url: string }
  /** Sent once the worker has stopped accepting: its calls in flight are counted from then. */
  | { type: 'draining' }
  | { type: 'stopped'; inFlight: number; cutOff: number };
export type ToWorker = { type: 'drain'; signal: string };

/** A worker restarted more often than this within RESTART_WINDOW_MS is not restarted again. */
const MAX_RESTARTS = 5;
const RESTART_WINDOW_MS = 60_000;

/** `--workers`: a whole number of at least 1, or `auto` (the cores this process may use). */
export function parseWorkers(text: string | undefined): number {
  if (text === undefined) return 1;
  if (text === 'auto') return availableParallelism();
  if (!/^\d+$/.test(text) || Number(text) < 1 || Number(text) > 1024) {
    throw new UsageError(`--workers expects a whole number from 1 to 1024, or auto, got "${text}"`);
  }
  return Number(text);
}

/** This process's place among the workers, when it is one. */
export function workerPlace(env: NodeJS.ProcessEnv): { index: number; count: number } | undefined {
  if (!cluster.isWorker) return undefined;
  const index = Number(env[WORKER_INDEX_ENV]);
  const count = Number(env[WORKER_COUNT_ENV]);
  return Number.isInteger(index) && Number.isInteger(count) && count > 0 ? { index, count } : undefined;
}

/** The CLI entry a worker runs: `main.ts` beside this file under tsx, `main.js` in the built package. */
function cliEntry(): string {
  const here = fileURLToPath(import.meta.url);
  const entry = fileURLToPath(new URL(`./main${extname(here)}`, import.meta.url));
  if (!existsSync(entry)) throw new Error(`switchyard serve --workers: cannot find the CLI entry ${entry}`);
  return entry;
}

export interface PrimaryOptions {
  argv: string[];
  count: number;
  io: CliIO;
  /** Added to each worker's environment (the offline simulator's URL). */
  env: Record<string, string>;
  /** The line printed once every worker listens. */
  listeningLine: (url: string) => string;
  drainMs: number;
}

/** A worker that ends in a worker-side signal (SIGINT from a terminal's process group) is not a crash. */
function send(worker: Worker, message: ToWorker): void {
  if (worker.isConnected()) worker.send(message);
}

/** Runs the primary until every worker has drained; resolves to the exit code. */
export async function runPrimary(o: PrimaryOptions): Promise<number> {
  cluster.setupPrimary({ exec: cliEntry(), args: ['serve', ...o.argv], execArgv: process.execArgv });
  const workers = new Map<number, Worker>();
  const restarts: number[] = [];
  let draining = false;
  let drainSignal = '';
  let url: string | undefined;
  const stopped = new Map<number, { inFlight: number; cutOff: number }>();
  const acked = new Set<number>();
  let onProgress = () => {};

  /** Starts worker `index`; resolves with its URL once it listens, rejects with its exit code if it exits first. */
  const start = (index: number) => new Promise<string>((resolve, reject) => {
    const worker = cluster.fork({ ...o.env, [WORKER_INDEX_ENV]: String(index), [WORKER_COUNT_ENV]: String(o.count) });
    workers.set(index, worker);
    let listening = false;
    worker.on('message', (m: ToPrimary) => {
      if (m.type === 'listening') {
        listening = true;
        // A worker restarted just before a drain began missed the word: it drains as soon as it listens.
        if (draining) send(worker, { type: 'drain', signal: drainSignal });
        resolve(m.url);
      } else if (m.type === 'draining') acked.add(index);
      else if (m.type === 'stopped') stopped.set(index, { inFlight: m.inFlight, cutOff: m.cutOff });
      if (draining) onProgress();
    });
    worker.on('exit', (code, signal) => {
      if (workers.get(index) === worker) workers.delete(index);
      if (draining) onProgress();
      if (!listening) return reject(new ExitBeforeListening(code ?? 1));
      if (draining) return;
      const now = Date.now();
      restarts.push(now);
      while (restarts.length > 0 && restarts[0]! < now - RESTART_WINDOW_MS) restarts.shift();
      if (restarts.length > MAX_RESTARTS) {
        o.io.stderr(`switchyard: worker ${index} exited (${signal ?? code}); ${MAX_RESTARTS} restarts within ${RESTART_WINDOW_MS / 1000} s, so it is not restarted\n`);
        return;
      }
      o.io.stderr(`switchyard: worker ${index} exited (${signal ?? code}); starting another\n`);
      start(index).catch((err: unknown) => o.io.stderr(`switchyard: worker ${index} did not restart: ${(err as Error).message}\n`));
    });
  });

  const stopAll = () => {
    for (const w of workers.values()) w.process.kill('SIGKILL');
  };
  try {
    // One at a time: a bad config or a refused --host fails the first worker, which prints it once.
    for (let i = 0; i < o.count; i++) {
      const at = await start(i);
      url ??= at;
    }
  } catch (err) {
    stopAll();
    if (err instanceof ExitBeforeListening) return err.code === 0 ? 1 : err.code;
    throw err;
  }

  o.io.stdout(o.listeningLine(url!));
  const signal = await new Promise<string>((resolve) => {
    const on = (s: NodeJS.Signals) => {
      process.off('SIGINT', on);
      process.off('SIGTERM', on);
      const force = () => {
        o.io.stderr('switchyard: second signal while draining: stopping every worker now\n');
        stopAll();
        process.exit(1);
      };
      process.once('SIGINT', force);
      process.once('SIGTERM', force);
      resolve(s);
    };
    process.on('SIGINT', on);
    process.on('SIGTERM', on);
  });
  draining = true;
  drainSignal = signal;
  // The draining line once every worker has stopped accepting (or is gone), the report once every one has exited.
  const progress = (done: () => boolean) => new Promise<void>((resolve) => {
    onProgress = () => {
      if (done()) resolve();
    };
    onProgress();
  });
  const allAcked = progress(() => [...workers.keys()].every((i) => acked.has(i)));
  for (const w of workers.values()) send(w, { type: 'drain', signal });
  await allAcked;
  o.io.stdout(`switchyard gateway draining (${signal}): ${o.count} workers stopped accepting; calls in flight have ${o.drainMs} ms to finish\n`);
  await progress(() => workers.size === 0);
  const sum = [...stopped.values()].reduce((a, r) => ({ inFlight: a.inFlight + r.inFlight, cutOff: a.cutOff + r.cutOff }), { inFlight: 0, cutOff: 0 });
  o.io.stdout(`switchyard gateway stopped: ${sum.inFlight} in flight at ${signal}, ${sum.cutOff} cut off (${stopped.size} of ${o.count} workers drained)\n`);
  return stopped.size === o.count ? 0 : 1;
}

class ExitBeforeListening extends Error {
  constructor(readonly code: number) {
    super(`worker exited with code ${code} before it listened`);
  }
}

/**
 * The worker's side: resolves with the signal name when the primary says drain (or is gone), and
 * keeps SIGINT/SIGTERM from ending the worker meanwhile.
 */
export function drainRequested(): Promise<string> {
  const ignore = () => {};
  process.on('SIGINT', ignore);
  process.on('SIGTERM', ignore);
  return new Promise((resolve) => {
    process.on('message', (m: ToWorker) => {
      if (m?.type === 'drain') resolve(m.signal);
    });
    process.once('disconnect', () => resolve('primary gone'));
  });
}

/** Tells the primary something; a no-op once the channel is gone. */
export function tellPrimary(message: ToPrimary): Promise<void> {
  return new Promise((resolve) => {
    if (!process.connected || !process.send) return resolve();
    process.send(message, undefined, {}, () => resolve());
  });
}
