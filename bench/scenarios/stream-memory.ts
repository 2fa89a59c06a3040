import type { ChildProcess } from 'node:child_process';
import { createServer, request as httpRequest, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { kib, num } from '../lib/format.js';
import { exited, nextMessage, spawnNode } from '../lib/node-child.js';
import { check, type ScenarioReport, type TargetCheck } from '../lib/report.js';
import type { BenchContext, BenchScenario } from '../lib/scenario.js';
import type { StreamMem, StreamMemoryInput } from './stream-memory-gateway.js';

// Issue 25.3: a stream through the gateway in constant memory. The upstream (plain node:http in
// this process) streams an OpenAI Chat Completions answer of any length, writing only as fast as
// its socket drains; the gateway (router + createGateway) runs in a child whose RSS is measured;
// the clients (raw node:http, in this process) either read and discard, or read the headers and stop.

const MiB = 2 ** 20;
const DELTA_CHARS = 1024;

/** The upstream: every request is a stream of `bytes` characters of content, in 1 KiB deltas, written with backpressure. */
class StreamingUpstream {
  private server!: Server;
  private readonly sockets = new Set<Socket>();
  url = '';
  /** Content characters written to each request's socket so far, by request number. */
  readonly written: number[] = [];
  /** Requests whose client went away before the answer ended. */
  aborted = 0;

  constructor(private bytes: number) {}

  answerWith(bytes: number): void {
    this.bytes = bytes;
  }

  async start(): Promise<this> {
    this.server = createServer((req, res) => void this.handle(req, res));
    this.server.on('connection', (s) => {
      this.sockets.add(s);
      s.on('close', () => this.sockets.delete(s));
    });
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    for await (const _ of req);
    const n = this.written.push(0) - 1;
    const total = this.bytes;
    res.writeHead(200, { 'content-type': 'text/event-stream', 'x-request-id': `req_${n}` });
    const frame = (delta: unknown, finish: string | null = null, extra = {}) =>
      `data: ${JSON.stringify({ id: 'chatcmpl-bench', object: 'chat.completion.chunk', created: 1, model: 'gpt-4o-mini', choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }], ...extra })}\n\n`;
    const content = 'x'.repeat(DELTA_CHARS - 1) + ' ';
    const piece = frame({ content });
    let gone = false;
    res.on('close', () => {
      if (!res.writableFinished) {
        gone = true;
        this.aborted++;
      }
    });
    const write = (text: string) => (res.write(text) ? undefined : new Promise<void>((resolve) => {
      const on = () => {
        res.off('drain', on);
        res.off('close', on);
        resolve();
      };
      res.on('drain', on);
      res.on('close', on);
    }));
    await write(frame({ role: 'assistant', content: '' }));
    for (let sent = 0; sent < total && !gone; sent += DELTA_CHARS) {
      const wait = write(piece);
      this.written[n]! += DELTA_CHARS;
      if (wait) await wait;
    }
    if (gone) return;
    await write(frame({}, 'stop'));
    await write(`data: ${JSON.stringify({ id: 'chatcmpl-bench', object: 'chat.completion.chunk', created: 1, model: 'gpt-4o-mini', choices: [], usage: { prompt_tokens: 5, completion_tokens: Math.ceil(total / 4), total_tokens: 5 + Math.ceil(total / 4) } })}\n\n`);
    res.end('data: [DONE]\n\n');
  }

  async close(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

/** A gateway child and the readings it answers. */
class GatewayChild {
  private seq = 0;
  url = '';
  constructor(readonly proc: ChildProcess) {
    // A child that died (out of memory, in the capped run) closes its channel: that is a result, not a crash here.
    proc.on('error', () => {});
  }

  static async start(input: StreamMemoryInput, heapMb?: number): Promise<GatewayChild> {
    const proc = spawnNode(new URL('./stream-memory-gateway.ts', import.meta.url), { role: 'client', nodeFlags: ['--expose-gc', ...(heapMb ? [`--max-old-space-size=${heapMb}`] : [])] });
    const child = new GatewayChild(proc);
    proc.send(input);
    child.url = (await nextMessage<{ url: string }>(proc, (m) => m.type === 'ready', 60_000)).url;
    return child;
  }

  private ask<T>(type: string): Promise<T> {
    const id = ++this.seq;
    this.proc.send({ type, id });
    return nextMessage<T>(this.proc, (m) => m.id === id, 60_000);
  }

  async mem(): Promise<StreamMem> {
    return (await this.ask<{ mem: StreamMem }>('mem')).mem;
  }

  async resetPeak(): Promise<void> {
    await this.ask('reset-peak');
  }

  async close(): Promise<void> {
    if (this.proc.exitCode === null && this.proc.connected) await this.ask('close').catch(() => {});
    await exited(this.proc);
  }
}

const BODY = JSON.stringify({ model: 'default', stream: true, messages: [{ role: 'user', content: 'Write it all out.' }] });

/** Opens a stream through the gateway; resolves with the response once its headers are in. */
function open(url: string): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${url}/v1/chat/completions`, { method: 'POST', agent: false, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(BODY) } }, resolve);
    req.on('error', reject);
    req.end(BODY);
  });
}

/** Reads a stream to its end, keeping nothing; resolves with the bytes read. */
async function readAll(res: IncomingMessage): Promise<number> {
  let bytes = 0;
  for await (const chunk of res) bytes += (chunk as Buffer).length;
  return bytes;
}

/** Waits until the upstream's writes have stopped growing for `quietMs` (every held stream stalled on backpressure). */
async function stalled(up: StreamingUpstream, quietMs: number, limitMs: number): Promise<number> {
  const total = () => up.written.reduce((a, b) => a + b, 0);
  let last = total();
  let quietSince = Date.now();
  const startedAt = Date.now();
  while (Date.now() - quietSince < quietMs && Date.now() - startedAt < limitMs) {
    await sleep(100);
    const now = total();
    if (now !== last) {
      last = now;
      quietSince = Date.now();
    }
  }
  return Date.now() - startedAt;
}

interface ArmResult {
  label: string;
  base: StreamMem;
  warmBytes: number;
  relay: { bytes: number; ms: number; peakRss: number; after: StreamMem };
  held: { n: number; mem: StreamMem; upstreamPerStream: number; stallMs: number; abortedAfterClose: number; abortMs: number };
  /** The same relay in a gateway whose old space is capped at `capMb` (the issue's crash: exit 134). */
  capped: { capMb: number; ok: boolean; bytes: number; exit?: string };
}

/** Relays one answer through a fresh gateway whose heap is capped; whether it got through whole. */
async function cappedRelay(root: string | undefined, answerBytes: number, capMb: number): Promise<ArmResult['capped']> {
  const up = await new StreamingUpstream(answerBytes).start();
  const gw = await GatewayChild.start({ root, upstreamURL: up.url }, capMb);
  let exit: string | undefined;
  gw.proc.once('exit', (code, signal) => (exit = String(code ?? signal)));
  try {
    const bytes = await readAll(await open(gw.url)).catch(() => -1);
    await sleep(200);
    return { capMb, ok: bytes > answerBytes && exit === undefined, bytes, ...(exit !== undefined ? { exit } : {}) };
  } finally {
    await gw.close();
    await up.close();
  }
}

async function arm(label: string, root: string | undefined, o: { answerBytes: number; warmBytes: number; held: number; heldAnswerBytes: number; quietMs: number; capMb: number }, log: (l: string) => void): Promise<ArmResult> {
  const up = await new StreamingUpstream(o.warmBytes).start();
  const gw = await GatewayChild.start({ root, upstreamURL: up.url });
  try {
    // Warm up: the young generation grows to its working size on the first long stream; measured after.
    const warmBytes = await readAll(await open(gw.url));
    const base = await gw.mem();
    await gw.resetPeak();

    log(`stream-memory (${label}): one reading client, a ${num(o.answerBytes / MiB)} MiB answer`);
    up.answerWith(o.answerBytes);
    const t0 = Date.now();
    const bytes = await readAll(await open(gw.url));
    const relayMs = Date.now() - t0;
    const after = await gw.mem();

    log(`stream-memory (${label}): ${o.held} streams held open, not read`);
    up.answerWith(o.heldAnswerBytes);
    const before = up.written.length;
    const responses = await Promise.all(Array.from({ length: o.held }, () => open(gw.url)));
    for (const res of responses) res.pause();
    const stallMs = await stalled(up, o.quietMs, 120_000);
    const mem = await gw.mem();
    const heldWritten = up.written.slice(before);
    const upstreamPerStream = heldWritten.reduce((a, b) => a + b, 0) / Math.max(1, heldWritten.length);
    const abortedBefore = up.aborted;
    for (const res of responses) res.destroy();
    // Each client that left must cost the gateway its upstream request too: wait for them (10 s at most).
    const closedAt = Date.now();
    while (up.aborted - abortedBefore < o.held && Date.now() - closedAt < 10_000) await sleep(50);
    const abortMs = Date.now() - closedAt;
    const partial = {
      label, base, warmBytes,
      relay: { bytes, ms: relayMs, peakRss: after.peakRss, after },
      held: { n: o.held, mem, upstreamPerStream, stallMs, abortedAfterClose: up.aborted - abortedBefore, abortMs },
    };
    await gw.close();
    await up.close();
    log(`stream-memory (${label}): the ${num(o.answerBytes / MiB)} MiB answer again, heap capped at ${o.capMb} MB`);
    return { ...partial, capped: await cappedRelay(root, o.answerBytes, o.capMb) };
  } finally {
    await gw.close();
    await up.close().catch(() => {});
  }
}

export const streamMemory: BenchScenario = {
  name: 'stream-memory',
  title: '8. Stream memory: a 100 MiB answer through the gateway, and 100 streams held by clients that stopped reading',
  async run(ctx: BenchContext): Promise<ScenarioReport> {
    const q = ctx.quick;
    const o = { answerBytes: (q ? 4 : 100) * MiB, warmBytes: (q ? 1 : 16) * MiB, held: q ? 10 : 100, heldAnswerBytes: (q ? 4 : 32) * MiB, quietMs: q ? 300 : 1_500, capMb: 80 };
    const { now, before } = ctx.sources;
    const arms: Array<[string, string | undefined]> = [[now.ref ? `now: ${now.label}` : 'now', now.root]];
    if (before) arms.unshift([`before: ${before.label}`, before.root]);
    const results: ArmResult[] = [];
    for (const [label, root] of arms) results.push(await arm(label, root, o, ctx.log));

    const rise = (r: ArmResult) => r.relay.peakRss - r.base.rss;
    const perHeld = (r: ArmResult, k: 'rss' | 'heapUsed' | 'external') => (r.held.mem[k] - r.base[k]) / r.held.n;
    const mb = (b: number) => `${num(b / MiB, 1)} MB`;
    const col = (f: (r: ArmResult) => string) => results.map(f);
    const rows = [
      ['answer relayed (bytes read by the client)', ...col((r) => mb(r.relay.bytes))],
      ['relay time (throughput)', ...col((r) => `${num(r.relay.ms / 1000, 1)} s (${num(r.relay.bytes / MiB / (r.relay.ms / 1000), 1)} MiB/s)`)],
      ['gateway RSS at rest (after a warm-up stream)', ...col((r) => mb(r.base.rss))],
      ['peak RSS rise while relaying', ...col((r) => mb(rise(r)))],
      ['heap after the relay, over rest', ...col((r) => mb(r.relay.after.heapUsed - r.base.heapUsed))],
      [`RSS per held stream (${o.held} held)`, ...col((r) => kib(perHeld(r, 'rss')))],
      ['heap per held stream', ...col((r) => kib(perHeld(r, 'heapUsed')))],
      ['external + array buffers per held stream', ...col((r) => kib(perHeld(r, 'external')))],
      ['content the upstream wrote per held stream before it stalled', ...col((r) => kib(r.held.upstreamPerStream))],
      ['upstream requests aborted once the held clients closed (within)', ...col((r) => `${r.held.abortedAfterClose} of ${r.held.n} (${num(r.held.abortMs / 1000, 1)} s)`)],
      [`the same answer with --max-old-space-size=${o.capMb}`, ...col((r) => (r.capped.ok ? `relayed whole (${mb(r.capped.bytes)})` : `failed${r.capped.exit ? ` (exit ${r.capped.exit})` : ''}`))],
    ];
    const last = results[results.length - 1]!;
    const targets: TargetCheck[] = [
      check(`RSS rise relaying a ${num(o.answerBytes / MiB)} MiB stream`, '≤ 20 MB', mb(rise(last)), rise(last) <= 20 * MiB, `${mb(rise(last) - 20 * MiB)} over`),
      check('RSS per held non-reading stream', '≤ 1 MB', kib(perHeld(last, 'rss')), perHeld(last, 'rss') <= MiB, `${kib(perHeld(last, 'rss') - MiB)} over`),
      check(`a ${num(o.answerBytes / MiB)} MiB stream through a gateway capped at ${o.capMb} MB of heap`, 'relayed whole', last.capped.ok ? 'relayed whole' : `failed (exit ${last.capped.exit ?? '?'})`, last.capped.ok),
      check('upstream stops when the client stops reading (per held stream)', `< ${num(o.heldAnswerBytes / MiB)} MiB written`, kib(last.held.upstreamPerStream), last.held.upstreamPerStream < o.heldAnswerBytes / 2),
    ];
    return {
      name: 'stream-memory', title: this.title,
      method: [
        `Upstream: plain node:http in the bench process, an OpenAI Chat Completions stream of ${DELTA_CHARS}-character deltas, each written only once the socket drained (it stalls when nobody reads). Gateway: createRouter + createGateway in a child process (--expose-gc); RSS sampled every 10 ms there, heap read after gc(). Clients: raw node:http in the bench process.`,
        `Each arm: a fresh gateway, one ${num(o.warmBytes / MiB)} MiB warm-up stream (the young generation grows to its working size), gc(), the resting reading; then one client reads a ${num(o.answerBytes / MiB)} MiB answer and discards it (peak RSS over rest); then ${o.held} clients open streams, read the headers and stop reading, the bench waits until the upstream has written nothing for ${o.quietMs / 1000} s, and reads memory again (per held stream = (held − rest) ÷ ${o.held}). RSS does not count kernel socket buffers.`,
      ],
      tables: [{ title: 'Streams through the gateway', columns: ['metric', ...results.map((r) => r.label)], rows }],
      targets,
      notes: [],
      data: { options: o, results },
    };
  },
};
