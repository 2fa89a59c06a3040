import { afterEach, describe, expect, it } from 'vitest';
import { openaiBodies } from '../../test/support/fixtures.js';
import { adapterFor, adapterForResolved } from '../test-support/adapter-harness.js';
import { recordingServer } from '../test-support/recording-server.js';
import { openaiCompletion } from '../../test/support/fixtures.js';
import { openaiEmbeddings, openaiEmbeddingTooLong } from '../test-support/wire.js';
import type { ProviderAdapter } from '../types.js';
import { RouterError } from '../../src/errors.js';

let close: (() => Promise<void>) | undefined;
afterEach(async () => {
  await close?.();
  close = undefined;
});

async function serve(reply: Parameters<typeof recordingServer>[0]) {
  const server = await recordingServer(reply);
  close = server.close;
  return server;
}

const signal = () => ({ signal: new AbortController().signal });

async function embedFailure(adapter: ProviderAdapter): Promise<RouterError> {
  try {
    await adapter.embed!({ model: 'text-embedding-3-small', input: ['a'] }, signal());
  } catch (err) {
    if (err instanceof RouterError) return err;
    throw err;
  }
  throw new Error('expected embed to fail');
}

describe('openai embeddings, through the real SDK', () => {
  it('decodes the base64 vectors the SDK asks for and returns them in input order, by data[i].index', async () => {
    const server = await serve(() => ({ body: openaiEmbeddings([
      { index: 2, embedding: [0.5, 0.25] }, { index: 0, embedding: [1, 0] }, { index: 1, embedding: [0, -1] },
    ], 'text-embedding-3-small', 12), headers: { 'x-request-id': 'req_emb' } }));
    const adapter = adapterFor('openai', { type: 'openai', apiKey: 'sk-test', baseURL: `${server.url}/v1` });
    const res = await adapter.embed!({ model: 'text-embedding-3-small', input: ['a', 'b', 'c'], dimensions: 2 }, signal());
    expect(res).toEqual({ embeddings: [[1, 0], [0, -1], [0.5, 0.25]], usage: { inputTokens: 12 }, model: 'text-embedding-3-small', requestId: 'req_emb', rateLimit: undefined });
    expect(server.requests[0]).toMatchObject({ method: 'POST', url: '/v1/embeddings', body: { model: 'text-embedding-3-small', input: ['a', 'b', 'c'], dimensions: 2, encoding_format: 'base64' } });
  });

  it('declares 2048 inputs and 300,000 tokens a request for OpenAI', () => {
    const { traits } = adapterFor('openai', { type: 'openai', apiKey: 'sk', baseURL: 'http://127.0.0.1:9/v1' });
    expect(traits).toMatchObject({ maxEmbeddingInputs: 2048, maxEmbeddingTokens: 300_000 });
  });

  it('maps an embeddings context-length error, whose code is null, to context_length', async () => {
    const server = await serve(() => ({ status: 400, body: openaiEmbeddingTooLong }));
    expect(await embedFailure(adapterFor('openai', { type: 'openai', apiKey: 'sk', baseURL: `${server.url}/v1` }))).toMatchObject({ kind: 'context_length', status: 400 });
  });

  it('maps a 429 on embeddings like chat\'s, with its wait hint', async () => {
    const server = await serve(() => ({ status: 429, body: openaiBodies.rateLimitTokens, headers: { 'retry-after': '3' } }));
    expect(await embedFailure(adapterFor('openai', { type: 'openai', apiKey: 'sk', baseURL: `${server.url}/v1` }))).toMatchObject({ kind: 'rate_limited', retryAfterMs: 3000 });
  });

  it('treats an answer missing a vector as malformed', async () => {
    const server = await serve(() => ({ body: openaiEmbeddings([{ index: 0, embedding: [1] }]) }));
    const adapter = adapterFor('openai', { type: 'openai', apiKey: 'sk', baseURL: `${server.url}/v1` });
    await expect(adapter.embed!({ model: 'm', input: ['a', 'b'] }, signal())).rejects.toMatchObject({ kind: 'transport', code: 'malformed_response' });
  });

  it('embeds through an openai-compatible server too', async () => {
    const server = await serve(() => ({ body: openaiEmbeddings([{ index: 0, embedding: [0.125] }], 'nomic-embed-text') }));
    const adapter = adapterFor('local', { type: 'openai-compatible', baseURL: `${server.url}/v1` });
    expect((await adapter.embed!({ model: 'nomic-embed-text', input: ['a'] }, signal())).embeddings).toEqual([[0.125]]);
  });
});

/** An embeddings answer whose vectors are JSON float arrays: what Ollama and LiteLLM send even when asked for base64 (§7.1). */
function floatEmbeddings(vectors: number[][], model = 'nomic-embed-text') {
  return { object: 'list', data: vectors.map((embedding, index) => ({ object: 'embedding', index, embedding })), model, usage: { prompt_tokens: 4, total_tokens: 4 } };
}

describe('embedding encodings: floats and base64 decode to the same vectors', () => {
  // float32 values, so that the base64 (float32) and the JSON answer carry exactly the same numbers
  const vectors = [[0.1, -0.2, 0.3, 0.4, -0.5, 0.6, 0.7, -0.8], [1.5, 2.25, -3.125, 0, 1e-3, -1e3, 42, 0.333]].map((v) => v.map(Math.fround));

  it('yields identical vectors from a compatible server answering float arrays and one answering base64', async () => {
    const floats = await recordingServer(() => ({ body: floatEmbeddings(vectors) }));
    const base64 = await recordingServer(() => ({ body: openaiEmbeddings(vectors.map((embedding, index) => ({ index, embedding })), 'nomic-embed-text') }));
    close = async () => { await floats.close(); await base64.close(); };
    const viaFloats = await adapterFor('ollama', { type: 'openai-compatible', baseURL: `${floats.url}/v1` }).embed!({ model: 'nomic-embed-text', input: ['a', 'b'] }, signal());
    const viaBase64 = await adapterFor('vllm', { type: 'openai-compatible', baseURL: `${base64.url}/v1` }).embed!({ model: 'nomic-embed-text', input: ['a', 'b'] }, signal());
    expect(viaFloats.embeddings).toEqual(vectors);
    expect(viaBase64.embeddings).toEqual(vectors);
    expect(floats.requests[0]!.body.encoding_format).toBe('base64');
  });

  it('refuses an answer whose vectors differ in length, as malformed', async () => {
    const server = await serve(() => ({ body: floatEmbeddings([[1, 2, 3], [1, 2]]) }));
    const adapter = adapterFor('local', { type: 'openai-compatible', baseURL: `${server.url}/v1` });
    await expect(adapter.embed!({ model: 'nomic-embed-text', input: ['a', 'b'] }, signal())).rejects.toMatchObject({ kind: 'transport', code: 'malformed_response' });
  });

  it('refuses vectors whose length is not the dimensions asked for, as malformed', async () => {
    const server = await serve(() => ({ body: floatEmbeddings([[1, 2, 3, 4]]) }));
    const adapter = adapterFor('local', { type: 'openai-compatible', baseURL: `${server.url}/v1` });
    await expect(adapter.embed!({ model: 'nomic-embed-text', input: ['a'], dimensions: 2 }, signal())).rejects.toMatchObject({ kind: 'transport', code: 'malformed_response' });
  });

  it('refuses a base64 vector that is not a whole number of float32s, as malformed', async () => {
    const server = await serve(() => ({ body: { object: 'list', data: [{ object: 'embedding', index: 0, embedding: Buffer.from([1, 2, 3]).toString('base64') }], model: 'm', usage: { prompt_tokens: 1, total_tokens: 1 } } }));
    const adapter = adapterFor('local', { type: 'openai-compatible', baseURL: `${server.url}/v1` });
    await expect(adapter.embed!({ model: 'm', input: ['a'] }, signal())).rejects.toMatchObject({ kind: 'transport', code: 'malformed_response' });
  });
});

describe('query parameters and Azure OpenAI', () => {
  it('keeps ?api-version= in baseURL out of the path: it is sent as a query parameter', async () => {
    const server = await serve(() => ({ body: openaiCompletion('ok') }));
    const adapter = adapterFor('azure', { type: 'openai-compatible', apiKey: 'k', baseURL: `${server.url}/openai/deployments/gpt4o?api-version=2024-10-21` });
    await adapter.chat({ model: 'gpt4o', messages: [{ role: 'user', content: 'hi' }] }, signal());
    expect(server.requests[0]!.url).toBe('/openai/deployments/gpt4o/chat/completions?api-version=2024-10-21');
  });

  it('sends the provider\'s query on every request, chat and embeddings', async () => {
    const server = await serve((req) => ({ body: req.url.includes('embeddings') ? openaiEmbeddings([{ index: 0, embedding: [1] }]) : openaiCompletion('ok') }));
    const adapter = adapterForResolved({ type: 'openai-compatible', name: 'gw', baseURL: `${server.url}/v1`, query: { tenant: 'a b' } });
    await adapter.chat({ model: 'm', messages: [{ role: 'user', content: 'hi' }] }, signal());
    await adapter.embed!({ model: 'e', input: ['x'] }, signal());
    expect(server.requests.map((r) => r.url)).toEqual(['/v1/chat/completions?tenant=a%20b', '/v1/embeddings?tenant=a%20b']);
  });

  it('reads query from the provider config', async () => {
    const server = await serve(() => ({ body: openaiCompletion('ok') }));
    const adapter = adapterFor('azure', { type: 'openai', apiKey: 'k', baseURL: `${server.url}/openai/v1`, query: { 'api-version': 'preview' } });
    await adapter.chat({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] }, signal());
    expect(server.requests[0]!.url).toBe('/openai/v1/chat/completions?api-version=preview');
  });

  it('talks to Azure OpenAI through the SDK\'s Azure client: deployment path, api-version, api-key header', async () => {
    const server = await serve((req) => ({ body: req.url.includes('embeddings') ? openaiEmbeddings([{ index: 0, embedding: [1] }]) : openaiCompletion('ok') }));
    const adapter = adapterForResolved({ type: 'openai', name: 'azure', azure: true, resolvedApiKey: 'azure-key', baseURL: `${server.url}/openai`, query: { 'api-version': '2024-10-21' } });
    const res = await adapter.chat({ model: 'my-gpt4o', messages: [{ role: 'user', content: 'hi' }], maxTokens: 10 }, signal());
    await adapter.embed!({ model: 'my-embedder', input: ['x'] }, signal());
    expect(res.text).toBe('ok');
    expect(server.requests.map((r) => r.url)).toEqual([
      '/openai/deployments/my-gpt4o/chat/completions?api-version=2024-10-21',
      '/openai/deployments/my-embedder/embeddings?api-version=2024-10-21',
    ]);
    expect(server.requests[0]!.headers['api-key']).toBe('azure-key');
    expect(server.requests[0]!.headers.authorization).toBeUndefined();
  });

  it('refuses an Azure provider without an api-version as a config error', () => {
    expect(() => adapterForResolved({ type: 'openai', name: 'azure', azure: true, resolvedApiKey: 'k', baseURL: 'https://r.openai.azure.com/openai' }))
      .toThrow(expect.objectContaining({ kind: 'config' }));
  });
});
