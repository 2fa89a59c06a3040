import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { approxTokens, embeddingFor, embeddingToBase64 } from '../../providers/shared/answers/index.js';
import { ANTHROPIC_KEY, OPENAI_KEY, errorOf, manualClock, openAIClient, useSimulators } from './helpers.js';

const start = useSimulators();
const MODEL = 'text-embedding-3-small';

describe('POST /v1/embeddings', () => {
  it('answers the SDK default (base64) with deterministic unit vectors that decode to embeddingFor(model, text)', async () => {
    const client = openAIClient(await start());
    const { data, response } = await client.embeddings.create({ model: MODEL, input: ['alpha', 'beta'] }).withResponse();
    expect(data.object).toBe('list');
    expect(data.data.map((d) => d.index)).toEqual([0, 1]);
    expect(data.data[0]!.embedding).toHaveLength(1536);
    expect(data.data[0]!.embedding).toEqual(embeddingFor(MODEL, 'alpha'));
    expect(data.data[1]!.embedding).toEqual(embeddingFor(MODEL, 'beta'));
    expect(Math.hypot(...data.data[0]!.embedding)).toBeCloseTo(1, 5);
    expect(data.usage).toEqual({ prompt_tokens: approxTokens('alpha') + approxTokens('beta'), total_tokens: approxTokens('alpha') + approxTokens('beta') });
    expect(response.headers.get('x-request-id')).toMatch(/^req_[0-9a-f]{32}$/);
    expect(response.headers.get('x-ratelimit-remaining-requests')).not.toBeNull();
  });

  it('sends base64 as little-endian float32, and plain floats when asked', async () => {
    const sim = await start();
    const post = (body: object) => fetch(`${sim.baseURL('openai')}/embeddings`, {
      method: 'POST', headers: { authorization: `Bearer ${OPENAI_KEY}`, 'content-type': 'application/json' }, body: JSON.stringify(body),
    }).then((r) => r.json() as Promise<any>);
    const b64 = await post({ model: MODEL, input: 'alpha', encoding_format: 'base64' });
    expect(b64.data[0].embedding).toBe(embeddingToBase64(embeddingFor(MODEL, 'alpha')));
    const floats = await post({ model: MODEL, input: 'alpha', encoding_format: 'float' });
    expect(floats.data[0].embedding).toEqual(embeddingFor(MODEL, 'alpha'));
    const byDefault = await post({ model: MODEL, input: 'alpha' });
    expect(Array.isArray(byDefault.data[0].embedding)).toBe(true);
  });

  it('honours dimensions for text-embedding-3 models: the first components, renormalised; 3072 for -large', async () => {
    const client = openAIClient(await start());
    const short = await client.embeddings.create({ model: MODEL, input: 'alpha', dimensions: 256 });
    expect(short.data[0]!.embedding).toHaveLength(256);
    expect(Math.hypot(...short.data[0]!.embedding)).toBeCloseTo(1, 5);
    const full = embeddingFor(MODEL, 'alpha');
    const ratio = short.data[0]!.embedding[0]! / full[0]!;
    expect(short.data[0]!.embedding[10]! / full[10]!).toBeCloseTo(ratio, 4);
    expect((await client.embeddings.create({ model: 'text-embedding-3-large', input: 'x' })).data[0]!.embedding).toHaveLength(3072);
    const ada = await errorOf(client.embeddings.create({ model: 'text-embedding-ada-002', input: 'x', dimensions: 256 }));
    expect(ada).toBeInstanceOf(OpenAI.BadRequestError);
    expect(ada.error.message).toBe('This model does not support specifying dimensions.');
  });

  it('takes token arrays as input', async () => {
    const client = openAIClient(await start());
    const res = await client.embeddings.create({ model: MODEL, input: [[1, 2, 3], [4, 5]], encoding_format: 'float' });
    expect(res.data).toHaveLength(2);
    expect(res.usage.prompt_tokens).toBe(5);
  });

  it.each([
    ['more than 2048 inputs', Array.from({ length: 2049 }, () => 'x')],
    ['an empty string', ''],
    ['an empty array', []],
    ['an empty string among the inputs', ['a', '']],
  ])('rejects %s with the real 400', async (_what, input) => {
    const client = openAIClient(await start());
    const err = await errorOf(client.embeddings.create({ model: MODEL, input: input as string[] }));
    expect(err).toBeInstanceOf(OpenAI.BadRequestError);
    expect(err.error).toEqual({ message: "'$.input' is invalid. Please check the API reference: https://platform.openai.com/docs/api-reference.", type: 'invalid_request_error', param: null, code: null });
  });

  it('rejects an input over 8192 tokens with the context message and code null', async () => {
    const client = openAIClient(await start());
    const err = await errorOf(client.embeddings.create({ model: MODEL, input: 'word '.repeat(7_000) }));
    expect(err.error).toMatchObject({ code: null, message: expect.stringMatching(/^This model's maximum context length is 8192 tokens, however you requested 8750 tokens/) });
  });

  it('answers 404 on an Anthropic provider, which has no embeddings API', async () => {
    const sim = await start();
    const res = await fetch(`${sim.baseURL('anthropic')}/v1/embeddings`, {
      method: 'POST', headers: { 'x-api-key': ANTHROPIC_KEY, 'anthropic-version': '2023-06-01', 'content-type': 'application/json' }, body: JSON.stringify({ model: MODEL, input: 'x' }),
    });
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ type: 'error', error: { type: 'not_found_error' } });
    expect((await fetch(`${sim.url}/v1/embeddings`, {
      method: 'POST', headers: { authorization: `Bearer ${OPENAI_KEY}`, 'content-type': 'application/json' }, body: JSON.stringify({ model: MODEL, input: 'x' }),
    })).status).toBe(200);
  });
});

describe('embeddings limits and faults', () => {
  it('counts embeddings on their own RPM, apart from chat, with the same headers and 429 body', async () => {
    const clock = manualClock();
    const sim = await start({ clock, providers: { openai: { type: 'openai', limits: { rpm: 100, embeddings: { rpm: 2, tpm: 1_000_000 } } } } });
    const client = openAIClient(sim);
    await client.embeddings.create({ model: MODEL, input: 'a' });
    const { response } = await client.embeddings.create({ model: MODEL, input: 'b' }).withResponse();
    expect([response.headers.get('x-ratelimit-limit-requests'), response.headers.get('x-ratelimit-remaining-requests')]).toEqual(['2', '0']);
    const err = await errorOf(client.embeddings.create({ model: MODEL, input: 'c' }));
    expect(err).toBeInstanceOf(OpenAI.RateLimitError);
    expect(err.error.message).toMatch(new RegExp(`^Rate limit reached for ${MODEL} in organization org-\\w+ on requests per min \\(RPM\\): Limit 2, Used 2, Requested 1\\. Please try again in 30s\\.`));
    expect(err.headers.get('retry-after')).toBe('30');
    const chat = await client.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }] }).withResponse();
    expect(chat.response.headers.get('x-ratelimit-remaining-requests')).toBe('99');
    clock.advance(30_000);
    await expect(client.embeddings.create({ model: MODEL, input: 'c' })).resolves.toBeTruthy();
    expect(sim.stats().providers.openai).toMatchObject({ rateLimited: 1, embeddings: { requests: 4, tokens: 3 } });
  });

  it('charges embeddings input tokens against their own TPM', async () => {
    const sim = await start({ providers: { openai: { type: 'openai', limits: { embeddings: { tpm: 10 } } } } });
    const client = openAIClient(sim);
    await client.embeddings.create({ model: MODEL, input: 'x'.repeat(32) });
    const err = await errorOf(client.embeddings.create({ model: MODEL, input: 'x'.repeat(32) }));
    expect(err).toMatchObject({ status: 429, type: 'tokens', code: 'rate_limit_exceeded' });
  });

  it('meets the same faults as chat, and a rule with endpoint applies to that endpoint only', async () => {
    const sim = await start({ providers: { openai: { type: 'openai', faults: [{ fault: 'insufficient_quota', endpoint: 'embeddings', nth: 1 }, { fault: 'unavailable', endpoint: 'embeddings', nth: 2 }, { fault: 'server_error', endpoint: 'chat' }] } } });
    const client = openAIClient(sim);
    expect(await errorOf(client.embeddings.create({ model: MODEL, input: 'a' }))).toMatchObject({ status: 429, code: 'insufficient_quota' });
    expect(await errorOf(client.embeddings.create({ model: MODEL, input: 'a' }))).toMatchObject({ status: 503 });
    await expect(client.embeddings.create({ model: MODEL, input: 'a' })).resolves.toBeTruthy();
    expect(await errorOf(client.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }] }))).toMatchObject({ status: 500 });
  });

  it('numbers chat and embeddings requests apart, so nth keeps meaning the Nth chat request', async () => {
    const events: Array<{ endpoint: string; n: number; status?: number }> = [];
    const sim = await start({ onRequest: (e) => events.push({ endpoint: e.endpoint, n: e.n, status: e.status }), providers: { openai: { type: 'openai', faults: [{ fault: 'unavailable', nth: 2 }] } } });
    const client = openAIClient(sim);
    await client.embeddings.create({ model: MODEL, input: 'a' });
    await client.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }] });
    await errorOf(client.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }] }));
    expect(events).toEqual([{ endpoint: 'embeddings', n: 1, status: 200 }, { endpoint: 'chat', n: 1, status: 200 }, { endpoint: 'chat', n: 2, status: 503 }]);
  });
});
