import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ChildProcess } from 'node:child_process';
import { exited, nextMessage, spawnNode } from './node-child.js';

/**
 * The least an OpenAI-compatible upstream can be: a plain node:http server that reads the request
 * body and answers every request at once with the same chat completion. No simulator: no parsing,
 * no limiter, no request ids and, unless asked, no rate-limit headers.
 */

/** Which headers the plain upstream adds to content-type and content-length. */
export type PlainHeaders = 'none' | 'openai';

const COMPLETION = JSON.stringify({
  id: 'chatcmpl-plain-0001', object: 'chat.completion', created: 1_764_000_000, model: 'gpt-4o-mini',
  choices: [{ index: 0, message: { role: 'assistant', content: 'Hello! Have a nice day.', refusal: null }, logprobs: null, finish_reason: 'stop' }],
  usage: { prompt_tokens: 19, completion_tokens: 7, total_tokens: 26 },
  system_fingerprint: 'fp_plain',
});

/** What the simulator sends next to a success (UNLIMITED_SIM limits): the headers the router reads and the SDK does not. */
const OPENAI_HEADERS: Record<string, string> = {
  'x-request-id': 'req_0123456789abcdef0123456789abcdef',
  'openai-processing-ms': '1',
  'x-ratelimit-limit-requests': '1000000000',
  'x-ratelimit-limit-tokens': '1000000000000',
  'x-ratelimit-remaining-requests': '999999999',
  'x-ratelimit-remaining-tokens': '999999999912',
  'x-ratelimit-reset-requests': '0s',
  'x-ratelimit-reset-tokens': '0s',
};

export interface PlainUpstream {
  url: string;
  /** The base URL an OpenAI client takes. */
  baseURL: string;
  close(): Promise<void>;
}

/** Starts the plain upstream in this process on 127.0.0.1 (port 0: any free one). */
export function startPlainUpstream(options: { headers?: PlainHeaders; port?: number } = {}): Promise<PlainUpstream & { server: Server }> {
  const body = Buffer.from(COMPLETION);
  const headers: Record<string, string | number> = {
    'content-type': 'application/json', 'content-length': body.length,
    ...(options.headers === 'openai' ? OPENAI_HEADERS : {}),
  };
  const server = createServer((req, res) => {
    req.on('data', () => {});
    req.on('end', () => {
      res.writeHead(200, headers);
      res.end(body);
    });
  });
  server.keepAliveTimeout = 60_000;
  server.on('connection', (socket) => socket.setNoDelay(true));
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      const url = `http://127.0.0.1:${port}`;
      resolve({
        url, baseURL: `${url}/v1`, server,
        close: () => new Promise<void>((r) => {
          server.closeAllConnections();
          server.close(() => r());
        }),
      });
    });
  });
}

/** Where the plain upstream runs: in the client's process and event loop, or in a child of its own (on `core`). */
export type Placement = 'in-process' | 'separate process';

/** The plain upstream in a child process (lib/plain-upstream-entry.ts), on core 0 by default when pinning is on. */
export async function launchPlainUpstream(options: { headers?: PlainHeaders; core?: string } = {}): Promise<PlainUpstream> {
  const child: ChildProcess = spawnNode(new URL('./plain-upstream-entry.ts', import.meta.url), { role: 'sim', core: options.core });
  await nextMessage(child, (m) => m.type === 'booted', 30_000);
  child.send({ type: 'start', headers: options.headers ?? 'none' });
  const { url } = await nextMessage<{ url: string }>(child, (m) => m.type === 'ready');
  return {
    url, baseURL: `${url}/v1`,
    async close() {
      if (child.connected) child.send({ type: 'exit' });
      await exited(child);
    },
  };
}

/** In-process or in a child, as asked. */
export function plainUpstream(placement: Placement, options: { headers?: PlainHeaders; core?: string } = {}): Promise<PlainUpstream> {
  return placement === 'in-process' ? startPlainUpstream(options) : launchPlainUpstream(options);
}
