import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { promptTokens } from '../../providers/shared/answers/index.js';
import { parseGoDurationMs, resetValueMs } from '../../providers/shared/reset-value.js';
import { anthropicClient, errorOf, manualClock, openAIClient, useSimulators, user } from './helpers.js';

const start = useSimulators();
const messages = user('hello');

async function burst(n: number, send: () => Promise<unknown>): Promise<{ ok: number; errors: any[] }> {
  const settled = await Promise.allSettled(Array.from({ length: n }, send));
  return { ok: settled.filter((s) => s.status === 'fulfilled').length, errors: settled.flatMap((s) => (s.status === 'rejected' ? [s.reason] : [])) };
}

describe('RPM limits', () => {
  it('admits exactly the configured RPM in a window, whatever the burst, and again in the next window', async () => {
    const clock = manualClock();
    const sim = await start({ clock, providers: { openai: { type: 'openai', limits: { rpm: 5 } } } });
    const client = openAIClient(sim);
    const first = await burst(8, () => client.chat.completions.create({ model: 'gpt-4o-mini', messages }));
    expect(first.ok).toBe(5);
    expect(first.errors.every((e) => e instanceof OpenAI.RateLimitError)).toBe(true);
    clock.advance(60_000);
    expect((await burst(8, () => client.chat.completions.create({ model: 'gpt-4o-mini', messages }))).ok).toBe(5);
    expect(sim.stats().providers.openai).toMatchObject({ requests: 16, rateLimited: 6, byStatus: { 200: 10, 429: 6 } });
  });

  it('answers an OpenAI 429 with the real body, retry-after in seconds and x-ratelimit resets as Go durations', async () => {
    const clock = manualClock();
    const sim = await start({ clock, providers: { openai: { type: 'openai', limits: { rpm: 3, tpm: 40_000 } } } });
    const client = openAIClient(sim);
    for (let i = 0; i < 3; i++) await client.chat.completions.create({ model: 'gpt-4o-mini', messages });
    const err = await errorOf(client.chat.completions.create({ model: 'gpt-4o-mini', messages }));
    expect(err).toBeInstanceOf(OpenAI.RateLimitError);
    expect(err).toMatchObject({ status: 429, code: 'rate_limit_exceeded', type: 'requests', param: null });
    expect(err.error.message).toMatch(/^Rate limit reached for gpt-4o-mini in organization org-\w+ on requests per min \(RPM\): Limit 3, Used 3, Requested 1\. Please try again in 20s\. Visit https:\/\/platform\.openai\.com\/account\/rate-limits to learn more\.$/);
    const h = (name: string) => err.headers.get(name);
    expect(h('retry-after')).toBe('20');
    expect(h('x-request-id')).toBe(err.requestID);
    expect(h('x-request-id')).toMatch(/^req_[0-9a-f]{32}$/);
    expect([h('x-ratelimit-limit-requests'), h('x-ratelimit-remaining-requests'), h('x-ratelimit-reset-requests')]).toEqual(['3', '0', '1m0s']);
    expect(parseGoDurationMs(h('x-ratelimit-reset-tokens')!)).toBeGreaterThan(0);
    expect(Number(h('x-ratelimit-remaining-tokens'))).toBeGreaterThan(39_000);

    clock.advance(20_000); // exactly the retry-after
    await expect(client.chat.completions.create({ model: 'gpt-4o-mini', messages })).resolves.toBeTruthy();
  });

  it('leaves retry-after off an OpenAI 429 when configured to, as the real API often does, keeping the reset headers', async () => {
    const sim = await start({ providers: { openai: { type: 'openai', retryAfter: false, limits: { rpm: 1 } } } });
    const client = openAIClient(sim);
    await client.chat.completions.create({ model: 'gpt-4o-mini', messages });
    const err = await errorOf(client.chat.completions.create({ model: 'gpt-4o-mini', messages }));
    expect(err.status).toBe(429);
    expect(err.headers.get('retry-after')).toBeNull();
    expect(err.headers.get('x-ratelimit-reset-requests')).toBe('1m0s');
  });

  it('answers an Anthropic 429 with rate_limit_error, retry-after and RFC 3339 resets', async () => {
    const clock = manualClock(Date.parse('2026-11-29T12:00:00Z'));
    const sim = await start({ clock, providers: { anthropic: { type: 'anthropic', limits: { rpm: 2 } } } });
    const client = anthropicClient(sim);
    const { ok, errors } = await burst(3, () => client.messages.create({ model: 'claude-haiku-4-5', max_tokens: 50, messages }));
    expect(ok).toBe(2);
    const [err] = errors;
    expect(err).toBeInstanceOf(Anthropic.RateLimitError);
    expect(err.error).toMatchObject({ type: 'error', error: { type: 'rate_limit_error' }, request_id: err.requestID });
    expect(err.error.error.message).toMatch(/^This request would exceed the rate limit for your organization \([0-9a-f-]{36}\) of 2 requests per minute\./);
    const h = (name: string) => err.headers.get(name);
    expect(h('retry-after')).toBe('30');
    expect(h('request-id')).toMatch(/^req_011C/);
    expect(h('anthropic-ratelimit-requests-remaining')).toBe('0');
    expect(h('anthropic-ratelimit-requests-reset')).toBe('2026-11-29T12:01:00Z');
    expect(resetValueMs(h('anthropic-ratelimit-requests-reset'), clock.now())).toBe(60_000);
    expect(h('x-should-retry')).toBe('true');
  });
});

describe('TPM limits', () => {
  it('charges prompt tokens plus the max_tokens reservation and names the tokens window when it runs out', async () => {
    const clock = manualClock();
    const sim = await start({ clock, providers: { openai: { type: 'openai', limits: { tpm: 1_000 } } } });
    const client = openAIClient(sim);
    const charge = promptTokens(messages) + 600;
    await client.chat.completions.create({ model: 'gpt-4o-mini', messages, max_completion_tokens: 600 });
    const err = await errorOf(client.chat.completions.create({ model: 'gpt-4o-mini', messages, max_completion_tokens: 600 }));
    expect(err).toMatchObject({ status: 429, type: 'tokens', code: 'rate_limit_exceeded' });
    const waitMs = Math.ceil(((2 * charge - 1_000) * 60_000) / 1_000);
    expect(err.error.message).toContain(`on tokens per min (TPM): Limit 1000, Used ${charge}, Requested ${charge}. Please try again in ${waitMs / 1000}s.`);
    expect(err.headers.get('retry-after')).toBe(String(Math.ceil(waitMs / 1000)));
    clock.advance(waitMs);
    await expect(client.chat.completions.create({ model: 'gpt-4o-mini', messages, max_completion_tokens: 600 })).resolves.toBeTruthy();
  });

  it('answers a request larger than the whole TPM with "Request too large" and no retry-after', async () => {
    const sim = await start({ providers: { openai: { type: 'openai', limits: { tpm: 500 } } } });
    const err = await errorOf(openAIClient(sim).chat.completions.create({ model: 'gpt-4o-mini', messages, max_completion_tokens: 1_000 }));
    expect(err).toMatchObject({ status: 429, type: 'tokens', code: 'rate_limit_exceeded' });
    expect(err.error.message).toMatch(/^Request too large for gpt-4o-mini in organization org-\w+ on tokens per min \(TPM\): Limit 500, Requested \d+\. The input or output tokens must be reduced/);
    expect(err.headers.get('retry-after')).toBeNull();
  });
});

describe('which responses carry the rate-limit headers', () => {
  it.each([
    ['always', true, true],
    ['success-and-429', true, false],
    ['success-only', false, false],
  ] as const)('%s: on a 429 %s, on a 503 %s, and always on a success', async (mode, on429, on503) => {
    const sim = await start({ providers: { openai: { type: 'openai', rateLimitHeaders: mode, limits: { rpm: 1 }, faults: [{ fault: 'unavailable', nth: 3 }] } } });
    const client = openAIClient(sim);
    const { response } = await client.chat.completions.create({ model: 'gpt-4o-mini', messages }).withResponse();
    expect(response.headers.get('x-ratelimit-remaining-requests')).toBe('0');
    const limited = await errorOf(client.chat.completions.create({ model: 'gpt-4o-mini', messages }));
    const down = await errorOf(client.chat.completions.create({ model: 'gpt-4o-mini', messages }));
    expect([limited.status, down.status]).toEqual([429, 503]);
    expect(limited.headers.get('x-ratelimit-reset-requests') !== null).toBe(on429);
    expect(down.headers.get('x-ratelimit-reset-requests') !== null).toBe(on503);
    expect(down.headers.get('x-request-id')).toMatch(/^req_/);
  });
});
