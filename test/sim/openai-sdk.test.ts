import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { approxTokens, fakeAnswer, promptTokens } from '../../providers/shared/answers/index.js';
import { parseGoDurationMs } from '../../providers/shared/reset-value.js';
import { OPENAI_KEY, errorOf, openAIClient, rawStream, useSimulators, user } from './helpers.js';

const start = useSimulators();
const messages = [{ role: 'system' as const, content: 'Be brief.' }, ...user('What is a circuit breaker?')];

describe('simulated OpenAI Chat Completions through the openai SDK', () => {
  it('answers a plain request with the deterministic text and honest usage', async () => {
    const sim = await start();
    const { data, response, request_id } = await openAIClient(sim).chat.completions.create({ model: 'gpt-4o-mini', messages }).withResponse();
    const text = fakeAnswer(messages, 'gpt-4o-mini');
    expect(data).toMatchObject({ object: 'chat.completion', model: 'gpt-4o-mini', choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content: text } }] });
    expect(data.id).toMatch(/^chatcmpl-[A-Za-z0-9]{29}$/);
    expect(data.usage).toMatchObject({ prompt_tokens: promptTokens(messages), completion_tokens: approxTokens(text), total_tokens: promptTokens(messages) + approxTokens(text) });
    expect(request_id).toMatch(/^req_[0-9a-f]{32}$/);
    expect(response.headers.get('openai-version')).toBe('2020-10-01');
    expect(response.headers.get('openai-organization')).toMatch(/^org-[A-Za-z0-9]{24}$/);
  });

  it('reports the rate-limit windows on a success, resets as Go durations', async () => {
    const sim = await start({ providers: { openai: { type: 'openai', limits: { rpm: 60, tpm: 150_000 } } } });
    const { data, response } = await openAIClient(sim).chat.completions.create({ model: 'gpt-4o-mini', messages, max_completion_tokens: 100 }).withResponse();
    const h = (name: string) => response.headers.get(name);
    expect([h('x-ratelimit-limit-requests'), h('x-ratelimit-remaining-requests'), h('x-ratelimit-reset-requests')]).toEqual(['60', '59', '1s']);
    const charged = data.usage!.prompt_tokens + 100;
    expect(h('x-ratelimit-limit-tokens')).toBe('150000');
    expect(h('x-ratelimit-remaining-tokens')).toBe(String(150_000 - charged));
    expect(parseGoDurationMs(h('x-ratelimit-reset-tokens')!)).toBe(Math.ceil((charged * 60_000) / 150_000));
  });

  it('streams with include_usage: usage null on every chunk, then a usage chunk without choices, then [DONE]', async () => {
    const sim = await start();
    const raw = await rawStream(`${sim.baseURL('openai')}/chat/completions`, { authorization: `Bearer ${OPENAI_KEY}` }, {
      model: 'gpt-4o-mini', messages, stream: true, stream_options: { include_usage: true },
    });
    expect(raw.status).toBe(200);
    expect(raw.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const frames = raw.text.split('\n\n').filter(Boolean);
    expect(frames.every((f) => f.startsWith('data: ') && !f.includes('event:'))).toBe(true);
    expect(frames.at(-1)).toBe('data: [DONE]');
    const chunks = frames.slice(0, -1).map((f) => JSON.parse(f.slice(6)));
    const usageChunk = chunks.at(-1);
    expect(usageChunk.choices).toEqual([]);
    expect(usageChunk.usage).toMatchObject({ prompt_tokens: promptTokens(messages) });
    expect(chunks.slice(0, -1).every((c) => c.usage === null && c.object === 'chat.completion.chunk')).toBe(true);
    expect(chunks[0].choices[0].delta).toEqual({ role: 'assistant', content: '', refusal: null });
    expect(chunks.at(-2).choices[0]).toMatchObject({ delta: {}, finish_reason: 'stop' });

    const stream = await openAIClient(sim).chat.completions.create({ model: 'gpt-4o-mini', messages, stream: true, stream_options: { include_usage: true } });
    let text = '';
    let usage: OpenAI.CompletionUsage | undefined | null;
    for await (const chunk of stream) {
      text += chunk.choices[0]?.delta?.content ?? '';
      if (chunk.usage) usage = chunk.usage;
    }
    expect(text).toBe(fakeAnswer(messages, 'gpt-4o-mini'));
    expect(usage).toEqual({
      prompt_tokens: promptTokens(messages), completion_tokens: approxTokens(text), total_tokens: promptTokens(messages) + approxTokens(text),
      prompt_tokens_details: { cached_tokens: 0, audio_tokens: 0 },
      completion_tokens_details: { reasoning_tokens: 0, audio_tokens: 0, accepted_prediction_tokens: 0, rejected_prediction_tokens: 0 },
    });
  });

  it('streams without include_usage: no usage key on any chunk', async () => {
    const sim = await start();
    const raw = await rawStream(`${sim.baseURL('openai')}/chat/completions`, { authorization: `Bearer ${OPENAI_KEY}` }, { model: 'gpt-4o-mini', messages, stream: true });
    const chunks = raw.text.split('\n\n').filter((f) => f && f !== 'data: [DONE]').map((f) => JSON.parse(f.slice(6)));
    expect(chunks.some((c) => 'usage' in c)).toBe(false);
    expect(chunks.every((c) => c.choices.length === 1)).toBe(true);
  });

  it('cuts the answer at max_completion_tokens with finish_reason length', async () => {
    const sim = await start();
    const data = await openAIClient(sim).chat.completions.create({ model: 'gpt-4o-mini', messages, max_completion_tokens: 5 });
    expect(data.choices[0]!.finish_reason).toBe('length');
    expect(data.usage!.completion_tokens).toBe(5);
  });

  it.each([
    ['no messages', { model: 'gpt-4o-mini' }, 400, 'missing_required_parameter'],
    ['an empty messages array', { model: 'gpt-4o-mini', messages: [] }, 400, 'empty_array'],
    ['a zero max_tokens', { model: 'gpt-4o-mini', messages, max_tokens: 0 }, 400, 'integer_below_min_value'],
  ])('rejects %s with the API\'s 400', async (_what, body, status, code) => {
    const sim = await start();
    const err = await errorOf(openAIClient(sim).chat.completions.create(body as any));
    expect(err).toBeInstanceOf(OpenAI.BadRequestError);
    expect(err).toMatchObject({ status, code, type: 'invalid_request_error' });
  });

  it('answers a model it does not serve with 404 model_not_found, and a long prompt with context_length_exceeded', async () => {
    const sim = await start({ providers: { openai: { type: 'openai', models: ['gpt-4o-mini'], contextTokens: 50 } } });
    const client = openAIClient(sim);
    const missing = await errorOf(client.chat.completions.create({ model: 'gpt-9', messages }));
    expect(missing).toBeInstanceOf(OpenAI.NotFoundError);
    expect(missing.code).toBe('model_not_found');
    const long = await errorOf(client.chat.completions.create({ model: 'gpt-4o-mini', messages: user('word '.repeat(200)) }));
    expect(long).toBeInstanceOf(OpenAI.BadRequestError);
    expect(long).toMatchObject({ code: 'context_length_exceeded', param: 'messages' });
    expect(long.error.message).toMatch(/^This model's maximum context length is 50 tokens\. However, your messages resulted in \d+ tokens/);
  });

  it('answers a request without a key with 401, and accepts any key', async () => {
    const sim = await start();
    const res = await fetch(`${sim.baseURL('openai')}/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ model: 'm', messages }) });
    expect(res.status).toBe(401);
    expect(((await res.json()) as any).error).toMatchObject({ type: 'invalid_request_error', code: null, message: expect.stringMatching(/^You didn't provide an API key/) });
    await expect(openAIClient(sim, 'openai', { apiKey: 'anything' }).chat.completions.create({ model: 'm', messages })).resolves.toBeTruthy();
  });
});
