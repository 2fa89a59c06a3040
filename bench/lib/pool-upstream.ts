import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ChildProcess } from 'node:child_process';
import { mulberry32, type Random } from '../../providers/shared/answers/prng.js';
import { exited, nextMessage, spawnNode } from './node-child.js';

/**
 * The routing scenario's upstream: one node:http server speaking OpenAI's chat wire for three pool
 * members, each under its own path (`/<member>/v1/chat/completions`). Real time, seeded jitter, and a
 * brownout schedule counted from the last `reset`, so every arm meets the same upstream.
 *
 * - `healthy`: `baseMs` plus up to `jitterMs`;
 * - `slow`: three times that;
 * - `brownout`: healthy until `phases.slowFromMs`, then `phases.slowMs` per answer, then 500s, then
 *   200s whose body is not JSON (a proxy's HTML page: garbage to any client), then healthy again.
 */

export type Member = 'healthy' | 'slow' | 'brownout';
export const MEMBERS: readonly Member[] = ['healthy', 'slow', 'brownout'];

export interface Brownout {
  slowFromMs: number;
  errorsFromMs: number;
  garbageFromMs: number;
  healedFromMs: number;
  /** The brownout member's latency in its slow phase. */
  slowMs: number;
}

export interface UpstreamProfile {
  seed: number;
  baseMs: number;
  jitterMs: number;
  /** No brownout: every member keeps its latency (healthy, 3x) for the whole run. */
  brownout?: Brownout;
}

/** What the brownout member serves at `elapsedMs` (pure). */
export type Phase = 'ok' | 'slow' | 'error' | 'garbage';
export function brownoutPhase(b: Brownout | undefined, elapsedMs: number): Phase {
  if (!b || elapsedMs < b.slowFromMs || elapsedMs >= b.healedFromMs) return 'ok';
  if (elapsedMs < b.errorsFromMs) return 'slow';
  return elapsedMs < b.garbageFromMs ? 'error' : 'garbage';
}

/** Requests each member received, by outcome, and when the brownout member failed (epoch ms). */
export interface UpstreamStats {
  startedAtMs: number;
  requests: Record<Member, number>;
  byPhase: Record<Member, Record<Phase, number>>;
  /** Epoch ms of every failure (500 or garbage) the brownout member served, in order. */
  brownoutFailuresAtMs: number[];
}

const completion = (member: string, n: number) => JSON.stringify({
  id: `chatcmpl-${member}-${n}`, object: 'chat.completion', created: 1_764_000_000, model: 'gpt-4o-mini',
  choices: [{ index: 0, message: { role: 'assistant', content: 'Two is the only even prime.', refusal: null }, logprobs: null, finish_reason: 'stop' }],
  usage: { prompt_tokens: 19, completion_tokens: 8, total_tokens: 27 },
});
const SERVER_ERROR = JSON.stringify({ error: { message: 'The server had an error while processing your request.', type: 'server_error', param: null, code: null } });
const GARBAGE = '<html><body><h1>200 OK</h1><p>upstream cache page</p></body></html>';

function emptyStats(): UpstreamStats {
  const phases = () => ({ ok: 0, slow: 0, error: 0, garbage: 0 });
  return {
    startedAtMs: Date.now(), requests: { healthy: 0, slow: 0, brownout: 0 },
    byPhase: { healthy: phases(), slow: phases(), brownout: phases() }, brownoutFailuresAtMs: [],
  };
}

/** The server in this process; `reset(profile)` restarts its clock, counters and seeded draws. */
export async function startPoolUpstream(): Promise<{ url: string; server: Server; reset(p: UpstreamProfile): void; stats(): UpstreamStats; close(): Promise<void> }> {
  let profile: UpstreamProfile = { seed: 1, baseMs: 0, jitterMs: 0 };
  let random: Random = mulberry32(1);
  let stats = emptyStats();
  const answer = (member: Member, res: ServerResponse) => {
    const n = ++stats.requests[member];
    const phase = member === 'brownout' ? brownoutPhase(profile.brownout, Date.now() - stats.startedAtMs) : 'ok';
    stats.byPhase[member][phase]++;
    const base = profile.baseMs + random() * profile.jitterMs;
    const delay = phase === 'slow' ? profile.brownout!.slowMs : member === 'slow' ? 3 * base : base;
    const send = () => {
      if (phase === 'error' || phase === 'garbage') stats.brownoutFailuresAtMs.push(Date.now());
      if (phase === 'error') return void res.writeHead(500, { 'content-type': 'application/json' }).end(SERVER_ERROR);
      if (phase === 'garbage') return void res.writeHead(200, { 'content-type': 'application/json' }).end(GARBAGE);
      res.writeHead(200, { 'content-type': 'application/json', 'x-request-id': `req_${member}_${n}` }).end(completion(member, n));
    };
    if (delay > 0 && phase !== 'error') setTimeout(send, delay);
    else send();
  };
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    req.on('data', () => {});
    req.on('end', () => {
      const member = (req.url ?? '').split('/')[1] as Member;
      if (!MEMBERS.includes(member)) return void res.writeHead(404).end();
      answer(member, res);
    });
  });
  server.keepAliveTimeout = 60_000;
  server.on('connection', (socket) => socket.setNoDelay(true));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url, server,
    reset(p) {
      profile = p;
      random = mulberry32(p.seed);
      stats = emptyStats();
    },
    stats: () => stats,
    close: () => new Promise<void>((r) => {
      server.closeAllConnections();
      server.close(() => r());
    }),
  };
}

/** The pool upstream in a child process of its own (bench/lib/pool-upstream-entry.ts), on the simulator's core. */
export class PoolUpstream {
  private seq = 0;
  private constructor(private readonly child: ChildProcess, readonly url: string) {}

  static async launch(): Promise<PoolUpstream> {
    const child = spawnNode(new URL('./pool-upstream-entry.ts', import.meta.url), { role: 'sim' });
    await nextMessage(child, (m) => m.type === 'booted', 30_000);
    child.send({ type: 'start' });
    const { url } = await nextMessage<{ url: string }>(child, (m) => m.type === 'ready');
    return new PoolUpstream(child, url);
  }

  baseURL(member: Member): string {
    return `${this.url}/${member}/v1`;
  }

  async reset(profile: UpstreamProfile): Promise<void> {
    const id = ++this.seq;
    this.child.send({ type: 'reset', id, profile });
    await nextMessage(this.child, (m) => m.type === 'reset' && m.id === id);
  }

  async stats(): Promise<UpstreamStats> {
    const id = ++this.seq;
    this.child.send({ type: 'stats', id });
    return (await nextMessage<{ stats: UpstreamStats }>(this.child, (m) => m.type === 'stats' && m.id === id)).stats;
  }

  async close(): Promise<void> {
    if (this.child.connected) this.child.send({ type: 'exit' });
    await exited(this.child);
  }
}
