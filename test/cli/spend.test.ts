import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import type { SwitchyardConfig } from '../../src/config/index.js';
import { spendWindows } from '../../src/decide/cost.js';
import { hashKey } from '../../src/gateway/index.js';
import { createRouter } from '../../src/router.js';
import { GATEWAY_KEY } from '../../src/spend/gateway-key.js';
import { captureLogger } from '../support/capture-logger.js';
import { redisPerFile } from '../support/redis-per-file.js';
import { VirtualClock } from '../support/virtual-clock.js';
import { captureIO, noStack, writeConfig } from './io.js';

const redis = redisPerFile();

// A dollar a token, on the in-process fake provider (it bills the prompt estimate and its answer).
const DOLLAR_A_TOKEN = { inputPerMTok: 1_000_000, outputPerMTok: 1_000_000 };
const KEY_HASH = hashKey('sk-gw-team-0123456789');

function config(prefix: string): SwitchyardConfig {
  return {
    providers: { fake: { type: 'fake' }, other: { type: 'fake' } },
    chains: { default: ['fake:model-a'], second: ['other:model-b'] },
    prices: { 'model-a': DOLLAR_A_TOKEN, 'model-b': { inputPerMTok: 2_000_000, outputPerMTok: 2_000_000 } },
    tenants: { acme: { spend: { usdPerDay: 1_000, usdPerMonth: 10_000 } } },
    gateway: { keys: [{ keyHash: KEY_HASH, tenant: 'team', spend: { usdPerDay: 500 } }] },
    store: { type: 'redis', url: redis.url, keyPrefix: prefix },
    log: { level: 'silent' },
  };
}

describe('switchyard spend', () => {
  it('prints spend by tenant, key and model from Redis, and each budget against its limits', async () => {
    const prefix = `cli-spend-${process.pid}-${Math.random().toString(36).slice(2)}:`;
    const cfg = config(prefix);
    // Today, as the CLI's own clock will read it.
    const router = createRouter(cfg, { logger: captureLogger().logger, clock: new VirtualClock({ startMs: Date.now() }) });
    const a = await router.chat({ messages: [{ role: 'user', content: 'hello there' }], tenant: 'acme', maxTokens: 20 });
    const b = await router.chat({ messages: [{ role: 'user', content: 'hello again' }], tenant: 'acme', chain: 'second', maxTokens: 20 });
    const keyed = { messages: [{ role: 'user' as const, content: 'from the gateway' }], tenant: 'team', maxTokens: 20 };
    Object.defineProperty(keyed, GATEWAY_KEY, { value: 'sha256:' + KEY_HASH.slice(7, 19) });
    const c = await router.chat(keyed);
    await router.close();

    const file = writeConfig(cfg);
    const { io, out, err } = captureIO();
    expect(await main(['spend', '--config', file], io)).toBe(0);
    const text = out();
    const line = (...cells: string[]) => new RegExp(cells.map((x) => x.replace(/[.$()]/g, '\\$&')).join('\\s+'));
    expect(text).toMatch(line('tenant:acme', 'fake:model-a', `$${a.costUsd!.toFixed(4)}`));
    expect(text).toMatch(line('tenant:acme', 'other:model-b', `$${b.costUsd!.toFixed(4)}`));
    expect(text).toMatch(line('tenant:acme', '(all models)', `$${(a.costUsd! + b.costUsd!).toFixed(4)}`));
    // The keyed call counts for the key's budget (and its tenant has none).
    expect(text).toMatch(line(`key:${KEY_HASH.slice(0, 19)}`, 'fake:model-a', `$${c.costUsd!.toFixed(4)}`));
    expect(text).not.toContain('tenant:team');
    expect(text).toMatch(line('tenant:acme', `$${(a.costUsd! + b.costUsd!).toFixed(4)} of $1000.00`));
    expect(err()).toBe('');

    const only = captureIO();
    expect(await main(['spend', '--config', file, '--tenant', 'acme', '--since', '1d'], only.io)).toBe(0);
    expect(only.out()).toContain('tenant:acme');
    expect(only.out()).not.toContain('key:');
    // --since 1d is today alone.
    const { day } = spendWindows(Date.now());
    expect(only.out()).toContain(`to ${day.name.slice(4)}`);
  });

  it('refuses a config whose store is memory, and a bad --since, in one line each', async () => {
    const memory = writeConfig({ ...config('x:'), store: { type: 'memory' } });
    const one = captureIO();
    expect(await main(['spend', '--config', memory], one.io)).toBe(2);
    expect(one.err()).toContain("this config's store is 'memory'");
    const two = captureIO();
    expect(await main(['spend', '--config', writeConfig(config('x:')), '--since', 'last week'], two.io)).toBe(2);
    expect(two.err()).toContain('--since expects YYYY-MM-DD or Nd');
    expect(noStack(one.err() + two.err())).toBe(true);
  });
});
