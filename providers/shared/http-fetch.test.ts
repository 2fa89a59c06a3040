import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { gzipSync } from 'node:zlib';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { httpFetch, type HttpFetch } from './http-fetch.js';

let server: Server;
let url = '';
const sockets = new Set<Socket>();
let seen: Array<{ headers: Record<string, unknown>; body: string }> = [];
let transport: HttpFetch;

beforeEach(async () => {
  seen = [];
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      seen.push({ headers: req.headers, body });
      if (req.url === '/gzip') {
        res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
        res.end(gzipSync(JSON.stringify({ ok: true })));
      } else if (req.url === '/sse') {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.write('data: one\n\n');
        setImmediate(() => res.end('data: two\n\n'));
      } else if (req.url === '/hang') {
        // never answers
      } else {
        res.writeHead(201, { 'content-type': 'application/json', 'x-request-id': 'req_7', 'set-cookie': ['a=1', 'b=2'] });
        res.end(JSON.stringify({ echo: body }));
      }
    });
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  transport = httpFetch();
});
afterEach(async () => {
  transport.close();
  for (const s of sockets) s.destroy();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

describe('httpFetch, the SDKs\' transport on node:http', () => {
  it('sends the method, headers and body with a content-length, and answers a Response with status and headers', async () => {
    const res = await transport.fetch(`${url}/x?y=1`, { method: 'POST', headers: { 'Content-Type': 'application/json', authorization: 'Bearer k' }, body: '{"a":"é"}' });
    expect(res.status).toBe(201);
    expect(res.headers.get('x-request-id')).toBe('req_7');
    expect(await res.json()).toEqual({ echo: '{"a":"é"}' });
    expect(seen[0]!.headers).toMatchObject({ 'content-type': 'application/json', authorization: 'Bearer k', 'content-length': String(Buffer.byteLength('{"a":"é"}')) });
  });

  it('decodes a gzip body', async () => {
    const res = await transport.fetch(`${url}/gzip`);
    expect(res.headers.get('content-encoding')).toBeNull();
    expect(await res.json()).toEqual({ ok: true });
  });

  it('hands an event stream over as it arrives', async () => {
    const res = await transport.fetch(`${url}/sse`);
    expect(await res.text()).toBe('data: one\n\ndata: two\n\n');
  });

  it('rejects with an AbortError when the signal aborts, and closes the request', async () => {
    const controller = new AbortController();
    const pending = transport.fetch(`${url}/hang`, { signal: controller.signal });
    await new Promise<void>((resolve) => server.once('request', () => resolve()));
    controller.abort();
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
  });

  it('rejects a refused connection with its code', async () => {
    const port = (server.address() as AddressInfo).port;
    transport.close();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    for (const s of sockets) s.destroy();
    const err = await httpFetch().fetch(`http://127.0.0.1:${port}/x`).catch((e: unknown) => e);
    expect((err as { code?: string }).code).toBe('ECONNREFUSED');
    server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  });

  it('keeps a connection alive between requests, and close() leaves none open', async () => {
    await (await transport.fetch(`${url}/x`)).text();
    await (await transport.fetch(`${url}/x`)).text();
    expect(sockets.size).toBe(1);
    transport.close();
    await new Promise<void>((resolve) => {
      const check = () => (sockets.size === 0 ? resolve() : setImmediate(check));
      check();
    });
    expect(sockets.size).toBe(0);
  });
});

describe('httpFetch.post, the pass-through path\'s plain request on the same agents', () => {
  const errors = { aborted: () => new Error('aborted by the caller'), timedOut: () => new Error('timed out') };
  const sent = (body: string) => ({ 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });

  it('sends the headers and body, calls onSend once before the bytes go, and answers status, headers (repeats joined) and text', async () => {
    const order: string[] = [];
    server.prependListener('request', () => order.push('request reached the server'));
    const body = '{"a":"é"}';
    const answer = await transport.post(new URL(`${url}/x?y=1`), { ...sent(body), authorization: 'Bearer k' }, body, { ...errors, sending: { onSend: () => { order.push('onSend'); } } });
    expect(order).toEqual(['onSend', 'request reached the server']);
    expect(answer.status).toBe(201);
    expect(answer.headers.get('X-Request-Id')).toBe('req_7');
    expect(answer.headers.get('set-cookie')).toBe('a=1, b=2');
    expect(answer.headers.get('x-absent')).toBeNull();
    expect(answer.webHeaders().get('x-request-id')).toBe('req_7');
    expect(JSON.parse(answer.text)).toEqual({ echo: body });
    expect(seen[0]!.headers).toMatchObject({ authorization: 'Bearer k', 'content-length': String(Buffer.byteLength(body)) });
  });

  it('decodes a gzip body, and its headers then name no encoding or length', async () => {
    const answer = await transport.post(new URL(`${url}/gzip`), sent(''), '', errors);
    expect(JSON.parse(answer.text)).toEqual({ ok: true });
    expect(answer.headers.get('content-encoding')).toBeNull();
    expect(answer.webHeaders().get('content-encoding')).toBeNull();
  });

  it('rejects with the caller\'s abort error when the signal aborts, and closes the request', async () => {
    const controller = new AbortController();
    const pending = transport.post(new URL(`${url}/hang`), sent(''), '', { ...errors, signal: controller.signal });
    await new Promise<void>((resolve) => server.once('request', () => resolve()));
    controller.abort();
    await expect(pending).rejects.toThrow('aborted by the caller');
    await new Promise<void>((resolve) => {
      const check = () => (sockets.size === 0 ? resolve() : setImmediate(check));
      check();
    });
    expect(sockets.size).toBe(0);
  });

  it('rejects an already aborted signal without sending anything', async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(transport.post(new URL(`${url}/x`), sent(''), '', { ...errors, signal: controller.signal })).rejects.toThrow('aborted by the caller');
    expect(seen).toHaveLength(0);
  });

  it('rejects with the timeout error when no answer comes within timeoutMs, and closes the request', async () => {
    const pending = transport.post(new URL(`${url}/hang`), sent(''), '', { ...errors, timeoutMs: 5 });
    await expect(pending).rejects.toThrow('timed out');
    expect(seen).toHaveLength(1);
    await new Promise<void>((resolve) => {
      const check = () => (sockets.size === 0 ? resolve() : setImmediate(check));
      check();
    });
    expect(sockets.size).toBe(0);
  });

  it('shares fetch\'s keep-alive agent: one connection for a fetch and a post', async () => {
    await (await transport.fetch(`${url}/x`)).text();
    await transport.post(new URL(`${url}/x`), sent(''), '', errors);
    expect(sockets.size).toBe(1);
  });
});
