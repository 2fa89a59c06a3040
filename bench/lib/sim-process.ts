import type { ChildProcess } from 'node:child_process';
import type { Scenario, SimulatorStats } from '../../src/sim/index.js';
import { exited, nextMessage, spawnNode } from './node-child.js';

/** Requests per provider per bucket (bucket start in epoch ms), by status or `reset` / `hang`. */
export type SimTimeline = Record<string, Record<string, Record<string, number>>>;

export interface SimReady {
  url: string;
  port: number;
  providers: string[];
  baseURLs: Record<string, string>;
  /** Epoch ms the simulator started: fault windows (`fromMs`, `untilMs`) count from here. */
  startedAtMs: number;
}

/**
 * The provider simulator (src/sim) in a child process of its own, pinned to core 0 when pinning is
 * on: the anchors' rule that the mock must not share an event loop (or a core) with the client.
 */
export class SimProcess {
  private seq = 0;
  ready!: SimReady;

  private constructor(private readonly child: ChildProcess, private readonly bucketMs: number) {}

  static async launch(scenario: Scenario & { port?: number }, bucketMs = 100, core?: string): Promise<SimProcess> {
    const child = spawnNode(new URL('./sim-entry.ts', import.meta.url), { role: 'sim', core });
    await nextMessage(child, (m) => m.type === 'booted', 30_000);
    const sim = new SimProcess(child, bucketMs);
    await sim.start(scenario);
    return sim;
  }

  /** Starts (or, after `stop`, restarts) the simulator in the same child: on the same port if given one. */
  async start(scenario: Scenario & { port?: number }): Promise<SimReady> {
    const id = ++this.seq;
    this.child.send({ type: 'start', id, options: scenario, bucketMs: this.bucketMs });
    this.ready = await nextMessage<SimReady>(this.child, (m) => m.type === 'ready' && m.id === id);
    return this.ready;
  }

  baseURL(provider: string): string {
    const url = this.ready.baseURLs[provider];
    if (!url) throw new Error(`simulator has no provider ${provider}`);
    return url;
  }

  async stats(): Promise<{ stats: SimulatorStats; timeline: SimTimeline }> {
    const id = ++this.seq;
    this.child.send({ type: 'stats', id });
    return nextMessage(this.child, (m) => m.type === 'stats' && m.id === id);
  }

  /** Stops listening and drops every connection; the port then refuses connections. Resolves with the epoch ms it happened. */
  async stop(): Promise<number> {
    const id = ++this.seq;
    this.child.send({ type: 'stop', id });
    const msg = await nextMessage<{ at: number }>(this.child, (m) => m.type === 'stopped' && m.id === id);
    return msg.at;
  }

  async close(): Promise<void> {
    if (this.child.connected) this.child.send({ type: 'exit' });
    await exited(this.child);
  }
}

/** Attempts a provider received with `atMs` in [fromMs, untilMs), by outcome. */
export function countBetween(timeline: SimTimeline, provider: string, fromMs: number, untilMs: number): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [bucket, counts] of Object.entries(timeline[provider] ?? {})) {
    const at = Number(bucket);
    if (at < fromMs || at >= untilMs) continue;
    for (const [k, n] of Object.entries(counts)) out[k] = (out[k] ?? 0) + n;
  }
  return out;
}

export function total(counts: Record<string, number>): number {
  let n = 0;
  for (const v of Object.values(counts)) n += v;
  return n;
}
