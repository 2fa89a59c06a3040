import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request the proxy passed on: its path, its body as sent (text and parsed), and the upstream's answer as it came. */
export interface ProxiedExchange {
  path: string;
  raw: string;
  body: any;
  status: number;
  /** The answer's body text (for a stream: the whole stream). */
  answer: string;
}

/**
 * A loopback proxy in front of the simulator that keeps every exchange, so a test can see the exact
 * bytes an upstream received and what it answered; requests and answers pass through unchanged.
 */
export async function recordingProxy(upstream: string): Promise<{ url: string; exchanges: ProxiedExchange[]; close(): Promise<void> }> {
  const exchanges: ProxiedExchange[] = [];
  const server: Server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks).toString('utf8');
    const url = new URL(req.url ?? '/', upstream);
    const up = httpRequest(url, { method: req.method, headers: Object.assign({}, req.headers, { host: url.host }) }, async (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      const parts: Buffer[] = [];
      for await (const chunk of answer) {
        parts.push(chunk as Buffer);
        res.write(chunk);
      }
      res.end();
      exchanges.push({ path: req.url ?? '/', raw, body: raw ? JSON.parse(raw) : undefined, status: answer.statusCode ?? 0, answer: Buffer.concat(parts).toString('utf8') });
    });
    up.end(raw);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    exchanges,
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}
