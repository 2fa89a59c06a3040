import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { ANTHROPIC_PATH, openai429Headers, openaiBodies } from '../../support/fixtures.js';
import type { Upstream } from '../../support/upstream.js';
import { anthropicSse } from '../../support/sse.js';
import { upstreamPerTest } from '../../support/upstream-per-test.js';
import { VirtualClock } from '../../support/virtual-clock.js';
import { startHarness, xHeaders, type Harness } from '../gateway-harness.js';
import { RESPONSES_PATH, functionCallItem, responsesErrorEvent, messageItem, responseObject, responsesTextSse, responsesToolSse } from '../../../providers/test-support/responses-wire.js';

// POST /v1/responses on the pass-through path: a chain whose target is OpenAI on the Responses API
// gets the client's bytes (only `model` rewritten) and the client gets the upstream's, through the
// real openai SDK against a real gateway; every decision (fall-through, cooling) stays.

let up: Upstream;
let h: Harness;
upstreamPerTest((u) => (up = u), () => h?.close());

const UPSTREAM_ID = 'resp_67ca09c5efe0819096d0511c92b8c890096610f474011cc0';

/** A gateway whose `responses` chain is OpenAI on the Responses API (gpt-4.1: not a reasoning model), then Anthropic. */
function start(passThrough = true, clock?: VirtualClock) {
  return startHarness(up, {
    providers: {
      openai: { type: 'openai', api: 'responses', apiKey: 'sk-proj-pass-0123456789abcdef', baseURL: `${up.url}/v1`, timeoutMs: 5_000 },
      anthropic: { type: 'anthropic', apiKey: 'sk-ant-pass-0123456789abcdef', baseURL: up.url, timeoutMs: 5_000 },
    },
    chains: { default: ['openai:gpt-4.1', 'anthropic:claude-sonnet-4-6'], 'openai-only': ['openai:gpt-4.1'] },
    retry: { baseDelayMs: 1, maxDelayMs: 2, maxAttempts: 1 },
  } as never, { passThrough }, clock);
}

/** The client's request exactly as the openai SDK puts it on the wire (JSON.stringify of the params). */
const clientBytes = (params: Record<string, unknown>) => JSON.stringify(params);

describe('Responses pass-through: a target on the Responses API gets the client\'s bytes, every decision stays', () => {
  it('sends the client\'s bytes with only model rewritten and answers the upstream\'s body byte for byte; the answer is kept under the upstream\'s id', async () => {
    h = await start();
    const body = responseObject([messageItem('Hi there')], { model: 'gpt-4.1-2025-04-14', store: true });
    up.script(RESPONSES_PATH, { status: 200, headers: { 'x-request-id': 'req_up_pass' }, body }, { status: 200, body: responseObject([messageItem('Again')]) });
    const params = { model: 'openai-only', instructions: 'Be brief.', input: 'Say hello', max_output_tokens: 40, temperature: 0.25 };
    const response = await h.client().responses.create(params).asResponse();
    expect(up.count(RESPONSES_PATH)).toBe(1);
    expect(up.requests[0]!.text).toBe(clientBytes({ ...params, model: 'gpt-4.1' }));
    expect(await response.text()).toBe(JSON.stringify(body));
    expect(xHeaders(response.headers)).toMatchObject({ 'x-switchyard-provider': 'openai', 'x-switchyard-model': 'gpt-4.1', 'x-switchyard-attempts': '1' });
    // GET /v1/responses/{id} answers it as the client got it; previous_response_id continues it (from the gateway's store: translated).
    const got = await h.client().responses.retrieve(UPSTREAM_ID).asResponse();
    expect(await got.json()).toEqual(body);
    await h.client().responses.create({ model: 'openai-only', previous_response_id: UPSTREAM_ID, input: 'Once more' });
    const second = up.requests[1]!.body;
    expect(second.store).toBe(false);
    expect(second).not.toHaveProperty('instructions');
    expect(second.input).toEqual([{ role: 'user', content: 'Say hello' }, { role: 'assistant', content: 'Hi there' }, { role: 'user', content: 'Once more' }]);
  });

  it('takes the translated path for a body the blocker refuses (a tool without strict), and with passThrough off', async () => {
    h = await start();
    up.script(RESPONSES_PATH, { status: 200, body: responseObject([messageItem('ok')]) }, { status: 200, body: responseObject([messageItem('ok')]) });
    const tool = { type: 'function' as const, name: 'noop', parameters: { type: 'object', properties: {} } } as unknown as OpenAI.Responses.FunctionTool;
    const data = await h.client().responses.create({ model: 'openai-only', input: 'Hi', tools: [tool] });
    // The translated answer carries an id of the gateway's own; the upstream got the router's body.
    expect(data.id).not.toBe(UPSTREAM_ID);
    expect(up.requests[0]!.body).toMatchObject({ model: 'gpt-4.1', store: false, tools: [{ type: 'function', name: 'noop', strict: false }] });
    await h.close();
    h = await start(false);
    const plain = await h.client().responses.create({ model: 'openai-only', input: 'Hi' });
    expect(plain.id).not.toBe(UPSTREAM_ID);
    expect(up.requests[1]!.body).toMatchObject({ model: 'gpt-4.1', store: false, input: [{ role: 'user', content: 'Hi' }] });
  });

  it('falls through on a 503 to Anthropic, which gets a translated request', async () => {
    h = await start();
    up.script(RESPONSES_PATH, { status: 503, body: openaiBodies.overloaded503 });
    const params = { model: 'default', input: 'Say hello', max_output_tokens: 40 };
    const { data, response } = await h.client().responses.create(params).withResponse();
    expect(response.headers.get('x-switchyard-provider')).toBe('anthropic');
    expect(up.count(RESPONSES_PATH)).toBe(1);
    expect(up.requests[0]!.text).toBe(clientBytes({ ...params, model: 'gpt-4.1' }));
    const anthropic = up.requests.find((r) => r.path === ANTHROPIC_PATH)!;
    expect(anthropic.body).toMatchObject({ model: 'claude-sonnet-4-6', max_tokens: 40, messages: [{ role: 'user', content: 'Say hello' }] });
    expect(data.object).toBe('response');
    expect(data.model).toBe('claude-sonnet-4-6');
  });

  it('cools a target on a 429: the next call skips it and nothing more goes to it', async () => {
    h = await start(true, new VirtualClock());
    up.script(RESPONSES_PATH, { status: 429, headers: openai429Headers, body: openaiBodies.rateLimitRequests });
    const params = { model: 'default', input: 'Say hello' };
    const first = await h.client().responses.create(params).withResponse();
    expect(first.response.headers.get('x-switchyard-provider')).toBe('anthropic');
    expect(up.count(RESPONSES_PATH)).toBe(1);
    expect(up.requests[0]!.text).toBe(clientBytes({ ...params, model: 'gpt-4.1' }));
    const second = await h.client().responses.create(params).withResponse();
    expect(second.response.headers.get('x-switchyard-provider')).toBe('anthropic');
    expect(up.count(RESPONSES_PATH)).toBe(1);
    expect(up.count(ANTHROPIC_PATH)).toBe(2);
  });

  it('streams the upstream\'s events byte for byte, and keeps the streamed answer for previous_response_id', async () => {
    h = await start();
    const frames = responsesTextSse(['Hel', 'lo']);
    up.script(RESPONSES_PATH, { sse: frames }, { status: 200, body: responseObject([messageItem('Again')]) });
    const params = { model: 'openai-only', input: 'Say hello', stream: true };
    const response = await h.client().responses.create(params).asResponse();
    expect(await response.text()).toBe(frames.map((f) => `${f}\n\n`).join(''));
    expect(up.requests[0]!.text).toBe(clientBytes({ ...params, model: 'gpt-4.1' }));
    await h.client().responses.create({ model: 'openai-only', previous_response_id: UPSTREAM_ID, input: 'More' });
    expect(up.requests[1]!.body.input).toEqual([{ role: 'user', content: 'Say hello' }, { role: 'assistant', content: 'Hello' }, { role: 'user', content: 'More' }]);
  });

  it('commits a stream at its first visible output: a failure before it falls through, the SDK reads the relayed tool call', async () => {
    h = await start();
    up.script(RESPONSES_PATH, { status: 503, body: openaiBodies.overloaded503 });
    up.script(ANTHROPIC_PATH, { sse: anthropicSse(['From the ', 'backup.']) });
    let text = '';
    for await (const e of await h.client().responses.create({ model: 'default', input: 'hi', stream: true })) if (e.type === 'response.output_text.delta') text += e.delta;
    expect(up.count(ANTHROPIC_PATH)).toBe(1);
    expect(text).toBe('From the backup.');
    const frames = responsesToolSse('get_weather', ['{"city":', '"Oslo"}']);
    up.script(RESPONSES_PATH, { sse: frames });
    const tool = { type: 'function' as const, name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'], additionalProperties: false }, strict: true };
    const final = await h.client().responses.stream({ model: 'openai-only', input: 'Weather?', tools: [tool] }).finalResponse();
    expect(final.id).toBe(UPSTREAM_ID);
    // The SDK's helper checked every relayed event against the items it had seen, and parsed the arguments.
    expect(final.output).toMatchObject([{ ...functionCallItem('get_weather', '{"city":"Oslo"}', 'call_c1', 'fc_1'), parsed_arguments: { city: 'Oslo' } }]);
  });

  it('falls through on an error event before the first output: the client sees none of the upstream\'s events', async () => {
    h = await start();
    up.script(RESPONSES_PATH, { sse: [responsesTextSse(['x'])[0]!, responsesErrorEvent()] });
    up.script(ANTHROPIC_PATH, { sse: anthropicSse(['From the ', 'backup.']) });
    const response = await h.client().responses.create({ model: 'default', input: 'hi', stream: true }).asResponse();
    expect(response.headers.get('x-switchyard-provider')).toBe('anthropic');
    const text = await response.text();
    expect(text).not.toContain(UPSTREAM_ID);
    expect(text).toContain('From the ');
    expect(up.count(RESPONSES_PATH)).toBe(1);
  });

  it('counts spend from the upstream\'s usage: a key past its budget after one pass-through answer is refused', async () => {
    // One cent a token: the upstream's usage (19 + 10 tokens) costs $0.29 an answer, more than a call reserves; the budget is $0.50.
    const cent = { inputPerMTok: 10_000, outputPerMTok: 10_000 };
    h = await startHarness(up, {
      providers: { openai: { type: 'openai', api: 'responses', apiKey: 'sk-proj-pass-0123456789abcdef', baseURL: `${up.url}/v1`, timeoutMs: 5_000 } },
      chains: { default: ['openai:gpt-4.1'] },
      prices: { 'gpt-4.1': cent }, tenants: { default: { spend: { usdPerDay: 0.5 } } },
    } as never, {}, new VirtualClock());
    up.script(RESPONSES_PATH, ...Array.from({ length: 2 }, () => ({ status: 200, body: responseObject([messageItem('Hi')]) })));
    const params = { model: 'default', input: 'Hi', max_output_tokens: 3 };
    await h.client().responses.create(params);
    expect(up.requests[0]!.text).toBe(clientBytes({ ...params, model: 'gpt-4.1' }));
    await h.client().responses.create(params);
    const refused = await h.client().responses.create(params).then(() => undefined, (e: unknown) => e as InstanceType<typeof OpenAI.APIError>);
    expect([refused?.status, refused?.code]).toEqual([429, 'budget_exceeded']);
    // What the two answers cost by the upstream's own usage (2 x $0.29), not by the reservations.
    expect(refused?.message).toContain('holds $0.5800 of $0.5000');
    expect(up.count(RESPONSES_PATH)).toBe(2);
  });

  it('ends a committed stream the upstream cut with an error event and response.failed numbered on from the upstream\'s', async () => {
    h = await start();
    const frames = responsesTextSse(['Half an ']);
    up.script(RESPONSES_PATH, { sse: frames.slice(0, 4), cutAfter: 4 });
    const events: OpenAI.Responses.ResponseStreamEvent[] = [];
    for await (const e of await h.client().responses.create({ model: 'default', input: 'hi', stream: true })) events.push(e);
    expect(events.map((e) => e.type)).toEqual(['response.created', 'response.output_item.added', 'response.content_part.added', 'response.output_text.delta', 'error', 'response.failed']);
    const seq = events.map((e) => e.sequence_number);
    expect(seq.slice(4)).toEqual([seq[3]! + 1, seq[3]! + 2]);
    const failed = events.at(-1) as OpenAI.Responses.ResponseFailedEvent;
    expect(failed.response).toMatchObject({ id: UPSTREAM_ID, status: 'failed' });
    expect(up.count(ANTHROPIC_PATH)).toBe(0);
  });
});
