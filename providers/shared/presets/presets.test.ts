import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SwitchyardConfig } from '../../../src/config/index.js';
import { createRouter, type Router } from '../../../src/router.js';
import { captureLogger } from '../../../test/support/capture-logger.js';
import { openaiOk } from '../../../test/support/fixtures.js';
import { openaiSse } from '../../../test/support/sse.js';
import { startUpstream, type Reply, type Upstream } from '../../../test/support/upstream.js';
import { VirtualClock } from '../../../src/testing/virtual-clock.js';
import type { PresetName } from './catalog.js';
import { deepseek, fireworks, groq, mistral, ollama, openrouter, together, vllm, xai, type WireError } from './wire-fixtures.js';

// Each preset against its documented error shapes, through the real openai SDK and the whole
// router: the decision (wait on the hint, park on credits, fall through, never retry a 400) is
// read off what reached the upstream and what the virtual clock slept.

const SVC = '/svc/v1/chat/completions';
const BACKUP = '/backup/v1/chat/completions';
const ask = { messages: [{ role: 'user' as const, content: 'Say hello' }] };

let up: Upstream;
let router: Router | undefined;
let clock: VirtualClock;
beforeEach(async () => {
  up = await startUpstream();
  up.otherwise(SVC, () => openaiOk('from the preset'));
  up.otherwise(BACKUP, () => openaiOk('from the backup'));
  clock = new VirtualClock();
});
afterEach(async () => {
  await router?.close();
  router = undefined;
  await up.close();
});

function routeThrough(preset: PresetName): Router {
  const config: SwitchyardConfig = {
    providers: {
      svc: { type: 'openai-compatible', preset, apiKey: 'svc-key-0123456789abcdef', baseURL: `${up.url}/svc/v1` },
      backup: { type: 'openai', apiKey: 'sk-backup-0123456789abcdef', baseURL: `${up.url}/backup/v1`, timeoutMs: 60_000 },
    },
    chains: { default: ['svc:some-model', 'backup:gpt-4o-mini'] },
    retry: { maxAttempts: 2, baseDelayMs: 100, maxDelayMs: 400 },
  };
  router = createRouter(config, { logger: captureLogger().logger, clock, random: () => 0 });
  return router;
}

const reply = (e: WireError): Reply => ({ status: e.status, headers: e.headers, body: e.body });
const counts = () => [up.count(SVC), up.count(BACKUP)];

type Case = [preset: PresetName, what: string, error: () => WireError];

describe('presets: a 429 with a hint waits on the hint and retries the same target', () => {
  it.each<[PresetName, string, () => WireError, number]>([
    ['groq', 'retry-after on a TPM 429', () => groq.rateLimited('2'), 2000],
    ['mistral', 'the spent per-minute token window (ratelimitbysize-reset, seconds)', () => mistral.rateLimited, 3000],
    ['openrouter', 'X-RateLimit-Reset in Unix milliseconds', () => openrouter.rateLimited(clock.now() + 4000), 4000],
    ['together', 'the spent request window (x-ratelimit-reset, seconds)', () => together.rateLimited, 2000],
    ['fireworks', 'retry-after over the adaptive limit', () => fireworks.rateLimited, 1000],
    ['xai', 'retry-after', () => xai.rateLimited, 2000],
  ])('%s: %s', async (preset, _what, error, waitMs) => {
    const r = routeThrough(preset);
    up.script(SVC, reply(error()));
    const res = await r.chat(ask);
    expect(res.provider).toBe('svc');
    expect(clock.sleeps).toEqual([waitMs]);
    expect(counts()).toEqual([2, 0]);
  });

  it('groq: a spent window whose reset is past the inline wait (7.66s) falls through at once and cools the target', async () => {
    const r = routeThrough('groq');
    up.script(SVC, reply(groq.rateLimited()));
    expect((await r.chat(ask)).provider).toBe('backup');
    expect(clock.sleeps).toEqual([]);
    expect((await r.chat(ask)).attempts[0]).toMatchObject({ provider: 'svc', skipped: true, kind: 'rate_limited' });
    expect(counts()).toEqual([1, 2]);
  });
});

describe('presets: credits and balance errors park the provider and fall through', () => {
  it.each<Case>([
    ['deepseek', '402 Insufficient Balance', () => deepseek.insufficientBalance],
    ['openrouter', '402 insufficient credits', () => openrouter.insufficientCredits],
    ['together', '402 monthly spending limit', () => together.spendingLimit],
    ['mistral', '429 with the monthly token window spent', () => mistral.monthlyLimit],
    ['xai', '429 whose bare-string body says the credits are gone', () => xai.creditsExhausted],
    ['xai', "403 for a team that doesn't have any credits", () => xai.noCredits],
  ])('%s: %s', async (preset, _what, error) => {
    const r = routeThrough(preset);
    up.script(SVC, reply(error()));
    const first = await r.chat(ask);
    expect(first.provider).toBe('backup');
    expect(first.attempts[0]).toMatchObject({ provider: 'svc', ok: false, kind: 'quota_exhausted' });
    // Parked: the next call skips it without a request.
    const second = await r.chat(ask);
    expect(second.attempts[0]).toMatchObject({ provider: 'svc', skipped: true, kind: 'quota_exhausted' });
    expect(counts()).toEqual([1, 2]);
    expect(clock.sleeps).toEqual([]);
  });
});

describe('presets: server failures and capacity are retried with backoff, then fall through', () => {
  it.each<Case>([
    ['groq', '498 flex tier capacity exceeded', () => groq.flexCapacity],
    ['deepseek', '503 server overloaded', () => deepseek.overloaded],
    ['together', '503 engine overloaded', () => together.overloaded],
    ['fireworks', '503 service overloaded (load shed)', () => fireworks.overloaded],
    ['ollama', '500 runner terminated', () => ollama.serverError],
    ['vllm', '503 with a numeric code', () => vllm.overloaded],
    ['openrouter', 'a 200 whose choices[0].error says the upstream provider failed', () => openrouter.embeddedProviderError],
  ])('%s: %s', async (preset, _what, error) => {
    const r = routeThrough(preset);
    up.script(SVC, reply(error()), reply(error()));
    const res = await r.chat(ask);
    expect(res.provider).toBe('backup');
    expect(res.attempts.slice(0, 2)).toMatchObject([{ provider: 'svc', kind: 'server' }, { provider: 'svc', kind: 'server' }]);
    expect(clock.sleeps).toEqual([50]);
    expect(counts()).toEqual([2, 1]);
  });
});

describe('presets: a request the service refuses is thrown at once, never retried, never fallen through', () => {
  it.each<[...Case, string]>([
    ['groq', '400 invalid_request_error', () => groq.badRequest, 'bad_request'],
    ['mistral', "400 in Mistral's top-level error object (the message survives the SDK)", () => mistral.contextLength, 'context_length'],
    ['deepseek', '422 invalid parameters', () => deepseek.invalidParameters, 'bad_request'],
    ['together', '403 naming the context length', () => together.contextLength, 'context_length'],
    ['openrouter', '403 moderation flag', () => openrouter.moderation, 'content_filter'],
    ['ollama', '404 model not found', () => ollama.modelNotFound, 'not_found'],
    ['vllm', "400 in vLLM's top-level error object with a numeric code", () => vllm.contextLengthTopLevel, 'context_length'],
  ])('%s: %s', async (preset, _what, error, kind) => {
    const r = routeThrough(preset);
    up.script(SVC, reply(error()));
    const err = await r.chat(ask).then(() => undefined, (e: unknown) => e);
    expect(err).toMatchObject({ kind, provider: 'svc' });
    expect(typeof (err as { code?: unknown }).code === 'number').toBe(false);
    expect(counts()).toEqual([1, 0]);
  });
});

describe('presets: OpenRouter errors inside a 200 stream', () => {
  it('falls through when the error chunk comes before any content', async () => {
    const r = routeThrough('openrouter');
    up.script(SVC, { sse: [openrouter.midStreamError(502, 'provider_unavailable', 'Provider returned error')] }, { sse: [openrouter.midStreamError(502, 'provider_unavailable', 'Provider returned error')] });
    up.script(BACKUP, { sse: openaiSse(['from', ' the backup']) });
    const events = [];
    for await (const event of r.stream(ask)) events.push(event);
    expect(events.at(-1)).toMatchObject({ type: 'done', result: { provider: 'backup', text: 'from the backup' } });
    expect(counts()).toEqual([2, 1]);
  });

  it('ends as interrupted, with the typed error, when it comes after content', async () => {
    const r = routeThrough('openrouter');
    const [role, hello] = openaiSse(['Hello']);
    up.script(SVC, { sse: [role!, hello!, openrouter.midStreamError(429, 'rate_limit_exceeded', 'Rate limit exceeded')] });
    const events = [];
    for await (const event of r.stream(ask)) events.push(event);
    expect(events.at(-1)).toMatchObject({ type: 'interrupted', text: 'Hello', error: { kind: 'rate_limited', code: 'rate_limit_exceeded' } });
    expect(counts()).toEqual([1, 0]);
  });
});
