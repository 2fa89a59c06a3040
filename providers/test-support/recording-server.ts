import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordedRequest {
  method: string;
  /** The full request target, query string included. */
  url: string;
  headers: IncomingHttpHeaders;
  body: any;
}

/**
 * A loopback server that records every request with its full URL (query included) and answers with
 * JSON from `reply`: for checking the exact URL an SDK client builds (Azure deployments, api-version).
 */
export async function recordingServer(reply: (req: RecordedRequest) => { status?: number; body: unknown; headers?: Record<string, string> }): Promise<{
  url: string; requests: RecordedRequest[]; close(): Promise<void>;
}> {
  const requests: RecordedRequest[] = [];
  const server: Server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks).toString('utf8');
    const seen: RecordedRequest = { method: req.method ?? 'GET', url: req.url ?? '/', headers: req.headers, body: raw ? JSON.parse(raw) : undefined };
    requests.push(seen);
    const answer = reply(seen);
    res.writeHead(answer.status ?? 200, { 'content-type': 'application/json', ...answer.headers });
    res.end(JSON.stringify(answer.body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}
