import Anthropic from '@anthropic-ai/sdk';
import { describe, expect, it } from 'vitest';
import { approxTokens, fakeAnswer, promptTokens } from '../../providers/shared/answers/index.js';
import { ANTHROPIC_KEY, anthropicClient, errorOf, manualClock, rawStream, useSimulators, user } from './helpers.js';

const start = useSimulators();
const MODEL = 'claude-haiku-4-5';
const messages = user('What is a circuit breaker?');

describe('simulated Anthropic Messages through the @anthropic-ai/sdk', () => {
  it('answers a plain request with the deterministic text, honest usage and the real headers', async () => {
    const clock = manualClock(Date.parse('2026-11-29T12:00:00.250Z'));
    const sim = await start({ clock, providers: { anthropic: { type: 'anthropic', limits: { rpm: 50, tpm: 40_000 } } } });
    const { data, response, request_id } = await anthropicClient(sim).messages.create({ model: MODEL, max_tokens: 200, system: 'Be brief.', messages }).withResponse();
    const text = fakeAnswer(messages, MODEL);
    expect(data).toMatchObject({ type: 'message', role: 'assistant', model: MODEL, content: [{ type: 'text', text }], stop_reason: 'end_turn', stop_sequence: null });
    expect(data.id).toMatch(/^msg_01[1-9A-HJ-NP-Za-km-z]{22}$/);
    expect(data.usage).toMatchObject({ input_tokens: promptTokens([{ role: 'system', content: 'Be brief.' }, ...messages]), output_tokens: approxTokens(text) });
    expect(request_id).toMatch(/^req_011C[1-9A-HJ-NP-Za-km-z]{20}$/);
    const h = (name: string) => response.headers.get(name);
    expect([h('anthropic-ratelimit-requests-limit'), h('anthropic-ratelimit-requests-remaining')]).toEqual(['50', '49']);
    // One request of 50 a minute refills in 1.2 s: 12:00:01.45, rounded up to the whole second.
    expect(h('anthropic-ratelimit-requests-reset')).toBe('2026-11-29T12:00:02Z');
    expect(h('anthropic-ratelimit-tokens-reset')).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
    expect(h('anthropic-organization-id')).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
  });

  it('streams the documented event sequence, ping included, with cumulative usage in message_delta', async () => {
    const sim = await start();
    const raw = await rawStream(`${sim.baseURL('anthropic')}/v1/messages`, { 'x-api-key': ANTHROPIC_KEY, 'anthropic-version': '2023-06-01' }, { model: MODEL, max_tokens: 200, messages, stream: true });
    expect(raw.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const events = raw.text.split('\n\n').filter(Boolean).map((frame) => {
      const [eventLine, dataLine] = frame.split('\n');
      return { event: eventLine!.replace('event: ', ''), data: JSON.parse(dataLine!.replace('data: ', '')) };
    });
    const names = events.map((e) => e.event);
    const deltas = names.filter((n) => n === 'content_block_delta').length;
    expect(names).toEqual(['message_start', 'content_block_start', 'ping', ...Array(deltas).fill('content_block_delta'), 'content_block_stop', 'message_delta', 'message_stop']);
    expect(events.every((e) => e.data.type === e.event)).toBe(true);
    const text = fakeAnswer(messages, MODEL);
    expect(events.at(-2)!.data).toEqual({
      type: 'message_delta', delta: { stop_reason: 'end_turn', stop_sequence: null },
      usage: { input_tokens: promptTokens(messages), cache_creation_input_tokens: 0, cache_read_input_tokens: 0, output_tokens: approxTokens(text) },
    });

    const stream = anthropicClient(sim).messages.stream({ model: MODEL, max_tokens: 200, messages });
    const final = await stream.finalMessage();
    expect(final.content).toEqual([expect.objectContaining({ type: 'text', text })]);
    expect(final.usage).toMatchObject({ input_tokens: promptTokens(messages), output_tokens: approxTokens(text) });
  });

  it('stops at max_tokens with stop_reason max_tokens', async () => {
    const sim = await start();
    const data = await anthropicClient(sim).messages.create({ model: MODEL, max_tokens: 4, messages });
    expect(data.stop_reason).toBe('max_tokens');
    expect(data.usage.output_tokens).toBe(4);
  });

  it.each([
    ['a temperature under API version 2026-10-21 (SDK 1.x)', { model: MODEL, max_tokens: 10, messages, temperature: 0.5 }, /^temperature: /],
    ['a system message inside messages', { model: MODEL, max_tokens: 10, messages: [{ role: 'system', content: 'x' }, ...messages] }, /Unexpected role "system"/],
    ['no max_tokens', { model: MODEL, messages }, /^max_tokens: Field required$/],
  ])('rejects %s with a 400 invalid_request_error', async (_what, body, message) => {
    const sim = await start();
    const err = await errorOf(anthropicClient(sim).messages.create(body as any));
    expect(err).toBeInstanceOf(Anthropic.BadRequestError);
    expect(err.error).toMatchObject({ type: 'error', error: { type: 'invalid_request_error', message: expect.stringMatching(message) }, request_id: err.requestID });
  });

  it('accepts the key as x-api-key (SDK 0.x) or Bearer (SDK 1.x), and 401s without one', async () => {
    const sim = await start();
    const url = `${sim.baseURL('anthropic')}/v1/messages`;
    const body = { model: MODEL, max_tokens: 10, messages };
    const base = { 'anthropic-version': '2023-06-01' };
    expect((await rawStream(url, { ...base, 'x-api-key': 'k' }, body)).status).toBe(200);
    expect((await rawStream(url, { ...base, authorization: 'Bearer k' }, body)).status).toBe(200);
    const denied = await rawStream(url, base, body);
    expect(denied.status).toBe(401);
    expect(JSON.parse(denied.text).error.type).toBe('authentication_error');
  });
});
