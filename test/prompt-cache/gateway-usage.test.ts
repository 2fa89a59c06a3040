import Anthropic from '@anthropic-ai/sdk';
import { describe, expect, it } from 'vitest';
import { ANTHROPIC_PATH, anthropicMessage, anthropicSuccessHeaders } from '../support/fixtures.js';
import type { Upstream } from '../support/upstream.js';
import { upstreamPerTest } from '../support/upstream-per-test.js';
import { startHarness, type Harness } from '../gateway/gateway-harness.js';

// Cache reads and writes an upstream reports, carried back on each gateway wire: /v1/messages
// (cache_read_input_tokens, cache_creation_input_tokens and the cache_creation split),
// /v1/chat/completions (prompt_tokens_details) and /v1/responses (input_tokens_details).

let up: Upstream;
let h: Harness;
upstreamPerTest((u) => (up = u), () => h?.close());

const CHAINS = { chains: { claude: ['anthropic:claude-sonnet-4-6'] } };

/** An Anthropic answer: 100 fresh, 2,000 read, 300 written for 5 minutes and 700 for an hour. */
function cachedAnswer() {
  const body = anthropicMessage('ok', 'claude-sonnet-4-6');
  Object.assign(body.usage, {
    input_tokens: 100, cache_read_input_tokens: 2_000, cache_creation_input_tokens: 1_000,
    cache_creation: { ephemeral_5m_input_tokens: 300, ephemeral_1h_input_tokens: 700 },
  });
  return { status: 200, headers: anthropicSuccessHeaders, body };
}

describe('cache usage on the gateway wires', () => {
  it('/v1/messages: reads, writes and the 5-minute / 1-hour split as Anthropic reports them', async () => {
    up.script(ANTHROPIC_PATH, cachedAnswer());
    h = await startHarness(up, CHAINS);
    const answer = await new Anthropic({ apiKey: 'sk-anything', baseURL: h.url, maxRetries: 0 }).messages.create({ model: 'claude', max_tokens: 50, messages: [{ role: 'user', content: 'hi' }] });
    expect(answer.usage).toMatchObject({
      input_tokens: 100, cache_read_input_tokens: 2_000, cache_creation_input_tokens: 1_000,
      cache_creation: { ephemeral_5m_input_tokens: 300, ephemeral_1h_input_tokens: 700 },
    });
    expect(up.count(ANTHROPIC_PATH)).toBe(1);
  });

  it('/v1/chat/completions and /v1/responses: reads and writes in the usage details, the input total counting both', async () => {
    up.script(ANTHROPIC_PATH, cachedAnswer(), cachedAnswer());
    h = await startHarness(up, CHAINS);
    const chat = await h.client().chat.completions.create({ model: 'claude', messages: [{ role: 'user', content: 'hi' }] });
    expect(chat.usage).toMatchObject({ prompt_tokens: 3_100, prompt_tokens_details: { cached_tokens: 2_000, cache_write_tokens: 1_000 } });
    const res = await h.client().responses.create({ model: 'claude', input: 'hi' });
    expect(res.usage).toMatchObject({ input_tokens: 3_100, input_tokens_details: { cached_tokens: 2_000, cache_write_tokens: 1_000 } });
    expect(up.count(ANTHROPIC_PATH)).toBe(2);
  });
});
