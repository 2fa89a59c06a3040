import OpenAI, { APIError } from 'openai';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ANTHROPIC_PATH, OPENAI_PATH } from '../support/fixtures.js';
import { redisPerFile } from '../support/redis-per-file.js';
import { startRedisServer } from '../support/redis-server.js';
import { startUpstream, type Upstream } from '../support/upstream.js';
import { startHarness, type Harness } from './gateway-harness.js';
import { configFile, startServe, type ServeChild } from './serve-child.js';

const redis = redisPerFile();
let up: Upstream;
let children: ServeChild[] = [];
let cleanups: Array<() => void> = [];
beforeEach(async () => {
  up = await startUpstream();
});
afterEach(async () => {
  for (const c of children) {
    if (c.child.exitCode === null && c.child.signalCode === null) c.child.kill('SIGTERM');
    await c.exited;
  }
  children = [];
  for (const c of cleanups) c();
  cleanups = [];
  await up.close();
});

describe('gateways sharing one Redis', () => {
  it('stay under one RPM budget together: two processes, rpm 5, twenty calls', async () => {
    const { openaiOk, anthropicOk } = await import('../support/fixtures.js');
    up.otherwise(OPENAI_PATH, () => openaiOk());
    up.otherwise(ANTHROPIC_PATH, () => anthropicOk());
    const file = configFile({
      providers: {
        primary: { type: 'openai', apiKey: 'sk-proj-fleet-test-0123456789', baseURL: `${up.url}/v1`, limits: { rpm: 5, maxQueueMs: 0 } },
        backup: { type: 'anthropic', apiKey: 'sk-ant-fleet-test-0123456789', baseURL: up.url },
      },
      chains: { default: ['primary:gpt-4o-mini', 'backup:claude-sonnet-4-6'] },
      store: { type: 'redis', url: redis.url, keyPrefix: `gw-fleet-${process.pid}-${Date.now()}:` },
      log: { level: 'warn' },
    });
    cleanups.push(file.cleanup);
    children = [startServe(['--config', file.path, '--port', '0']), startServe(['--config', file.path, '--port', '0'])];
    const urls = await Promise.all(children.map((c) => c.url));
    const clients = urls.map((url) => new OpenAI({ apiKey: 'sk-anything-0000', baseURL: `${url}/v1`, maxRetries: 0 }));
    const served = await Promise.all(clients.flatMap((client) => Array.from({ length: 10 }, () =>
      client.chat.completions.create({ model: 'default', messages: [{ role: 'user', content: 'hi' }] }).withResponse()
        .then(({ response }) => response.headers.get('x-switchyard-provider')))));
    expect(served.filter((p) => p === 'primary')).toHaveLength(5);
    expect(served.filter((p) => p === 'backup')).toHaveLength(15);
    expect([up.count(OPENAI_PATH), up.count(ANTHROPIC_PATH)]).toEqual([5, 15]);
  }, 60_000);
});

describe('/readyz and the shared store', () => {
  let gateways: Harness[] = [];
  afterEach(async () => {
    for (const g of gateways) await g.close();
    gateways = [];
  });

  it('reports the store, and once it is gone: not ready when calls would fail without it, ready but degraded when they go on', async () => {
    const own = await startRedisServer();
    try {
      const store = (onUnavailable: 'fail' | 'local') => ({ store: { type: 'redis' as const, url: own.url, onUnavailable, keyPrefix: `gw-ready-${onUnavailable}:` } });
      gateways = [await startHarness(up, store('fail')), await startHarness(up, store('local'))];
      const [failing, local] = gateways.map((g) => g.client(undefined, { root: true }));
      expect(await failing!.get('/readyz')).toEqual({ status: 'ready', store: 'available' });
      const down = gateways.map((g) => new Promise<void>((resolve) => g.router.on('store', (e) => e.state === 'unavailable' && resolve())));
      // A call makes each store use its connection; the outage then shows up on it.
      for (const g of gateways) await g.client().chat.completions.create({ model: 'openai-only', messages: [{ role: 'user', content: 'hi' }] });
      await own.stop();
      await Promise.all(down);
      const notReady = await failing!.get('/readyz').then(() => undefined, (e: unknown) => e as APIError);
      expect(notReady?.status).toBe(503);
      expect(notReady?.code).toBe('store_unavailable');
      expect(notReady?.message).toMatch(/^503 the shared store is unavailable/);
      expect(await local!.get('/readyz')).toMatchObject({ status: 'ready', store: 'unavailable', degraded: expect.stringMatching(/this process only/) });
    } finally {
      await own.stop();
    }
  }, 60_000);
});
