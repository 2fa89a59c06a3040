import OpenAI, { APIError } from 'openai';
import { describe, expect, it } from 'vitest';
import { hashKey } from '../../src/gateway/index.js';
import { isRouterError } from '../../src/errors.js';
import { OPENAI_PATH } from '../support/fixtures.js';
import type { Upstream } from '../support/upstream.js';
import { upstreamPerTest } from '../support/upstream-per-test.js';
import { startHarness, type Harness } from './gateway-harness.js';

const ALPHA_KEY = 'sk-gw-alpha-0123456789abcdef';
const BETA_KEY = 'sk-gw-beta-fedcba9876543210';
const PROMPT = 'the prompt text that must never reach a log line';

let up: Upstream;
let h: Harness;
upstreamPerTest((u) => (up = u), () => h?.close());

/** Two keys: alpha's from the environment, beta's stored as a hash and limited to one chain; two RPM budgets of 2. */
function withKeys(options: { logRequests?: boolean } = {}, gateway: { logRequests?: boolean } = {}) {
  return startHarness(up, {
    providers: {
      openai: { type: 'openai', apiKey: 'sk-proj-TESTKEYopenai0123456789abcdefXYZ', baseURL: `${up.url}/v1`, limits: { maxQueueMs: 0 } },
      anthropic: { type: 'anthropic', apiKey: 'sk-ant-api03-TESTKEYanthropic0123456789abcdef', baseURL: up.url },
    },
    tenants: { alpha: { rpm: 2 }, beta: { rpm: 2 } },
    gateway: { keys: [{ keyEnv: 'GW_KEY_ALPHA', tenant: 'alpha' }, { keyHash: hashKey(BETA_KEY), tenant: 'beta', chains: ['openai-only'] }], ...gateway },
  }, { env: { GW_KEY_ALPHA: ALPHA_KEY }, ...options });
}

const ask = { model: 'openai-only', messages: [{ role: 'user' as const, content: PROMPT }] };
const failure = (p: Promise<unknown>) => p.then(() => { throw new Error('expected the request to fail'); }, (e: unknown) => e as APIError);

describe('gateway keys and tenants', () => {
  it('answers a missing or unknown key 401 invalid_api_key and sends nothing upstream', async () => {
    h = await withKeys();
    const unknown = await failure(h.client('sk-gw-not-a-key-000000').chat.completions.create(ask));
    expect(unknown).toBeInstanceOf(OpenAI.AuthenticationError);
    expect([unknown.status, unknown.code]).toEqual([401, 'invalid_api_key']);
    const none = await failure(h.client(ALPHA_KEY).chat.completions.create(ask, { headers: { Authorization: null } }));
    expect([none.status, none.code]).toEqual([401, 'invalid_api_key']);
    expect(none.message).toMatch(/no API key/);
    expect((await failure(h.client('sk-gw-not-a-key-000000').models.list())).status).toBe(401);
    expect(up.count()).toBe(0);
  });

  it('runs each key as its own tenant with its own budget, whatever tenant headers the client sends', async () => {
    h = await withKeys();
    const tenants: string[] = [];
    h.router.on('call', (e) => tenants.push(e.tenant));
    const spoof = { headers: { 'x-switchyard-tenant': 'beta', 'x-tenant': 'beta', 'openai-organization': 'beta', 'x-forwarded-for': '10.0.0.9' } };
    const alpha = h.client(ALPHA_KEY);
    await alpha.chat.completions.create({ ...ask, user: 'beta' }, spoof);
    await alpha.chat.completions.create(ask, spoof);
    const third = await failure(alpha.chat.completions.create(ask, spoof));
    expect([third.status, third.code]).toEqual([429, 'chain_exhausted']);
    expect(third.message).toMatch(/local_limit/);

    const beta = h.client(BETA_KEY);
    await beta.chat.completions.create(ask);
    await beta.chat.completions.create(ask);
    expect(tenants).toEqual(['alpha', 'alpha', 'alpha', 'beta', 'beta']);
    expect(up.count(OPENAI_PATH)).toBe(4);
  });

  it('limits a key to its chains: others are listed nowhere and answer 404', async () => {
    h = await withKeys();
    const beta = h.client(BETA_KEY);
    expect((await beta.models.list()).data.map((m) => m.id)).toEqual(['openai-only']);
    const other = await failure(beta.chat.completions.create({ ...ask, model: 'default' }));
    expect([other.status, other.code]).toEqual([404, 'model_not_found']);
    expect((await h.client(ALPHA_KEY).models.list()).data.map((m) => m.id)).toEqual(['default', 'openai-only', 'embeddings']);
    expect(up.count()).toBe(0);
  });

  it('logs one line per request with its tenant and target when asked, never the key or the prompt', async () => {
    h = await withKeys({ logRequests: true });
    await h.client(ALPHA_KEY).chat.completions.create(ask);
    await failure(h.client('sk-gw-not-a-key-000000').chat.completions.create(ask));
    const lines = h.log.records().filter((r) => r.msg === 'gateway request');
    expect(lines.map((l) => [l.status, l.tenant, l.provider, l.path])).toEqual([[200, 'alpha', 'openai', '/v1/chat/completions'], [401, undefined, undefined, '/v1/chat/completions']]);
    const all = h.log.lines.join('\n');
    for (const secret of [ALPHA_KEY, BETA_KEY, 'sk-gw-not-a-key-000000', PROMPT]) expect(all).not.toContain(secret);
  });

  it('without logRequests logs only the failed requests, with their cause, never the key or the prompt', async () => {
    h = await withKeys();
    await h.client(ALPHA_KEY).chat.completions.create(ask);
    await failure(h.client('sk-gw-not-a-key-000000').chat.completions.create(ask));
    up.script(OPENAI_PATH, { status: 400, body: { error: { message: 'bad request', type: 'invalid_request_error', code: null, param: null } } });
    const bad = await failure(h.client(ALPHA_KEY).chat.completions.create(ask));
    expect(bad.status).toBe(400);
    expect(up.count(OPENAI_PATH)).toBe(2);
    const lines = h.log.records().filter((r) => r.msg === 'gateway request');
    expect(lines.map((l) => [l.status, l.tenant, l.provider, l.kind, l.path])).toEqual([
      [401, undefined, undefined, undefined, '/v1/chat/completions'],
      [400, 'alpha', undefined, 'bad_request', '/v1/chat/completions'],
    ]);
    expect(lines.every((l) => l.level === 30 && typeof l.ms === 'number' && typeof l.reqId === 'string')).toBe(true);
    const all = h.log.lines.join('\n');
    for (const secret of [ALPHA_KEY, BETA_KEY, 'sk-gw-not-a-key-000000', PROMPT]) expect(all).not.toContain(secret);
  });

  it('logs every request with gateway.logRequests in the config', async () => {
    h = await withKeys({}, { logRequests: true });
    await h.client(ALPHA_KEY).chat.completions.create(ask);
    const lines = h.log.records().filter((r) => r.msg === 'gateway request');
    expect(lines.map((l) => [l.status, l.tenant, l.provider])).toEqual([[200, 'alpha', 'openai']]);
  });

  it('refuses to listen beyond loopback without keys, and needs every keyEnv set', async () => {
    h = await startHarness(up);
    const refused = await h.gateway.listen({ host: '0.0.0.0', port: 0 }).catch((e: unknown) => e);
    expect(isRouterError(refused) && refused.kind).toBe('config');
    expect((refused as Error).message).toMatch(/requires gateway\.keys/);
    await h.close();
    const missing = await startHarness(up, { gateway: { keys: [{ keyEnv: 'GW_KEY_UNSET', tenant: 'alpha' }] } }, { env: {} }).catch((e: unknown) => e);
    expect((missing as Error).message).toMatch(/gateway\.keys\[0\]\.keyEnv: environment variable GW_KEY_UNSET is not set/);
    h = await startHarness(up);
  });
});
