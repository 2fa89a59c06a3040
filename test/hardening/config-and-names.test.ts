import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { resolveConfig } from '../../src/config/index.js';
import { maskURLPassword } from '../../src/config/secret-fields.js';
import { RouterError } from '../../src/errors.js';
import { priceFor } from '../../src/eval/cost.js';
import { withEvalChains } from '../../src/eval/eval-chains.js';
import { runEval } from '../../src/eval/run-eval.js';
import { createRouter } from '../../src/router.js';
import { memoryStore } from '../../src/store/memory-store.js';
import { fakeRequests } from '../../src/testing/index.js';
import { captureLogger } from '../support/capture-logger.js';

function configError(input: unknown): string {
  try {
    resolveConfig(input);
  } catch (err) {
    expect((err as RouterError).kind).toBe('config');
    return (err as RouterError).message;
  }
  throw new Error('expected a config error');
}

const base = { providers: { f: { type: 'fake' as const } }, chains: { default: ['f:m'] } };

describe('config values that would break at run time are refused at config time', () => {
  it.each([
    ['a baseURL with user:password@', { providers: { o: { type: 'openai', apiKey: 'sk-x', baseURL: 'https://bob:hunter2@api.example.com/v1' } }, chains: { default: ['o:m'] } }, /providers\.o\.baseURL: expected an http:\/\/ or https:\/\/ URL without user:password@/],
    ['a baseURL with a user only', { providers: { l: { type: 'openai-compatible', baseURL: 'http://bob@127.0.0.1:8000/v1' } }, chains: { default: ['l:m'] } }, /providers\.l\.baseURL/],
    ['a file: baseURL', { providers: { l: { type: 'openai-compatible', baseURL: 'file:///etc/passwd' } }, chains: { default: ['l:m'] } }, /providers\.l\.baseURL/],
    ['a timeoutMs past the 2^31 ms a timer can hold', { providers: { f: { type: 'fake', timeoutMs: 2 ** 31 } }, chains: { default: ['f:m'] } }, /providers\.f\.timeoutMs: at most 2147483647 ms/],
    ['a maxQueueMs past it', { providers: { f: { type: 'fake', limits: { maxQueueMs: 2 ** 32 } } }, chains: { default: ['f:m'] } }, /providers\.f\.limits\.maxQueueMs: at most/],
    ['a parkMs past it', { ...base, quota: { parkMs: 1e12 } }, /quota\.parkMs: at most/],
    ['a breaker resetTimeoutMs past it', { ...base, breaker: { resetTimeoutMs: 2 ** 31 } }, /breaker\.resetTimeoutMs: at most/],
    ['a chain step maxTokens past what any model takes', { ...base, chains: { default: [{ provider: 'f', model: 'm', maxTokens: 1e12 }] } }, /chains\.default\[0\]\.maxTokens: .*1000000/],
    ['a pool member maxTokens past it', { ...base, chains: { default: [{ pool: [{ provider: 'f', model: 'm', maxTokens: 1_000_001 }] }] } }, /chains\.default\[0\]\.pool\[0\]\.maxTokens/],
    ['a chain naming a provider called toString', { ...base, chains: { default: ['toString:m'] } }, /chains\.default\[0\]: unknown provider "toString"/],
    ['a chain naming a provider called constructor', { ...base, chains: { default: ['constructor:m'] } }, /unknown provider "constructor"/],
    ['a chain naming __proto__', { ...base, chains: { default: ['__proto__:m'] } }, /unknown provider "__proto__"/],
  ])('refuses %s, naming the path', (_what, input, message) => {
    expect(configError(input)).toMatch(message);
  });

  it('accepts providers whose names look like Object methods, when they are declared', () => {
    const c = resolveConfig({ providers: { toString: { type: 'fake' } }, chains: { default: ['toString:m'] } });
    expect(c.chains.default![0]!.provider).toBe('toString');
  });
});

describe('API keys stay out of printed configs', () => {
  it('keeps a key read from apiKeyEnv, and a literal apiKey, out of JSON.stringify, util.inspect and spreads', async () => {
    const router = createRouter({
      providers: { o: { type: 'openai', apiKeyEnv: 'MY_KEY', baseURL: 'http://127.0.0.1:9/v1' }, a: { type: 'anthropic', apiKey: 'sk-ant-literal-0123456789', baseURL: 'http://127.0.0.1:9' } },
      chains: { default: ['o:gpt-4o-mini', 'a:claude'] },
    }, { env: { MY_KEY: 'sk-from-env-0123456789' }, logger: captureLogger().logger });
    try {
      const printed = [JSON.stringify(router.config), inspect(router.config, { depth: 10 }), JSON.stringify({ ...router.config.providers.o }), inspect(router)];
      for (const text of printed) {
        expect(text).not.toContain('sk-from-env-0123456789');
        expect(text).not.toContain('sk-ant-literal-0123456789');
      }
      // The adapters still have them.
      expect(router.config.providers.o!.resolvedApiKey).toBe('sk-from-env-0123456789');
      expect(router.config.providers.a!.resolvedApiKey).toBe('sk-ant-literal-0123456789');
    } finally {
      await router.close();
    }
  });
});

describe('call timers past what a timer can hold are refused', () => {
  it.each([
    ['timeoutMs', { timeoutMs: 2 ** 31 }],
    ['firstTokenTimeoutMs', { firstTokenTimeoutMs: 2 ** 31 }],
    ['timeoutMs, on the schema path', { timeoutMs: 2 ** 31, tools: [{ name: 't', parameters: { type: 'object' } }] }],
  ])('refuses a %s of 2^31 ms with invalid_request naming it, sending nothing', async (_what, options) => {
    const router = createRouter(base, { logger: captureLogger().logger });
    try {
      const err = await router.chat({ messages: [{ role: 'user', content: 'hi' }], ...options }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(RouterError);
      const field = Object.keys(options)[0]!;
      expect(err).toMatchObject({ kind: 'invalid_request', message: expect.stringContaining(field) });
      expect(fakeRequests(router, 'f')).toHaveLength(0);
    } finally {
      await router.close();
    }
  });
});

describe('secrets in headers, query and the Redis URL stay out of printed configs', () => {
  it('prints router.config with the Redis password and every header and query value masked, and keeps them usable', async () => {
    const router = createRouter({
      providers: {
        azure: {
          type: 'openai', apiKey: 'sk-x-0123456789', baseURL: 'https://res.openai.azure.com/openai', azure: true,
          headers: { 'x-gateway-token': 'gw-header-secret-0123' }, query: { 'api-version': '2024-10-21', sig: 'query-secret-4567' },
        },
      },
      chains: { default: ['azure:gpt-4o'] },
      store: { type: 'redis', url: 'redis://default:redis-pass-8910@127.0.0.1:6379/0' },
    }, { store: memoryStore(), logger: captureLogger().logger });
    try {
      const printed = [JSON.stringify(router.config), inspect(router.config, { depth: 10 }), JSON.stringify({ ...router.config.providers.azure }), inspect(router, { depth: 10 })];
      for (const text of printed) {
        for (const secret of ['gw-header-secret-0123', 'query-secret-4567', 'redis-pass-8910']) expect(text).not.toContain(secret);
      }
      expect(JSON.stringify(router.config.store)).toContain('redis://default:[REDACTED]@127.0.0.1:6379/0');
      expect(JSON.parse(JSON.stringify(router.config.providers.azure)).headers).toEqual({ 'x-gateway-token': '[REDACTED]' });
      // The code that needs them still reads them in full.
      expect(router.config.store).toMatchObject({ url: 'redis://default:redis-pass-8910@127.0.0.1:6379/0' });
      expect(Object.entries(router.config.providers.azure!.headers!)).toEqual([['x-gateway-token', 'gw-header-secret-0123']]);
      expect({ ...router.config.providers.azure!.query }).toEqual({ 'api-version': '2024-10-21', sig: 'query-secret-4567' });
    } finally {
      await router.close();
    }
  });
});

describe('maskURLPassword', () => {
  it.each([
    ['redis://:pw-0123@127.0.0.1:6379', 'redis://:[REDACTED]@127.0.0.1:6379'],
    ['rediss://user:pw-0123@redis.example.com:6380/2', 'rediss://user:[REDACTED]@redis.example.com:6380/2'],
    ['redis://127.0.0.1:6379/0?password=pw-0123&db=1', 'redis://127.0.0.1:6379/0?password=[REDACTED]&db=1'],
    ['redis://127.0.0.1:6379', 'redis://127.0.0.1:6379'],
  ])('masks %s as %s', (url, masked) => {
    expect(maskURLPassword(url)).toBe(masked);
  });
});

describe('tenants are looked up by own name only', () => {
  it.each(['constructor', 'toString', '__proto__', 'hasOwnProperty'])('holds tenant "%s" to the "*" budget like any unknown tenant', async (tenant) => {
    const router = createRouter({
      providers: { p: { type: 'fake' } }, chains: { default: ['p:m'] },
      tenants: { '*': { share: 1, rpm: 2 } },
    }, { logger: captureLogger().logger });
    try {
      const outcomes: string[] = [];
      for (let i = 0; i < 5; i++) {
        try {
          await router.chat({ messages: [{ role: 'user', content: 'hi' }], tenant });
          outcomes.push('ok');
        } catch (err) {
          outcomes.push((err as RouterError).kind);
        }
      }
      expect(outcomes).toEqual(['ok', 'ok', 'exhausted', 'exhausted', 'exhausted']);
      expect(fakeRequests(router, 'p')).toHaveLength(2);
    } finally {
      await router.close();
    }
  });
});

describe('an answer stands whatever the store does after it', () => {
  it('returns the answer when a custom store throws while the lease is settled, and logs it', async () => {
    const { MemoryStore } = await import('../../src/store/memory-store.js');
    const store = new MemoryStore();
    store.settleBudget = () => {
      throw new Error('store went away');
    };
    const log = captureLogger();
    const router = createRouter({ providers: { p: { type: 'fake' } }, chains: { default: ['p:m'] } }, { logger: log.logger, store });
    try {
      const res = await router.chat({ messages: [{ role: 'user', content: 'hi' }] });
      expect(res.provider).toBe('p');
      expect(log.records().some((r) => /failed while settling a lease/.test(String(r.msg)))).toBe(true);
    } finally {
      await router.close();
    }
  });
});

describe('eval looks chains and prices up by own name only', () => {
  const evalConfig = { providers: { p: { type: 'fake' as const, respond: () => ({ text: 'yes' }) } }, chains: { main: ['p:toString', 'p:m'] } };
  const evalCases = [{ id: 'one', prompt: 'one', expect: { equals: 'yes' } }];
  const routerOptions = { logger: captureLogger().logger };

  it.each(['constructor', 'toString', '__proto__', 'hasOwnProperty'])('refuses chain "%s" with invalid_request, from a config or a router', async (chain) => {
    const fromConfig = await runEval({ config: evalConfig, chain, cases: evalCases, routerOptions }).catch((e: unknown) => e);
    expect(fromConfig).toBeInstanceOf(RouterError);
    expect(fromConfig).toMatchObject({ kind: 'invalid_request', message: expect.stringContaining(`unknown chain "${chain}"`) });
    const router = createRouter(withEvalChains(evalConfig, 'main').config, routerOptions);
    try {
      const fromRouter = await runEval({ router, chain, cases: evalCases }).catch((e: unknown) => e);
      expect(fromRouter).toMatchObject({ kind: 'invalid_request', message: expect.stringContaining(`unknown chain "${chain}"`) });
    } finally {
      await router.close();
    }
  });

  it('prices a model named toString by its own entry, and leaves an unpriced one unpriced', async () => {
    const price = { inputPerMTok: 2, outputPerMTok: 3 };
    const priced = await runEval({ config: { ...evalConfig, prices: { toString: price } }, chain: 'main', targets: ['p:toString'], cases: evalCases, routerOptions });
    const usage = priced.runs[0]!.usage!;
    expect(usage.inputTokens).toBeGreaterThan(0);
    expect(priced.targets[0]).toMatchObject({ key: 'p:toString', price, costUsd: (usage.inputTokens * 2 + usage.outputTokens * 3) / 1_000_000 });
    const unpriced = await runEval({ config: evalConfig, chain: 'main', cases: evalCases, routerOptions });
    expect(unpriced.targets.map((t) => [t.key, t.price, t.costUsd])).toEqual([['p:toString', null, null], ['p:m', null, null]]);
    expect(priceFor({}, { key: 'p:constructor', model: 'constructor' })).toBeUndefined();
  });
});
