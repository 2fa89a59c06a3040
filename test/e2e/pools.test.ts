import { describe, expect, it } from 'vitest';
import type { SwitchyardConfig } from '../../src/config/index.js';
import { createRouter, type Router } from '../../src/router.js';
import { captureLogger } from '../support/capture-logger.js';
import { openaiBodies, openaiCompletion } from '../support/fixtures.js';
import type { Upstream } from '../support/upstream.js';
import { upstreamPerTest } from '../support/upstream-per-test.js';
import { VirtualClock } from '../support/virtual-clock.js';
import { ask } from '../support/wire-router.js';

const EAST = '/east/v1/chat/completions';
const WEST = '/west/v1/chat/completions';

let up: Upstream;
const routers = upstreamPerTest<Router>((u) => (up = u));

/** A success reporting `remaining` of 100 requests left until a minute from now. */
const okWith = (remaining: number) => ({
  status: 200,
  headers: { 'x-ratelimit-limit-requests': '100', 'x-ratelimit-remaining-requests': String(remaining), 'x-ratelimit-reset-requests': '60s' },
  body: openaiCompletion(),
});

function pooled(pick?: 'headroom' | 'round_robin', extra: Partial<SwitchyardConfig> = {}, clock?: VirtualClock) {
  const config: SwitchyardConfig = {
    providers: {
      east: { type: 'openai', apiKey: 'sk-east-key', baseURL: `${up.url}/east/v1` },
      west: { type: 'openai', apiKey: 'sk-west-key', baseURL: `${up.url}/west/v1` },
    },
    chains: { default: [{ pool: ['east:gpt-4o', 'west:gpt-4o'], ...(pick ? { pick } : {}) }] },
    retry: { maxAttempts: 1 },
    ...extra,
  };
  const router = createRouter(config, { logger: captureLogger().logger, clock });
  routers.push(router);
  return router;
}

describe('a pool of equivalent deployments', () => {
  it('sends most calls to the member reporting more headroom', async () => {
    up.otherwise(EAST, () => okWith(5));
    up.otherwise(WEST, () => okWith(80));
    const router = pooled();
    const answered: string[] = [];
    for (let i = 0; i < 10; i++) answered.push((await router.chat(ask())).provider);
    // The first call knows nothing (configured order); then east has 5% left and west 80%.
    expect(answered[0]).toBe('east');
    expect(answered.slice(1)).toEqual(Array(9).fill('west'));
    expect([up.count(EAST), up.count(WEST)]).toEqual([1, 9]);
  });

  it('counts each member\'s local budget: calls go to the member with room, and none queue behind a full one', async () => {
    // No rate-limit headers: only the configured limits say where the room is. East's rpm lets 10
    // requests out at once (its burst), west's 100.
    up.otherwise(EAST, () => ({ status: 200, body: openaiCompletion() }));
    up.otherwise(WEST, () => ({ status: 200, body: openaiCompletion() }));
    const clock = new VirtualClock();
    const router = pooled(undefined, {
      providers: {
        east: { type: 'openai', apiKey: 'sk-east-key', baseURL: `${up.url}/east/v1`, timeoutMs: 60_000, limits: { rpm: 60 } },
        west: { type: 'openai', apiKey: 'sk-west-key', baseURL: `${up.url}/west/v1`, timeoutMs: 60_000, limits: { rpm: 6_000 } },
      },
    }, clock);
    let settled = false;
    const all = Promise.all(Array.from({ length: 30 }, () => router.chat(ask()))).finally(() => (settled = true));
    // Time moves only as far as the loopback answers take, so a call queued for room would show.
    for (let i = 0; i < 100 && !settled; i++) await clock.advance(100);
    const results = await all;

    const attempts = results.flatMap((r) => r.attempts);
    expect(attempts.filter((a) => a.waitedMs !== undefined || a.skipped)).toEqual([]);
    expect(results.filter((r) => r.provider === 'west').length).toBeGreaterThanOrEqual(25);
    expect(up.count(EAST) + up.count(WEST)).toBe(30);
  });

  it('skips a cooling member without a request and answers from the other', async () => {
    up.script(EAST, { status: 429, headers: { 'retry-after': '30' }, body: openaiBodies.rateLimitRequests });
    up.otherwise(EAST, () => okWith(90));
    up.otherwise(WEST, () => okWith(50));
    const router = pooled();
    const first = await router.chat(ask());
    expect(first.provider).toBe('west'); // east's 429 asked for 30 s: it cools, and west answers
    const second = await router.chat(ask());
    expect(second.provider).toBe('west');
    expect(second.attempts[0]).toMatchObject({ provider: 'east', kind: 'rate_limited', skipped: true });
    expect(up.count(EAST)).toBe(1);
  });

  it('answers from the other member when one answers 503, before the chain\'s next step', async () => {
    up.script(EAST, { status: 503, body: openaiBodies.overloaded503 });
    up.otherwise(WEST, () => okWith(50));
    const router = pooled(undefined, {
      providers: {
        east: { type: 'openai', apiKey: 'sk-east-key', baseURL: `${up.url}/east/v1` },
        west: { type: 'openai', apiKey: 'sk-west-key', baseURL: `${up.url}/west/v1` },
        backup: { type: 'openai', apiKey: 'sk-backup-key', baseURL: `${up.url}/backup/v1` },
      },
      chains: { default: [{ pool: ['east:gpt-4o', 'west:gpt-4o'] }, 'backup:gpt-4o-mini'] },
    });
    const res = await router.chat(ask());
    expect(res.provider).toBe('west');
    expect(res.attempts.map((a) => [a.provider, a.status])).toEqual([['east', 503], ['west', undefined]]);
    expect(up.count('/backup/v1/chat/completions')).toBe(0);
  });

  it('takes turns with round_robin', async () => {
    up.otherwise(EAST, () => okWith(5));
    up.otherwise(WEST, () => okWith(80));
    const router = pooled('round_robin');
    const answered: string[] = [];
    for (let i = 0; i < 4; i++) answered.push((await router.chat(ask())).provider);
    expect(answered).toEqual(['east', 'west', 'east', 'west']);
  });

  it('is resolved into its members, each marked with the pool, in the resolved config', () => {
    const router = pooled();
    expect(router.config.chains.default!.map((t) => [t.key, t.pool])).toEqual([
      ['east:gpt-4o', { id: 'default[0]', pick: 'headroom' }],
      ['west:gpt-4o', { id: 'default[0]', pick: 'headroom' }],
    ]);
  });
});
