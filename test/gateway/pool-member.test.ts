import { describe, expect, it } from 'vitest';
import { ANTHROPIC_PATH, OPENAI_PATH, anthropicOk } from '../support/fixtures.js';
import { anthropicSse } from '../support/sse.js';
import type { Upstream } from '../support/upstream.js';
import { upstreamPerTest } from '../support/upstream-per-test.js';
import { startHarness, xHeaders, type Harness } from './gateway-harness.js';

let up: Upstream;
let h: Harness;
upstreamPerTest((u) => (up = u), () => h?.close());

const hello = [{ role: 'user' as const, content: 'Say hello' }];

describe('a weighted pool behind the gateway', () => {
  it('names the member that answered in x-switchyard-provider and -model, for a chat and a stream', async () => {
    h = await startHarness(up, {
      chains: { default: [{ pool: ['openai:gpt-4o-mini', 'anthropic:claude-sonnet-4-6'], pick: 'weighted', weights: { 'openai:gpt-4o-mini': 0, 'anthropic:claude-sonnet-4-6': 1 } }] },
    });
    up.otherwise(ANTHROPIC_PATH, (req) => (req.body.stream ? { status: 200, sse: anthropicSse(['Hello']) } : anthropicOk()));
    const { response } = await h.client().chat.completions.create({ model: 'default', messages: hello }).withResponse();
    expect(xHeaders(response.headers)).toMatchObject({ 'x-switchyard-provider': 'anthropic', 'x-switchyard-model': 'claude-sonnet-4-6' });
    const streamed = await h.client().chat.completions.create({ model: 'default', messages: hello, stream: true }).withResponse();
    for await (const _ of streamed.data) { /* drain */ }
    expect(xHeaders(streamed.response.headers)).toMatchObject({ 'x-switchyard-provider': 'anthropic', 'x-switchyard-model': 'claude-sonnet-4-6' });
    expect([up.count(OPENAI_PATH), up.count(ANTHROPIC_PATH)]).toEqual([0, 2]);
  });
});
