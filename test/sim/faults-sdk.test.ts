import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { fakeAnswer } from '../../providers/shared/answers/index.js';
import type { FaultRule, SimulatorOptions } from '../../src/sim/index.js';
import { splitPieces } from '../../src/sim/sim-request.js';
import { VirtualClock } from '../support/virtual-clock.js';
import { ANTHROPIC_KEY, OPENAI_KEY, anthropicClient, errorOf, openAIClient, useSimulators, user } from './helpers.js';

const start = useSimulators();
const messages = user('Tell me about retries');
const OPENAI_MODEL = 'gpt-4o-mini';
const ANTHROPIC_MODEL = 'claude-haiku-4-5';

async function withFault(fault: FaultRule, clientOptions: Record<string, unknown> = {}, simOptions: SimulatorOptions = {}) {
  const sim = await start({ ...simOptions, providers: { openai: { type: 'openai', faults: [fault] }, anthropic: { type: 'anthropic', faults: [fault] } } });
  return { sim, openai: openAIClient(sim, 'openai', clientOptions), anthropic: anthropicClient(sim, 'anthropic', clientOptions) };
}

const plainOpenAI = (c: OpenAI) => c.chat.completions.create({ model: OPENAI_MODEL, messages });
const plainAnthropic = (c: Anthropic) => c.messages.create({ model: ANTHROPIC_MODEL, max_tokens: 200, messages });

describe('HTTP faults, as the SDKs see them', () => {
  it.each([
    ['server_error', OpenAI.InternalServerError, 500, 'server_error', null],
    ['unavailable', OpenAI.InternalServerError, 503, 'server_error', null],
    ['overloaded', OpenAI.InternalServerError, 503, 'service_unavailable_error', 'server_is_overloaded'],
    ['insufficient_quota', OpenAI.RateLimitError, 429, 'insufficient_quota', 'insufficient_quota'],
    ['rate_limit', OpenAI.RateLimitError, 429, 'requests', 'rate_limit_exceeded'],
    ['unauthorized', OpenAI.AuthenticationError, 401, 'invalid_request_error', 'invalid_api_key'],
  ] as const)('OpenAI %s: %s %d, type %s, code %s', async (fault, Class, status, type, code) => {
    const { openai, sim } = await withFault({ fault });
    const err = await errorOf(plainOpenAI(openai));
    expect(err).toBeInstanceOf(Class);
    expect(err).toMatchObject({ status, type, code });
    expect(err.requestID).toMatch(/^req_[0-9a-f]{32}$/);
    expect(err.headers.get('x-ratelimit-remaining-requests')).not.toBeNull();
    expect(sim.stats().providers.openai!.byFault).toEqual({ [fault]: 1 });
  });

  it('sends the insufficient_quota body exactly, and echoes a rejected key only masked', async () => {
    const quota = await withFault({ fault: 'insufficient_quota' });
    expect((await errorOf(plainOpenAI(quota.openai))).error).toEqual({
      message: 'You exceeded your current quota, please check your plan and billing details. For more information on this error, read the docs: https://platform.openai.com/docs/guides/error-codes/api-errors.',
      type: 'insufficient_quota', param: null, code: 'insufficient_quota',
    });
    const auth = await withFault({ fault: 'unauthorized' });
    const message: string = (await errorOf(plainOpenAI(auth.openai))).error.message;
    expect(message).toContain(`Incorrect API key provided: ${OPENAI_KEY.slice(0, 8)}***`);
    expect(message).not.toContain(OPENAI_KEY);
  });

  it('echoes the full key in an error body or a stream error frame with echoKey, on both APIs', async () => {
    const { openai, anthropic } = await withFault({ fault: 'unauthorized', echoKey: true });
    expect((await errorOf(plainOpenAI(openai))).error.message).toContain(`(key: ${OPENAI_KEY})`);
    expect((await errorOf(plainAnthropic(anthropic))).error.error.message).toContain(`(key: ${ANTHROPIC_KEY})`);
    const framed = await withFault({ fault: 'stream_error', afterChunks: 1, echoKey: true });
    const stream = await framed.openai.chat.completions.create({ model: OPENAI_MODEL, messages, stream: true });
    const err = await errorOf((async () => {
      for await (const _chunk of stream) { /* drain */ }
    })());
    expect(err.error.message).toContain(`(key: ${OPENAI_KEY})`);
  });

  it('sends retryAfterRaw as the retry-after header verbatim', async () => {
    const { openai, anthropic } = await withFault({ fault: 'rate_limit', retryAfterRaw: 'soon' });
    expect((await errorOf(plainOpenAI(openai))).headers.get('retry-after')).toBe('soon');
    expect((await errorOf(plainAnthropic(anthropic))).headers.get('retry-after')).toBe('soon');
  });

  it('names the request id inside an OpenAI 500 message, as the real one does', async () => {
    const { openai } = await withFault({ fault: 'server_error' });
    const err = await errorOf(plainOpenAI(openai));
    expect(err.error.message).toContain(`(Please include the request ID ${err.requestID} in your email.)`);
  });

  it.each([
    ['server_error', Anthropic.InternalServerError, 500, 'api_error'],
    ['unavailable', Anthropic.ServiceUnavailableError, 503, 'api_error'],
    ['overloaded', Anthropic.OverloadedError, 529, 'overloaded_error'],
    ['insufficient_quota', Anthropic.BadRequestError, 400, 'invalid_request_error'],
    ['rate_limit', Anthropic.RateLimitError, 429, 'rate_limit_error'],
    ['unauthorized', Anthropic.AuthenticationError, 401, 'authentication_error'],
  ] as const)('Anthropic %s: %s %d, error.type %s', async (fault, Class, status, type) => {
    const { anthropic } = await withFault({ fault });
    const err = await errorOf(plainAnthropic(anthropic));
    expect(err).toBeInstanceOf(Class);
    expect(err.status).toBe(status);
    expect(err.error).toMatchObject({ type: 'error', error: { type }, request_id: err.requestID });
    expect(err.headers.get('anthropic-ratelimit-requests-remaining')).not.toBeNull();
  });

  it('says "credit balance is too low" for Anthropic insufficient_quota, and 529 Overloaded for overloaded', async () => {
    const quota = await withFault({ fault: 'insufficient_quota' });
    expect((await errorOf(plainAnthropic(quota.anthropic))).error.error.message).toMatch(/^Your credit balance is too low to access the Anthropic API\./);
    const overloaded = await withFault({ fault: 'overloaded', retryAfterMs: 2_000 });
    const err = await errorOf(plainAnthropic(overloaded.anthropic));
    expect(err.error.error.message).toBe('Overloaded');
    expect(err.headers.get('retry-after')).toBe('2');
  });

  it('honours a status override and an advertised retry-after on a forced 429', async () => {
    const gateway = await withFault({ fault: 'server_error', status: 502 });
    expect((await errorOf(plainOpenAI(gateway.openai))).status).toBe(502);
    const limited = await withFault({ fault: 'rate_limit', retryAfterMs: 7_000 });
    expect((await errorOf(plainOpenAI(limited.openai))).headers.get('retry-after')).toBe('7');
    expect((await errorOf(plainAnthropic(limited.anthropic))).headers.get('retry-after')).toBe('7');
  });
});

describe('connection faults', () => {
  it('resets the connection: both SDKs throw APIConnectionError', async () => {
    const { openai, anthropic, sim } = await withFault({ fault: 'reset' });
    expect(await errorOf(plainOpenAI(openai))).toBeInstanceOf(OpenAI.APIConnectionError);
    expect(await errorOf(plainAnthropic(anthropic))).toBeInstanceOf(Anthropic.APIConnectionError);
    expect(sim.stats().providers.openai).toMatchObject({ byFault: { reset: 1 }, byStatus: {}, inFlight: 0 });
  });

  it('hangs until the client gives up: both SDKs time out', async () => {
    const { openai, anthropic, sim } = await withFault({ fault: 'hang' }, { timeout: 150 });
    expect(await errorOf(plainOpenAI(openai))).toBeInstanceOf(OpenAI.APIConnectionTimeoutError);
    expect(await errorOf(plainAnthropic(anthropic))).toBeInstanceOf(Anthropic.APIConnectionTimeoutError);
    // The simulator took both requests and never answered: the timeouts were the SDKs' own.
    for (const provider of ['openai', 'anthropic']) expect(sim.stats().providers[provider]).toMatchObject({ requests: 1, byFault: { hang: 1 }, byStatus: {} });
  });

  it('delays the first byte, then answers normally', async () => {
    // The simulator's waits run on a virtual clock, which records each one instead of taking it.
    const clock = new VirtualClock();
    const { openai } = await withFault({ fault: 'slow_first_byte', delayMs: 200 }, {}, { sleep: (ms, signal) => clock.sleep(ms, signal) });
    const res = await plainOpenAI(openai);
    expect(clock.sleeps).toEqual([200]);
    expect(res.choices[0]!.message.content).toBe(fakeAnswer(messages, OPENAI_MODEL));
  });
});

describe('stream faults', () => {
  const pieces = (model: string) => splitPieces(fakeAnswer(messages, model));

  it('cuts an OpenAI stream after N text chunks, without [DONE]: the iterator throws after exactly those chunks', async () => {
    const { openai } = await withFault({ fault: 'stream_cut', afterChunks: 2 });
    const stream = await openai.chat.completions.create({ model: OPENAI_MODEL, messages, stream: true, stream_options: { include_usage: true } });
    let text = '';
    const err = await errorOf((async () => {
      for await (const chunk of stream) text += chunk.choices[0]?.delta?.content ?? '';
    })());
    expect(text).toBe(pieces(OPENAI_MODEL).slice(0, 2).join(''));
    // The SDK does not wrap a body cut short: undici's TypeError("terminated") comes through as it is.
    expect(err).toBeInstanceOf(TypeError);
    expect(err.cause?.code).toBe('UND_ERR_SOCKET');
  });

  it('cuts an Anthropic stream after N text deltas, before message_stop', async () => {
    const { anthropic } = await withFault({ fault: 'stream_cut', afterChunks: 3 });
    const stream = await anthropic.messages.create({ model: ANTHROPIC_MODEL, max_tokens: 200, messages, stream: true });
    const seen: string[] = [];
    let text = '';
    const err = await errorOf((async () => {
      for await (const event of stream) {
        seen.push(event.type);
        if (event.type === 'content_block_delta' && event.delta.type === 'text_delta') text += event.delta.text;
      }
    })());
    expect(text).toBe(pieces(ANTHROPIC_MODEL).slice(0, 3).join(''));
    expect(seen).not.toContain('message_stop');
    expect(err).toBeInstanceOf(TypeError);
  });

  it('sends an OpenAI mid-stream error frame: APIError with no status, code server_error', async () => {
    const { openai } = await withFault({ fault: 'stream_error', afterChunks: 1 });
    const stream = await openai.chat.completions.create({ model: OPENAI_MODEL, messages, stream: true });
    let text = '';
    const err = await errorOf((async () => {
      for await (const chunk of stream) text += chunk.choices[0]?.delta?.content ?? '';
    })());
    expect(text).toBe(pieces(OPENAI_MODEL)[0]);
    expect(err).toBeInstanceOf(OpenAI.APIError);
    expect(err.constructor).toBe(OpenAI.APIError);
    expect(err).toMatchObject({ status: undefined, code: 'server_error', type: 'server_error' });
    expect(err.requestID).toMatch(/^req_/);
  });

  it('sends an Anthropic mid-stream event: error, overloaded_error: APIError with no status', async () => {
    const { anthropic } = await withFault({ fault: 'stream_error', afterChunks: 0 });
    const stream = await anthropic.messages.create({ model: ANTHROPIC_MODEL, max_tokens: 200, messages, stream: true });
    const err = await errorOf((async () => {
      for await (const _event of stream) { /* drain */ }
    })());
    expect(err.constructor).toBe(Anthropic.APIError);
    expect(err.status).toBeUndefined();
    expect(err.error).toEqual({ type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } });
    expect(err.requestID).toMatch(/^req_011C/);
  });

  it('applies stream faults to plain requests the way the API would: a truncated body, or the equivalent status', async () => {
    const cut = await withFault({ fault: 'stream_cut' });
    expect(await errorOf(plainOpenAI(cut.openai))).toBeInstanceOf(TypeError);
    const error = await withFault({ fault: 'stream_error' });
    expect(await errorOf(plainOpenAI(error.openai))).toMatchObject({ status: 500, type: 'server_error' });
    expect(await errorOf(plainAnthropic(error.anthropic))).toBeInstanceOf(Anthropic.OverloadedError);
  });
});
