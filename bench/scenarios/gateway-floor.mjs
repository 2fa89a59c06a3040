// The floor of the gateway bench: the least a Node.js proxy can do, with no router, no decision, no
// parse. node:http in, node:http out on a keep-alive agent: the client's body forwarded as it came,
// the upstream's status, content type and body relayed as they came. What it adds at c=1 over the
// bare upstream is what Node and this machine's wake-ups between processes cost any Node gateway.
// Usage: node gateway-floor.mjs UPSTREAM_BASE_URL (prints "listening on http://127.0.0.1:PORT").
import { Agent, createServer, request } from 'node:http';

const upstream = new URL(process.argv[2]);
const agent = new Agent({ keepAlive: true, maxSockets: 1024 });
const prefix = upstream.pathname.replace(/\/$/, '');

const server = createServer((req, res) => {
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => {
    const body = chunks.length === 1 ? chunks[0] : Buffer.concat(chunks);
    const path = `${prefix}${req.url.replace(/^\/v1/, '')}`;
    const headers = { 'content-type': req.headers['content-type'] ?? 'application/json', 'content-length': body.length };
    if (req.headers.authorization) headers.authorization = req.headers.authorization;
    const up = request({ hostname: upstream.hostname, port: upstream.port, path, method: req.method, headers, agent }, (ur) => {
      const out = [];
      ur.on('data', (c) => out.push(c));
      ur.on('end', () => {
        const b = out.length === 1 ? out[0] : Buffer.concat(out);
        res.writeHead(ur.statusCode ?? 502, { 'content-type': ur.headers['content-type'] ?? 'application/json', 'content-length': b.length });
        res.end(b);
      });
    });
    up.on('error', () => {
      if (!res.headersSent) res.writeHead(502, { 'content-type': 'application/json' });
      res.end('{"error":{"message":"upstream failed"}}');
    });
    up.end(body);
  });
});
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => console.log(`listening on http://127.0.0.1:${server.address().port}`));
process.on('SIGTERM', () => {
  server.close(() => process.exit(0));
  server.closeAllConnections(); // keep-alive clients would hold close() open
});
