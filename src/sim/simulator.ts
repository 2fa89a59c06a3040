import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { anthropicWire } from './anthropic-wire.js';
import { geminiRoute } from './gemini-route.js';
import { geminiWire } from './gemini-wire.js';
import { bedrockWire } from './bedrock-wire.js';
import { openAIWire } from './openai-wire.js';
import { openAIResponsesWire } from './openai-responses-wire.js';
import { DEFAULT_PROVIDERS, type SimulatorOptions } from './options.js';
import { ProviderSim } from './provider-sim.js';
import { sendJson } from './responder.js';
import { ResponseScope } from './response-scope.js';
import { parseScenario } from './scenario.js';
import { StatsBook, type SimulatorStats } from './stats.js';
import type { Wire } from './wire.js';

/** A running simulator. */
export interface Simulator {
  /** `http://127.0.0.1:PORT`. */
  readonly url: string;
  readonly port: number;
  /** Provider names, in scenario order. */
  readonly providers: readonly string[];
  /** What to pass an SDK as `baseURL` for one provider (`.../openai/v1`, `.../anthropic`, `.../gemini/v1beta`). */
  baseURL(provider: string): string;
  /** A copy of the live counters. */
  stats(): SimulatorStats;
  /** Stops listening and drops every connection, hanging ones included. */
  stop(): Promise<void>;
}

// Bigger than any chat request; Anthropic's own cap on Messages is 32 MB.
const MAX_BODY_BYTES = 32 * 1024 * 1024;
const ROUTE = /^\/(?:([^/]+)\/)?v1\/(chat\/completions|responses|messages|embeddings)$/;
/** Bedrock's runtime paths: the model id (URL-encoded: ARNs hold `:` and `/`) and the operation. */
const BEDROCK_ROUTE = /^\/(?:([^/]+)\/)?model\/([^/]+)\/(converse|converse-stream|invoke)$/;

async function readBody(req: IncomingMessage): Promise<string | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size <= MAX_BODY_BYTES) chunks.push(chunk as Buffer);
  }
  return size > MAX_BODY_BYTES ? undefined : Buffer.concat(chunks).toString('utf8');
}

/**
 * Starts a provider simulator on loopback: OpenAI Chat Completions at `/{provider}/v1/chat/completions`
 * and Embeddings at `/{provider}/v1/embeddings`, Anthropic Messages at `/{provider}/v1/messages`, the
 * Gemini API at `/{provider}/v1beta/models/{model}:{method}` (plus `/v1/...` and `/v1beta/...` for the
 * first provider of each type), with real headers, rate limits and seeded fault injection.
 * `GET /_sim/stats` returns the counters.
 * @example
 * const sim = await startSimulator({ providers: { openai: { type: 'openai', limits: { rpm: 60 } } } });
 * const client = new OpenAI({ apiKey: 'sk-test', baseURL: sim.baseURL('openai'), maxRetries: 0 });
 * await sim.stop();
 */
export async function startSimulator(options: SimulatorOptions = {}): Promise<Simulator> {
  const { port = 0, host = '127.0.0.1', onRequest } = options;
  const now = options.clock ? () => options.clock!.now() : Date.now;
  const scenario = parseScenario({ description: options.description, seed: options.seed, providers: options.providers }, 'simulator options');
  const seed = scenario.seed ?? 1;
  const startedAtMs = now();
  const book = new StatsBook(startedAtMs, now);
  const sims = new Map<string, ProviderSim>();
  for (const [name, provider] of Object.entries(scenario.providers ?? DEFAULT_PROVIDERS)) {
    sims.set(name, new ProviderSim({ name, options: provider, seed, now, sleep: options.sleep, startedAtMs, stats: book.add(name, provider.type), onRequest }));
  }
  const firstOf = (type: Wire['type']) => [...sims.values()].find((s) => s.type === type);
  const sockets = new Set<Socket>();
  let url = '';

  const describe = () => Object.fromEntries([...sims].map(([name, s]) => [name, { type: s.type, baseURL: baseURL(name) }]));
  function baseURL(name: string): string {
    const sim = sims.get(name);
    if (!sim) throw new Error(`the simulator has no provider "${name}" (it has: ${[...sims.keys()].join(', ')})`);
    return sim.type === 'openai' ? `${url}/${name}/v1` : sim.type === 'gemini' ? `${url}/${name}/v1beta` : `${url}/${name}`;
  }

  async function route(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const arrivedAtMs = now();
    const path = (req.url ?? '/').split('?')[0]!;
    const method = req.method ?? 'GET';
    // Answers of the simulator itself; a provider's answers get their own scope in `handle`.
    const reply = (status: number, headers: Record<string, string>, body: unknown) => sendJson(new ResponseScope(res), status, headers, body);
    if (method === 'GET' && path === '/_sim/stats') return reply(200, {}, book.snapshot());
    if (method === 'GET' && path === '/') return reply(200, {}, { simulator: 'switchyard', description: scenario.description, providers: describe() });
    const gemini = geminiRoute(path, req.url ?? '/');
    if (gemini) {
      const sim = gemini.provider ? sims.get(gemini.provider) : firstOf('gemini');
      const raw = await readBody(req);
      const ctx = { requestId: '', org: 'unknown', nowMs: arrivedAtMs, retryAfter: false };
      const refuse = (err: Parameters<typeof geminiWire.error>[0]) => {
        const rendered = geminiWire.error(err, ctx);
        return reply(rendered.status, rendered.headers, rendered.body);
      };
      if (!sim || sim.type !== 'gemini' || method !== 'POST') return refuse({ kind: 'invalid_url', method, path });
      if (raw === undefined) return refuse({ kind: 'too_large' });
      if (gemini.method === 'batchEmbedContents') return sim.handleEmbeddings(req, res, raw, arrivedAtMs, { model: gemini.model, stream: false });
      if (gemini.method === 'streamGenerateContent' && !gemini.sse) return refuse({ kind: 'invalid_request', message: 'The simulator streams with alt=sse only (the JSON-array form of streamGenerateContent is not simulated).' });
      return sim.handle(req, res, raw, arrivedAtMs, sim.wire, { model: gemini.model, stream: gemini.method === 'streamGenerateContent' });
    }
    const bedrock = BEDROCK_ROUTE.exec(path);
    if (bedrock) return routeBedrock(req, res, bedrock, arrivedAtMs);
    const match = ROUTE.exec(path);
    const embeddings = match?.[2] === 'embeddings';
    const wire = match?.[2] === 'messages' ? anthropicWire : match?.[2] === 'responses' ? openAIResponsesWire : openAIWire;
    const sim = match && (match[1] ? sims.get(match[1]) : firstOf(wire.type));
    const raw = await readBody(req);
    const ctx = { requestId: 'req_invalid', org: 'unknown', nowMs: arrivedAtMs, retryAfter: false };
    // Anthropic has no embeddings API: its providers answer /v1/embeddings with their own 404.
    if (embeddings && sim?.type === 'anthropic') {
      const err = anthropicWire.error({ kind: 'invalid_url', method, path }, ctx);
      return reply(err.status, err.headers, err.body);
    }
    if (!sim || sim.type !== wire.type || method !== 'POST') {
      const err = wire.error({ kind: 'invalid_url', method, path }, ctx);
      return reply(err.status, err.headers, err.body);
    }
    if (raw === undefined) {
      const err = wire.error({ kind: 'too_large' }, ctx);
      return reply(err.status, err.headers, err.body);
    }
    return embeddings ? sim.handleEmbeddings(req, res, raw, arrivedAtMs) : sim.handle(req, res, raw, arrivedAtMs, wire);
  }

  async function routeBedrock(req: IncomingMessage, res: ServerResponse, match: RegExpExecArray, arrivedAtMs: number): Promise<void> {
    const sim = match[1] ? sims.get(match[1]) : firstOf('bedrock');
    const raw = await readBody(req);
    const ctx = { requestId: 'invalid', org: 'unknown', nowMs: arrivedAtMs, retryAfter: false };
    const reply = (e: { status: number; headers: Record<string, string>; body: unknown }) => sendJson(new ResponseScope(res), e.status, e.headers, e.body);
    const method = req.method ?? 'GET';
    if (!sim || sim.type !== 'bedrock' || method !== 'POST') return reply(bedrockWire.error({ kind: 'invalid_url', method, path: match[0] }, ctx));
    if (raw === undefined) return reply(bedrockWire.error({ kind: 'too_large' }, ctx));
    let model: string;
    try {
      model = decodeURIComponent(match[2]!);
    } catch {
      return reply(bedrockWire.error({ kind: 'model_not_found', model: match[2]! }, ctx));
    }
    const operation = match[3]!;
    if (operation === 'invoke') return sim.handleEmbeddings(req, res, raw, arrivedAtMs, { model, stream: false });
    return sim.handle(req, res, raw, arrivedAtMs, undefined, { model, stream: operation === 'converse-stream' });
  }

  const server = createServer({ requestTimeout: 0, keepAlive: true, noDelay: true }, (req, res) => {
    route(req, res).catch((err: unknown) => {
      // A bug here must not take the simulator down with it: answer 500 and carry on.
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' });
      res.end(`simulator error: ${(err as Error)?.message ?? String(err)}`);
    });
  });
  server.on('connection', (socket: Socket) => {
    socket.setNoDelay(true);
    sockets.add(socket);
    book.connectionsOpen++;
    book.connectionsTotal++;
    socket.once('close', () => {
      sockets.delete(socket);
      book.connectionsOpen--;
    });
  });
  // A client that resets mid-request must not surface as an unhandled error.
  server.on('clientError', (_err, socket) => socket.destroy());

  await new Promise<void>((resolve, reject) => {
    const onError = (err: NodeJS.ErrnoException) => {
      reject(new Error(err.code === 'EADDRINUSE' ? `port ${port} on ${host} is already in use` : `cannot listen on ${host}:${port}: ${err.message}`));
    };
    server.once('error', onError);
    server.listen({ port, host, backlog: 4096 }, () => {
      server.off('error', onError);
      resolve();
    });
  });
  const actualPort = (server.address() as AddressInfo).port;
  url = `http://${host.includes(':') ? `[${host}]` : host}:${actualPort}`;
  let stopping: Promise<void> | undefined;

  return {
    url,
    port: actualPort,
    providers: [...sims.keys()],
    baseURL,
    stats: () => book.snapshot(),
    stop() {
      stopping ??= (async () => {
        const closed = new Promise<void>((resolve) => server.close(() => resolve()));
        const gone = [...sockets].map((socket) => new Promise<void>((resolve) => {
          socket.once('close', () => resolve());
          socket.destroy();
        }));
        server.closeAllConnections();
        await Promise.all([closed, ...gone]);
      })();
      return stopping;
    },
  };
}
