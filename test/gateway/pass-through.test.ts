import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { ANTHROPIC_PATH, OPENAI_PATH, openai429Headers, openaiBodies, openaiCompletion, openaiSuccessHeaders } from '../support/fixtures.js';
import type { Upstream } from '../support/upstream.js';
import { upstreamPerTest } from '../support/upstream-per-test.js';
import { VirtualClock } from '../support/virtual-clock.js';
import { startHarness, xHeaders, type Harness } from './gateway-harness.js';

let up: Upstream;
let h: Harness;
upstreamPerTest((u) => (up = u), () => h?.close());

const hello = [{ role: 'user' as const, content: 'Say hello' }];
const CENT_A_TOKEN = { inputPerMTok: 10_000, outputPerMTok: 10_000 };

/** The client's request exactly as the openai SDK puts it on the wire (its body is JSON.stringify of the params). */
const clientBytes = (params: Record<string, unknown>) => JSON.stringify(params);

describe('gateway pass-through: an OpenAI target gets the client\'s bytes, every decision stays', () => {
  it('sends the upstream the client\'s bytes with only model rewritten, and answers the upstream\'s body as it came', async () => {
    h = await startHarness(up);
    const body = { id: 'chatcmpl-upstream-own-id', object: 'chat.completion', created: 1_700_000_000, model: 'gpt-4o-mini', system_fingerprint: 'fp_pass', choices: [{ index: 0, message: { role: 'assistant', content: 'Hi there' }, logprobs: null, finish_reason: 'stop' }], usage: { prompt_tokens: 7, completion_tokens: 3, total_tokens: 10 } };
    up.script(OPENAI_PATH, { status: 200, headers: openaiSuccessHeaders, body });
    const params = { model: 'openai-only', messages: hello, temperature: 0.25, max_tokens: 40, seed: 7 };
    const response = await h.client().chat.completions.create(params).asResponse();
    expect(up.count(OPENAI_PATH)).toBe(1);
    expect(up.requests[0]!.text).toBe(clientBytes({ ...params, model: 'gpt-4o-mini' }));
    // What the upstream said, byte for byte: its id, fingerprint and usage (the translated path would mint an id).
    const text = await response.text();
    expect(text).toBe(JSON.stringify(body));
    const data = JSON.parse(text) as Record<string, unknown>;
    expect(data).toMatchObject({ id: 'chatcmpl-upstream-own-id', model: 'gpt-4o-mini', usage: { prompt_tokens: 7, completion_tokens: 3 } });
    expect(xHeaders(response.headers)).toMatchObject({ 'x-switchyard-provider': 'openai', 'x-switchyard-model': 'gpt-4o-mini', 'x-switchyard-attempts': '1' });
  });

  it('keeps the translated path for a body it would have to map (tools)', async () => {
    h = await startHarness(up);
    up.script(OPENAI_PATH, { status: 200, headers: openaiSuccessHeaders, body: openaiCompletion('ok') });
    const tool = { type: 'function' as const, function: { name: 'noop', parameters: { type: 'object', properties: {} } } };
    const { data } = await h.client().chat.completions.create({ model: 'openai-only', messages: hello, tools: [tool] }).withResponse();
    // The translated answer carries an id of the gateway's own, not the upstream's.
    expect(data.id).not.toBe(openaiCompletion('ok').id);
    expect(up.requests[0]!.body).toMatchObject({ model: 'gpt-4o-mini', tools: [{ type: 'function', function: { name: 'noop' } }] });
  });

  it('falls through on a 503 to the next target, which is Anthropic and gets a translated request', async () => {
    h = await startHarness(up, { retry: { baseDelayMs: 1, maxDelayMs: 2, maxAttempts: 1 } } as never);
    up.script(OPENAI_PATH, ...Array.from({ length: 3 }, () => ({ status: 503, body: openaiBodies.overloaded503 })));
    // max_tokens: the translated path would send openai max_completion_tokens, so the bytes tell the paths apart.
    const { data, response } = await h.client().chat.completions.create({ model: 'default', messages: hello, max_tokens: 40 }).withResponse();
    expect(response.headers.get('x-switchyard-provider')).toBe('anthropic');
    expect(Number(response.headers.get('x-switchyard-attempts'))).toBe(up.count(OPENAI_PATH) + 1);
    // Every openai attempt carried the client's bytes; Anthropic got its own Messages body.
    for (const seen of up.requests.filter((r) => r.path === OPENAI_PATH)) expect(seen.text).toBe(clientBytes({ model: 'gpt-4o-mini', messages: hello, max_tokens: 40 }));
    const anthropic = up.requests.find((r) => r.path === ANTHROPIC_PATH)!;
    expect(anthropic.body).toMatchObject({ model: 'claude-sonnet-4-6', messages: [{ role: 'user', content: 'Say hello' }] });
    expect(data.object).toBe('chat.completion');
    expect(data.model).toBe('claude-sonnet-4-6');
    expect(data.usage).toBeDefined();
  });

  it('cools a target on a 429: the next call skips it and nothing more goes to it', async () => {
    h = await startHarness(up, {}, {}, new VirtualClock());
    up.script(OPENAI_PATH, { status: 429, headers: openai429Headers, body: openaiBodies.rateLimitRequests });
    const params = { model: 'default', messages: hello, max_tokens: 40 };
    const first = await h.client().chat.completions.create(params).withResponse();
    expect(first.response.headers.get('x-switchyard-provider')).toBe('anthropic');
    const sentToOpenAI = up.count(OPENAI_PATH);
    expect(sentToOpenAI).toBe(1);
    expect(up.requests[0]!.text).toBe(clientBytes({ ...params, model: 'gpt-4o-mini' }));
    const second = await h.client().chat.completions.create(params).withResponse();
    expect(second.response.headers.get('x-switchyard-provider')).toBe('anthropic');
    expect(up.count(OPENAI_PATH)).toBe(sentToOpenAI);
    expect(up.count(ANTHROPIC_PATH)).toBe(2);
  });

  it('counts spend from the upstream\'s usage: a key past its budget after one pass-through answer is refused', async () => {
    // One cent a token: each upstream answer's usage (7 + 3 tokens) costs $0.10; a call reserves $0.13; the budget is $0.25.
    h = await startHarness(up, { prices: { 'gpt-4o-mini': CENT_A_TOKEN, 'claude-sonnet-4-6': CENT_A_TOKEN }, tenants: { default: { spend: { usdPerDay: 0.25 } } } } as never, {}, new VirtualClock());
    const usage = { prompt_tokens: 7, completion_tokens: 3, total_tokens: 10 };
    up.script(OPENAI_PATH, ...Array.from({ length: 2 }, () => ({ status: 200, headers: openaiSuccessHeaders, body: { ...openaiCompletion('Hi'), usage } })));
    const params = { model: 'openai-only', messages: hello, max_tokens: 3 };
    await h.client().chat.completions.create(params);
    expect(up.requests[0]!.text).toBe(clientBytes({ ...params, model: 'gpt-4o-mini' }));
    await h.client().chat.completions.create(params);
    const refused = await h.client().chat.completions.create(params).then(() => undefined, (e: unknown) => e as InstanceType<typeof OpenAI.APIError>);
    expect([refused?.status, refused?.code]).toEqual([429, 'budget_exceeded']);
    // What the two answers cost by the upstream's own usage, not by the reservation.
    expect(refused?.message).toContain('holds $0.2000 of $0.2500');
    expect(up.count(OPENAI_PATH)).toBe(2);
  });
});
