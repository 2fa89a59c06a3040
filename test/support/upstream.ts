import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/** One scripted answer of the loopback upstream. */
export type Reply =
  /** `heldUntil`: the answer waits for this promise (a gate the test opens), instead of a real delay. */
  | { status: number; headers?: Record<string, string>; body?: unknown; delayMs?: number; heldUntil?: Promise<unknown> }
  /** Server-sent events, written as given (each string is one `data:`/`event:` block without the blank line). */
  | { status?: number; headers?: Record<string, string>; sse: string[]; cutAfter?: number; delayMs?: number; end?: boolean }
  /** Binary frames (Bedrock's event stream), each written and flushed in turn; `cutAfter` drops the socket after that many. */
  | { status?: number; headers?: Record<string, string>; frames: Uint8Array[]; cutAfter?: number }
  /** Destroys the socket without answering (ECONNRESET / socket hang up at the client). */
  | { reset: true }
  /** Accepts and never answers until the client gives up. */
  | { hang: true };

export interface SeenRequest {
  method: string;
  path: string;
  /** The query string, without its `?` ('' when none; absent in requests a test builds by hand). */
  query?: string;
  headers: IncomingMessage['headers'];
  body: any;
  /** The body's bytes as they came (UTF-8). */
  text?: string;
  at: number;
}

type Handler = (req: SeenRequest, n: number) => Reply | undefined;

/**
 * A loopback HTTP server that answers like the provider APIs do: scripted replies per path, consumed
 * in order, then a default. It records every request so tests can count exactly what went upstream.
 */
export class Upstream {
  readonly requests: SeenRequest[] = [];
  /** Responses whose connection the client closed before the server finished writing them. */
  abandoned = 0;
  /** Requests being answered right now, and the most there ever were at once. */
  inFlight = 0;
  maxInFlight = 0;
  private readonly scripts = new Map<string, Reply[]>();
  private readonly defaults = new Map<string, Handler>();
  private readonly sockets = new Set<Socket>();
  private server!: Server;
  url = '';

  async start(): Promise<this> {
    this.server = createServer((req, res) => void this.handle(req, res));
    this.server.on('connection', (socket) => {
      socket.setNoDelay(true);
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
    });
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  /** Queues replies for a path (e.g. `/v1/chat/completions`), consumed one per request. */
  script(path: string, ...replies: Reply[]): this {
    this.scripts.set(path, [...(this.scripts.get(path) ?? []), ...replies]);
    return this;
  }

  /** The reply when a path's script is empty. */
  otherwise(path: string, handler: Handler): this {
    this.defaults.set(path, handler);
    return this;
  }

  /** Requests seen, optionally for one path only. */
  count(path?: string): number {
    return path ? this.requests.filter((r) => r.path === path).length : this.requests.length;
  }

  reset(): void {
    this.requests.length = 0;
    this.scripts.clear();
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks).toString('utf8');
    let body: unknown = raw;
    try {
      body = raw ? JSON.parse(raw) : undefined;
    } catch {}
    const [path, query = ''] = (req.url ?? '/').split('?') as [string, string?];
    const seen: SeenRequest = { method: req.method ?? 'GET', path, query, headers: req.headers, body, text: raw, at: Date.now() };
    const n = this.requests.push(seen);
    this.maxInFlight = Math.max(this.maxInFlight, ++this.inFlight);
    res.on('close', () => {
      this.inFlight--;
      if (!res.writableFinished) this.abandoned++;
    });
    const reply = this.scripts.get(path)?.shift() ?? this.defaults.get(path)?.(seen, n) ?? { status: 404, body: { error: { message: `no reply scripted for ${path}` } } };
    await this.reply(req, res, reply);
  }

  private async reply(req: IncomingMessage, res: ServerResponse, reply: Reply): Promise<void> {
    if ('reset' in reply) {
      req.socket.destroy();
      return;
    }
    if ('hang' in reply) return;
    if ('frames' in reply) {
      res.writeHead(reply.status ?? 200, { 'content-type': 'application/vnd.amazon.eventstream', ...reply.headers });
      for (let i = 0; i < reply.frames.length && !res.destroyed; i++) {
        if (reply.cutAfter !== undefined && i >= reply.cutAfter) {
          req.socket.destroy();
          return;
        }
        await new Promise<void>((resolve) => res.write(reply.frames[i]!, () => resolve()));
      }
      res.end();
      return;
    }
    if ('sse' in reply) {
      res.writeHead(reply.status ?? 200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', ...reply.headers });
      for (let i = 0; i < reply.sse.length && !res.destroyed; i++) {
        if (reply.cutAfter !== undefined && i >= reply.cutAfter) {
          req.socket.destroy();
          return;
        }
        // Flush each event before the next step, so a cut really comes after what was written.
        await new Promise<void>((resolve) => res.write(`${reply.sse[i]}\n\n`, () => resolve()));
        if (reply.delayMs) await new Promise((r) => setTimeout(r, reply.delayMs));
      }
      if (reply.end === false) return;
      res.end();
      return;
    }
    if (reply.delayMs) await new Promise((r) => setTimeout(r, reply.delayMs));
    if (reply.heldUntil) await reply.heldUntil;
    const payload = reply.body === undefined ? '' : typeof reply.body === 'string' ? reply.body : JSON.stringify(reply.body);
    res.writeHead(reply.status, { 'content-type': 'application/json', ...reply.headers });
    res.end(payload);
  }
}

/** Starts a loopback upstream; close it in `afterEach`/`afterAll`. */
export async function startUpstream(): Promise<Upstream> {
  return new Upstream().start();
}
