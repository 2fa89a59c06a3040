import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { defineConfig, loadConfig, resolveConfig, splitTarget } from '../src/config/index.js';
import { RouterError } from '../src/errors.js';
import { createRouter } from '../src/router.js';

const errorOf = (fn: () => unknown): RouterError => {
  try {
    fn();
  } catch (err) {
    return err as RouterError;
  }
  throw new Error('expected a throw');
};

describe('resolveConfig', () => {
  it('fills every default but providers and chains', () => {
    const c = resolveConfig({ providers: { f: { type: 'fake' } }, chains: { default: ['f:m'] } });
    expect(c.retry).toEqual({ maxAttempts: 3, baseDelayMs: 250, maxDelayMs: 8000, maxInlineWaitMs: 5000, retryTimeouts: false, cooldownMs: 1000, onInvalidOutput: 'throw', budgetPercent: 20, budgetMinRetries: 50 });
    expect(c.breaker).toEqual({ scope: 'provider', errorThresholdPercentage: 50, volumeThreshold: 5, windowMs: 10_000, resetTimeoutMs: 5_000, consecutiveFailures: 5, lastResort: true, shared: false });
    expect(c.quota).toEqual({ parkMs: 600_000 });
    expect(c.store).toEqual({ type: 'memory' });
    expect(c.log).toEqual({ level: 'info', logPrompts: false });
    expect(c.prices).toEqual({});
    expect(c.chains.default).toEqual([{ provider: 'f', model: 'm', key: 'f:m', maxTokens: undefined, temperature: undefined, maxAttempts: 3, budgetPercent: 20 }]);
  });

  it('throws a config error naming every failing path at once', () => {
    const err = errorOf(() => resolveConfig({
      providers: { a: { type: 'openai', apiKey: 'k', timeoutMs: -5 }, b: { type: 'cohere' } },
      chains: { default: ['a'], other: [] },
      retry: { maxAttempts: 0 },
      breaker: { scope: 'everything' },
      extra: true,
    }));
    expect(err).toBeInstanceOf(RouterError);
    expect(err.kind).toBe('config');
    for (const path of ['providers.a.timeoutMs', 'providers.b.type', 'chains.default[0]', 'chains.other', 'retry.maxAttempts', 'breaker.scope', 'extra']) {
      expect(err.message).toContain(path);
    }
  });

  it('names a chain step whose provider is not declared', () => {
    const err = errorOf(() => resolveConfig({ providers: { openai: { type: 'openai', apiKey: 'k' } }, chains: { default: ['openai:gpt-4o', 'anthropc:claude'] } }));
    expect(err.kind).toBe('config');
    expect(err.message).toContain('chains.default[1]: unknown provider "anthropc" (declared: openai)');
  });

  it('reads API keys from apiKeyEnv and names a variable that is not set', () => {
    const c = resolveConfig({ providers: { o: { type: 'openai', apiKeyEnv: 'MY_KEY' } }, chains: { default: ['o:m'] } }, { MY_KEY: 'sk-from-env' });
    expect(c.providers.o!.resolvedApiKey).toBe('sk-from-env');
    const err = errorOf(() => resolveConfig({ providers: { o: { type: 'openai', apiKeyEnv: 'MY_KEY' } }, chains: { default: ['o:m'] } }, {}));
    expect(err.message).toContain('providers.o.apiKeyEnv: environment variable MY_KEY is not set');
  });

  it('lets an openai-compatible provider go without a key but not without a base URL', () => {
    expect(() => resolveConfig({ providers: { local: { type: 'openai-compatible', baseURL: 'http://127.0.0.1:11434/v1' } }, chains: { default: ['local:llama3:8b'] } })).not.toThrow();
    expect(errorOf(() => resolveConfig({ providers: { local: { type: 'openai-compatible' } }, chains: { default: ['local:m'] } })).message).toContain('providers.local.baseURL');
  });

  it('keeps per-target options from the object form of a chain step', () => {
    const c = resolveConfig({ providers: { f: { type: 'fake' } }, chains: { default: [{ provider: 'f', model: 'm', maxTokens: 50, temperature: 0.1, maxAttempts: 1 }] } });
    expect(c.chains.default![0]).toMatchObject({ maxTokens: 50, temperature: 0.1, maxAttempts: 1 });
  });

  it('createRouter throws the same config error', () => {
    expect(errorOf(() => createRouter({ providers: {}, chains: {} } as any)).kind).toBe('config');
  });
});

describe('splitTarget', () => {
  it.each([
    ['openai:gpt-4o', 'openai', 'gpt-4o'],
    ['local:llama3:8b', 'local', 'llama3:8b'],
    ['ollama:hf.co/org/model:Q4_K_M', 'ollama', 'hf.co/org/model:Q4_K_M'],
  ])('splits %s at the first colon', (ref, provider, model) => {
    expect(splitTarget(ref)).toEqual({ provider, model });
  });
});

describe('loadConfig', () => {
  it('loads the repository\'s router.config.ts (TypeScript, on Node 20)', async () => {
    const config = await loadConfig('router.config.ts', resolve(import.meta.dirname, '..'));
    expect(config.chains).toHaveProperty('default');
  });

  it('loads a config file that uses defineConfig', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'switchyard-config-'));
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
    const define = resolve(import.meta.dirname, '../src/config/define-config.ts');
    writeFileSync(join(dir, 'my.config.ts'), `import { defineConfig } from ${JSON.stringify(define)};\nexport default defineConfig({ providers: { f: { type: 'fake' } }, chains: { default: ['f:m'] } });\n`);
    const config = await loadConfig('my.config.ts', dir);
    expect(resolveConfig(config).chains.default![0]!.key).toBe('f:m');
    expect(defineConfig(config)).toBe(config);
  });

  it('says clearly when the file is missing or has no default export', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'switchyard-config-'));
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
    await expect(loadConfig('nope.config.ts', dir)).rejects.toThrow(/config file not found/);
    writeFileSync(join(dir, 'empty.config.mjs'), 'export const nothing = 1;\n');
    await expect(loadConfig('empty.config.mjs', dir)).rejects.toThrow(/no default export/);
  });
});
