// Child process: runs the provider simulator on its own event loop (and its own core), so it never
// competes with the client being measured. Driven over IPC by sim-process.ts.
import type { Simulator, SimulatorOptions, SimRequestEvent } from '../../src/sim/index.js';
import { srcImport } from './source.js';

// The simulator of the harness's source root (lib/source.ts): the working tree, or --ref-now's commit.
const { startSimulator } = await srcImport<typeof import('../../src/sim/index.js')>('src/sim/index.ts');

/** Requests per provider per time bucket (absolute ms), by outcome: an HTTP status, or `reset` / `hang`. */
type Timeline = Record<string, Record<number, Record<string, number>>>;

let sim: Simulator | undefined;
let bucketMs = 100;
const timeline: Timeline = {};

function record(e: SimRequestEvent): void {
  const byBucket = (timeline[e.provider] ??= {});
  const bucket = Math.floor(e.atMs / bucketMs) * bucketMs;
  const counts = (byBucket[bucket] ??= {});
  const key = e.status !== undefined ? String(e.status) : (e.fault ?? 'none');
  counts[key] = (counts[key] ?? 0) + 1;
}

function send(msg: unknown): void {
  process.send?.(msg);
}

process.on('message', (msg: any) => {
  void (async () => {
    try {
      if (msg.type === 'start') {
        bucketMs = msg.bucketMs ?? bucketMs;
        const options: SimulatorOptions = { ...msg.options, onRequest: record };
        sim = await startSimulator(options);
        const baseURLs = Object.fromEntries(sim.providers.map((p) => [p, sim!.baseURL(p)]));
        send({ type: 'ready', id: msg.id, url: sim.url, port: sim.port, providers: sim.providers, baseURLs, startedAtMs: sim.stats().startedAtMs });
      } else if (msg.type === 'stats') {
        send({ type: 'stats', id: msg.id, stats: sim?.stats(), timeline });
      } else if (msg.type === 'stop') {
        await sim?.stop();
        sim = undefined;
        send({ type: 'stopped', id: msg.id, at: Date.now() });
      } else if (msg.type === 'exit') {
        await sim?.stop();
        process.exit(0);
      }
    } catch (err) {
      send({ type: 'error', id: msg.id, message: (err as Error)?.stack ?? String(err) });
    }
  })();
});
process.on('disconnect', () => process.exit(0));
send({ type: 'booted' });
