import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { resolveConfig } from '../../../src/config/index.js';
import { RouterError } from '../../../src/errors.js';
import { createRouter } from '../../../src/router.js';
import { captureLogger } from '../../../test/support/capture-logger.js';
import { openaiCompletion, openaiOk } from '../../../test/support/fixtures.js';
import { startUpstream, type Upstream } from '../../../test/support/upstream.js';
import { adapterFor } from '../../test-support/adapter-harness.js';
import { PRESET_NAMES, PRESETS } from './catalog.js';

const resolve = (provider: Record<string, unknown>, env: NodeJS.ProcessEnv = {}) =>
  resolveConfig({ providers: { svc: provider }, chains: { default: ['svc:m'] } }, env).providers.svc!;

function configError(provider: Record<string, unknown>, env: NodeJS.ProcessEnv = {}): RouterError {
  try {
    resolve(provider, env);
  } catch (err) {
    expect(err).toBeInstanceOf(RouterError);
    return err as RouterError;
  }
  throw new Error('expected a config error');
}

describe('preset config', () => {
  it.each(PRESET_NAMES)('%s fills the base URL, the key variable and the capabilities', (preset) => {
    const env = PRESETS[preset].apiKeyEnv ? { [PRESETS[preset].apiKeyEnv!]: 'k-0123456789abcdef' } : {};
    const p = resolve({ type: 'openai-compatible', preset }, env);
    expect(p).toMatchObject({ baseURL: PRESETS[preset].baseURL, capabilities: PRESETS[preset].capabilities });
    expect(p.apiKeyEnv).toBe(PRESETS[preset].apiKeyEnv);
    expect(p.resolvedApiKey).toBe(PRESETS[preset].apiKeyEnv ? 'k-0123456789abcdef' : undefined);
  });

  it('lets everything explicit in the config override the preset', () => {
    const p = resolve({ type: 'openai-compatible', preset: 'groq', baseURL: 'https://proxy.example/groq/v1', apiKeyEnv: 'MY_GROQ', capabilities: { embeddings: true, images: false } }, { MY_GROQ: 'gsk-0123456789' });
    expect(p).toMatchObject({ baseURL: 'https://proxy.example/groq/v1', apiKeyEnv: 'MY_GROQ', capabilities: { tools: true, jsonSchema: true, embeddings: true, images: false } });
    expect(p.resolvedApiKey).toBe('gsk-0123456789');
  });

  it('refuses an unknown preset, listing the valid ones', () => {
    const err = configError({ type: 'openai-compatible', preset: 'grok' });
    expect(err.kind).toBe('config');
    expect(err.message).toContain('providers.svc.preset: unknown preset (valid: groq, mistral, deepseek, openrouter, together, fireworks, xai, ollama, vllm)');
  });

  it("refuses a hosted preset whose key variable is not set, naming the provider and the variable but no value", () => {
    const err = configError({ type: 'openai-compatible', preset: 'openrouter' }, { OTHER: 'sk-or-v1-secret' });
    expect(err.message).toContain('providers.svc.apiKeyEnv: environment variable OPENROUTER_API_KEY is not set');
    expect(err.message).not.toContain('sk-or-v1-secret');
  });

  it('needs no key for the local servers, and a base URL only without a preset', () => {
    expect(resolve({ type: 'openai-compatible', preset: 'ollama' }).resolvedApiKey).toBeUndefined();
    expect(configError({ type: 'openai-compatible' }).message).toContain('providers.svc.baseURL: required for an openai-compatible provider without a preset');
  });
});

describe('preset rate-limit headers, read into the snapshot', () => {
  let up: Upstream;
  beforeEach(async () => {
    up = await startUpstream();
  });
  afterEach(async () => up.close());

  it.each([
    ['groq', { 'x-ratelimit-limit-requests': '14400', 'x-ratelimit-remaining-requests': '14370', 'x-ratelimit-reset-requests': '2m59.56s', 'x-ratelimit-limit-tokens': '6000', 'x-ratelimit-remaining-tokens': '5997', 'x-ratelimit-reset-tokens': '7.66s' },
      { requests: { limit: 14400, remaining: 14370, resetMs: 179_560 }, tokens: { limit: 6000, remaining: 5997, resetMs: 7660 } }],
    ['mistral', { 'x-ratelimitbysize-limit-minute': '500000', 'x-ratelimitbysize-remaining-minute': '499000', 'ratelimitbysize-reset': '12' },
      { tokens: { limit: 500_000, remaining: 499_000, resetMs: 12_000 } }],
    ['together', { 'x-ratelimit-limit': '10', 'x-ratelimit-remaining': '9', 'x-ratelimit-reset': '1', 'x-tokenlimit-limit': '20000', 'x-tokenlimit-remaining': '19000' },
      { requests: { limit: 10, remaining: 9, resetMs: 1000 }, tokens: { limit: 20_000, remaining: 19_000 } }],
    ['fireworks', { 'x-ratelimit-limit-tokens-prompt': '60000', 'x-ratelimit-remaining-tokens-prompt': '59000', 'x-ratelimit-limit-tokens-generated': '600', 'x-ratelimit-remaining-tokens-generated': '590' },
      { inputTokens: { limit: 60_000, remaining: 59_000 }, outputTokens: { limit: 600, remaining: 590 } }],
  ] as const)('%s', async (preset, headers, snapshot) => {
    up.script('/v1/chat/completions', { status: 200, headers, body: openaiCompletion() });
    const adapter = adapterFor('svc', { type: 'openai-compatible', preset, apiKey: 'k-0123456789abcdef', baseURL: `${up.url}/v1` });
    const res = await adapter.chat({ model: 'm', messages: [{ role: 'user', content: 'hi' }] }, {});
    expect(res.rateLimit).toEqual(snapshot);
    await adapter.close();
  });

  it("skips a preset target for what it cannot carry (DeepSeek and images) without sending it", async () => {
    up.otherwise('/backup/v1/chat/completions', () => openaiOk());
    const router = createRouter({
      providers: {
        svc: { type: 'openai-compatible', preset: 'deepseek', apiKey: 'k-0123456789abcdef', baseURL: `${up.url}/svc/v1` },
        backup: { type: 'openai', apiKey: 'sk-0123456789abcdef', baseURL: `${up.url}/backup/v1` },
      },
      chains: { default: ['svc:deepseek-chat', 'backup:gpt-4o'] },
    }, { logger: captureLogger().logger });
    const res = await router.chat({ messages: [{ role: 'user', content: [{ type: 'text', text: 'what is this?' }, { type: 'image', url: 'https://example.com/cat.png' }] }] });
    expect(res.attempts[0]).toMatchObject({ provider: 'svc', skipped: true, kind: 'unsupported' });
    expect(up.count('/svc/v1/chat/completions')).toBe(0);
    await router.close();
  });
});
