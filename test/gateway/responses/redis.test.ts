import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { redisPerFile } from '../../support/redis-per-file.js';
import { startRedisServer } from '../../support/redis-server.js';
import { startUpstream, type Upstream } from '../../support/upstream.js';
import { answerWith, gatewayConfig, KEYS, startGateway, upstreamBodies, type ServedGateway } from './responses-harness.js';

// Two `switchyard serve` processes on one Redis: a conversation stored by one is continued by the other.

const redis = redisPerFile();
let up: Upstream;
let gateways: ServedGateway[] = [];
beforeEach(async () => {
  up = await startUpstream();
});
afterEach(async () => {
  await Promise.all(gateways.map((g) => g.stop()));
  gateways = [];
  await up.close();
});

describe('previous_response_id on a Redis store', () => {
  it('continues, in a second gateway process, a conversation the first one stored; another tenant still cannot read it', async () => {
    const config = gatewayConfig(up.url, { store: { type: 'redis', url: redis.url, keyPrefix: `gw-responses-${process.pid}-${Date.now()}:` } });
    gateways = await Promise.all([startGateway(config), startGateway(config)]);
    const [east, west] = gateways as [ServedGateway, ServedGateway];
    answerWith(up, { text: 'Noted: your train is the 8:15.' }, { text: 'The 8:15.' });
    const first = await east.openai().responses.create({ model: 'default', input: 'My train is the 8:15.' });
    const second = await west.openai().responses.create({ model: 'default', previous_response_id: first.id, input: 'Which train is mine?' });
    expect(second.output_text).toBe('The 8:15.');
    expect(upstreamBodies(up)[1].messages).toEqual([
      { role: 'user', content: 'My train is the 8:15.' },
      { role: 'assistant', content: 'Noted: your train is the 8:15.' },
      { role: 'user', content: 'Which train is mine?' },
    ]);
    const stranger = await west.openai(KEYS.b).responses.create({ model: 'default', previous_response_id: first.id, input: 'Which train?' }).catch((e: unknown) => e);
    expect(stranger).toMatchObject({ status: 400, code: 'previous_response_not_found', param: 'previous_response_id' });
    expect(upstreamBodies(up)).toHaveLength(2);
  }, 60_000);

  it('answers a continuation while Redis is down with a store_unavailable server error, never "not found", and sends nothing', async () => {
    const own = await startRedisServer();
    try {
      const gw = await startGateway(gatewayConfig(up.url, { store: { type: 'redis', url: own.url, keyPrefix: 'gw-responses-down:' } }));
      gateways = [gw];
      answerWith(up, { text: 'Noted.' }, { text: 'The 8:15.' });
      const first = await gw.openai().responses.create({ model: 'default', input: 'My train is the 8:15.' });
      await own.stop();
      const err = await gw.openai().responses.create({ model: 'default', previous_response_id: first.id, input: 'Which train?' }).catch((e: unknown) => e);
      expect(err).toMatchObject({ status: expect.any(Number), code: 'store_unavailable' });
      expect((err as { status: number }).status).toBeGreaterThanOrEqual(500);
      expect(upstreamBodies(up)).toHaveLength(1);
    } finally {
      await own.stop();
    }
  }, 60_000);
});
