import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { promptTokens } from '../../providers/shared/answers/index.js';
import { ScenarioError, parseScenario } from '../../src/sim/index.js';
import { anthropicClient, errorOf, manualClock, openAIClient, useSimulators, user } from './helpers.js';

const start = useSimulators();
const MODEL = 'claude-haiku-4-5';
const messages = user('x'.repeat(400));
const prompt = promptTokens(messages); // 107

async function anthropic(limits: Record<string, number>, extra: Record<string, unknown> = {}) {
  const clock = manualClock();
  const sim = await start({ clock, providers: { anthropic: { type: 'anthropic', limits, ...extra } } });
  return { clock, sim, client: anthropicClient(sim) };
}

describe('Anthropic input and output token limits', () => {
  it('enforces ITPM on the prompt, with the input-tokens header family and the real 429 wording', async () => {
    const { client } = await anthropic({ itpm: 300 });
    const { response } = await client.messages.create({ model: MODEL, max_tokens: 50, messages }).withResponse();
    expect(prompt).toBe(107);
    expect(response.headers.get('anthropic-ratelimit-input-tokens-limit')).toBe('300');
    expect(response.headers.get('anthropic-ratelimit-input-tokens-remaining')).toBe(String(300 - prompt));
    expect(response.headers.get('anthropic-ratelimit-input-tokens-reset')).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
    await client.messages.create({ model: MODEL, max_tokens: 50, messages });
    const err = await errorOf(client.messages.create({ model: MODEL, max_tokens: 50, messages }));
    expect(err).toBeInstanceOf(Anthropic.RateLimitError);
    expect(err.error.error.message).toMatch(/^This request would exceed the rate limit for your organization \([0-9a-f-]{36}\) of 300 input tokens per minute\./);
    // 86 left, 107 wanted: 21 tokens at 300 a minute is 4.2 s.
    expect(err.headers.get('retry-after')).toBe('5');
  });

  it('charges OTPM max_tokens up front and gives back what the answer did not use', async () => {
    const { client, clock } = await anthropic({ otpm: 1_000 });
    const first = await client.messages.create({ model: MODEL, max_tokens: 990, messages }).withResponse();
    const used = first.data.usage.output_tokens;
    expect(first.response.headers.get('anthropic-ratelimit-output-tokens-remaining')).toBe(String(1_000 - used));
    const err = await errorOf(client.messages.create({ model: MODEL, max_tokens: 990, messages }));
    expect(err.status).toBe(429);
    expect(err.error.error.message).toContain('of 1,000 output tokens per minute.');
    clock.advance(Math.ceil(((990 - (1_000 - used)) * 60_000) / 1_000));
    await expect(client.messages.create({ model: MODEL, max_tokens: 990, messages })).resolves.toBeTruthy();
  });

  it('does not charge prompt-cache reads to ITPM', async () => {
    const cached = await anthropic({ itpm: 150 }, { promptCache: { readShare: 0.5 } });
    const { data, response } = await cached.client.messages.create({ model: MODEL, max_tokens: 50, messages }).withResponse();
    expect(data.usage.cache_read_input_tokens).toBe(53);
    expect(response.headers.get('anthropic-ratelimit-input-tokens-remaining')).toBe(String(150 - (prompt - 53)));
    await expect(cached.client.messages.create({ model: MODEL, max_tokens: 50, messages })).resolves.toBeTruthy();
    const uncached = await anthropic({ itpm: 150 });
    await uncached.client.messages.create({ model: MODEL, max_tokens: 50, messages });
    expect((await errorOf(uncached.client.messages.create({ model: MODEL, max_tokens: 50, messages }))).status).toBe(429);
  });

  it('enforces RPM at the same time, and reports the most restrictive window as tokens-*', async () => {
    const { client } = await anthropic({ rpm: 1, itpm: 200, otpm: 10_000, tpm: 50_000 });
    const { response } = await client.messages.create({ model: MODEL, max_tokens: 50, messages }).withResponse();
    expect(response.headers.get('anthropic-ratelimit-tokens-limit')).toBe('200');
    expect(response.headers.get('anthropic-ratelimit-tokens-remaining')).toBe(String(200 - prompt));
    const err = await errorOf(client.messages.create({ model: MODEL, max_tokens: 50, messages }));
    expect(err.error.error.message).toContain('of 1 requests per minute.');
  });

  it('sends both header families even without itpm and otpm', async () => {
    const { client } = await anthropic({});
    const { response } = await client.messages.create({ model: MODEL, max_tokens: 50, messages }).withResponse();
    for (const family of ['requests', 'tokens', 'input-tokens', 'output-tokens']) expect(response.headers.get(`anthropic-ratelimit-${family}-limit`)).not.toBeNull();
  });

  it('refuses itpm and otpm on an openai provider', () => {
    expect(() => parseScenario({ providers: { a: { type: 'openai', limits: { itpm: 5 } } } }, 'x.json')).toThrow(ScenarioError);
    expect(() => parseScenario({ providers: { a: { type: 'openai', limits: { itpm: 5 } } } }, 'x.json')).toThrow(/providers\.a\.limits: itpm and otpm are Anthropic limits/);
  });
});

describe('quantised enforcement (limits.quantumMs) on both APIs', () => {
  it('OpenAI: 600 RPM enforced per second admits 10 in a burst, one more 100 ms later, headers still saying 600', async () => {
    const clock = manualClock();
    const sim = await start({ clock, providers: { openai: { type: 'openai', limits: { rpm: 600, quantumMs: 1_000 } } } });
    const client = openAIClient(sim);
    const settled = await Promise.allSettled(Array.from({ length: 12 }, () => client.chat.completions.create({ model: 'gpt-4o-mini', messages: user('hi') })));
    expect(settled.filter((s) => s.status === 'fulfilled')).toHaveLength(10);
    const rejected = settled.find((s) => s.status === 'rejected') as PromiseRejectedResult;
    expect(rejected.reason).toBeInstanceOf(OpenAI.RateLimitError);
    expect(rejected.reason.headers.get('x-ratelimit-limit-requests')).toBe('600');
    clock.advance(300);
    await expect(client.chat.completions.create({ model: 'gpt-4o-mini', messages: user('hi') })).resolves.toBeTruthy();
  });

  it('Anthropic: the quantum applies to requests and to ITPM alike', async () => {
    const { client, clock } = await anthropic({ rpm: 600, itpm: 60_000, quantumMs: 1_000 });
    const settled = await Promise.allSettled(Array.from({ length: 12 }, () => client.messages.create({ model: MODEL, max_tokens: 10, messages: user('hi') })));
    expect(settled.filter((s) => s.status === 'fulfilled')).toHaveLength(10);
    clock.advance(300);
    await client.messages.create({ model: MODEL, max_tokens: 10, messages: user('hi') });
    // ITPM per second is 1,000: a 1,007-token prompt never fits the quantum.
    const big = await errorOf(client.messages.create({ model: MODEL, max_tokens: 10, messages: user('y'.repeat(4_000)) }));
    expect(big.status).toBe(429);
    expect(big.error.error.message).toContain('of 60,000 input tokens per minute.');
    expect(big.headers.get('x-should-retry')).toBe('false');
  });
});

describe('an account another process has just spent (limits.startEmpty)', () => {
  it('empties every window at the first request, then refills them continuously: a request every 1.2 s at 50 RPM', async () => {
    const clock = manualClock();
    const sim = await start({ clock, providers: { anthropic: { type: 'anthropic', limits: { rpm: 50, otpm: 16_000, startEmpty: true } } } });
    const client = anthropicClient(sim);
    // Idle minutes before the first request change nothing: the buckets empty when it arrives.
    clock.advance(300_000);
    const err = await errorOf(client.messages.create({ model: MODEL, max_tokens: 50, messages }));
    expect(err.status).toBe(429);
    expect(err.error.error.message).toContain('of 50 requests per minute.');
    expect(err.headers.get('anthropic-ratelimit-requests-remaining')).toBe('0');
    expect(err.headers.get('anthropic-ratelimit-output-tokens-remaining')).toBe('0');
    // Full again a whole window from now (RFC 3339, whole seconds), and one request back in 1.2 s.
    expect(Date.parse(err.headers.get('anthropic-ratelimit-output-tokens-reset')!)).toBe(Math.ceil((clock.now() + 60_000) / 1000) * 1000);
    expect(err.headers.get('retry-after')).toBe('2');
    for (let i = 0; i < 3; i++) {
      clock.advance(1_200);
      const { response } = await client.messages.create({ model: MODEL, max_tokens: 50, messages }).withResponse();
      expect(response.headers.get('anthropic-ratelimit-requests-remaining')).toBe('0');
    }
    expect(sim.stats().providers.anthropic!.byStatus).toEqual({ 200: 3, 429: 1 });
  });

  it('starts full without it', async () => {
    const { client } = await anthropic({ rpm: 50 });
    const { response } = await client.messages.create({ model: MODEL, max_tokens: 50, messages }).withResponse();
    expect(response.headers.get('anthropic-ratelimit-requests-remaining')).toBe('49');
  });
});
