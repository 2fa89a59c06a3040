import { describe, expect, it } from 'vitest';
import { openaiBodies } from '../support/fixtures.js';
import type { Upstream } from '../support/upstream.js';
import { upstreamPerTest } from '../support/upstream-per-test.js';
import { answerEmbeddings, EMBED_MODEL, EMBED_PATH, startHarness, vectorOf, xHeaders, type Harness } from './gateway-harness.js';
import { OPENAI_KEY } from '../support/wire-router.js';

let up: Upstream;
let h: Harness;
upstreamPerTest((u) => (up = u), () => h?.close());

const BACKUP_PATH = '/backup/v1/embeddings';

/** Two deployments of one embeddings model: openai, then an openai-compatible backup on its own path. */
const twoDeployments = (u: Upstream) => ({
  providers: {
    openai: { type: 'openai' as const, apiKey: OPENAI_KEY, baseURL: `${u.url}/v1`, timeoutMs: 5_000 },
    backup: { type: 'openai-compatible' as const, apiKey: 'sk-backup', baseURL: `${u.url}/backup/v1`, timeoutMs: 5_000 },
  },
  chains: { default: ['openai:gpt-4o-mini'], embeddings: [`openai:${EMBED_MODEL}`, `backup:${EMBED_MODEL}`] },
  retry: { baseDelayMs: 1, maxDelayMs: 2, maxAttempts: 1 },
});

describe('gateway pass-through for /v1/embeddings', () => {
  it('sends the client\'s bytes with only model rewritten and answers the upstream\'s body byte for byte', async () => {
    h = await startHarness(up);
    // An answer of the upstream's own: its usage, its order of fields, a request id the translated path would not copy into the body.
    const body = { object: 'list', data: [{ object: 'embedding', index: 0, embedding: Buffer.from(new Float32Array(vectorOf('hi', 8)).buffer).toString('base64') }], model: 'text-embedding-3-small-upstream', usage: { prompt_tokens: 1, total_tokens: 1 } };
    up.script(EMBED_PATH, { status: 200, headers: { 'x-request-id': 'req_emb_pass' }, body });
    const params = { model: 'embeddings', input: 'hi', encoding_format: 'base64', dimensions: 8 };
    const response = await fetch(`${h.url}/v1/embeddings`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(params) });
    expect(up.count(EMBED_PATH)).toBe(1);
    expect(up.requests[0]!.text).toBe(JSON.stringify({ ...params, model: EMBED_MODEL }));
    expect(await response.text()).toBe(JSON.stringify(body));
    expect(xHeaders(response.headers)).toMatchObject({ 'x-switchyard-provider': 'openai', 'x-switchyard-model': EMBED_MODEL, 'x-switchyard-attempts': '1', 'x-switchyard-upstream-request-id': 'req_emb_pass' });
  });

  it('gives the openai SDK its vectors through pass-through', async () => {
    h = await startHarness(up);
    const res = await h.client().embeddings.create({ model: 'embeddings', input: ['a', 'bb'] });
    // The SDK sends encoding_format base64 and decodes the upstream's base64 itself.
    expect(up.requests[0]!.body).toMatchObject({ model: EMBED_MODEL, input: ['a', 'bb'], encoding_format: 'base64' });
    expect(res.data.map((d) => d.embedding)).toEqual([vectorOf('a', 1024), vectorOf('bb', 1024)]);
    expect(res.usage).toEqual({ prompt_tokens: 6, total_tokens: 6 });
  });

  it('falls through on a 503 to the next deployment, which gets the same bytes and answers', async () => {
    h = await startHarness(up, twoDeployments(up) as never);
    up.script(EMBED_PATH, { status: 503, body: openaiBodies.overloaded503 });
    up.otherwise(BACKUP_PATH, answerEmbeddings(4));
    const params = { model: 'embeddings', input: ['x', 'yy'], encoding_format: 'float' };
    const response = await fetch(`${h.url}/v1/embeddings`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(params) });
    const text = await response.text();
    expect([up.count(EMBED_PATH), up.count(BACKUP_PATH)]).toEqual([1, 1]);
    for (const seen of up.requests) expect(seen.text).toBe(JSON.stringify({ ...params, model: EMBED_MODEL }));
    expect(response.headers.get('x-switchyard-provider')).toBe('backup');
    expect(response.headers.get('x-switchyard-attempts')).toBe('2');
    expect(JSON.parse(text)).toEqual({ object: 'list', data: [{ object: 'embedding', index: 0, embedding: vectorOf('x', 4) }, { object: 'embedding', index: 1, embedding: vectorOf('yy', 4) }], model: EMBED_MODEL, usage: { prompt_tokens: 6, total_tokens: 6 } });
  });

  it('answers with its own body when the server ignored the encoding asked (floats for base64)', async () => {
    h = await startHarness(up);
    up.script(EMBED_PATH, { status: 200, body: { object: 'list', data: [{ object: 'embedding', index: 0, embedding: vectorOf('hi', 4) }], model: EMBED_MODEL, usage: { prompt_tokens: 1, total_tokens: 1 } } });
    const res = await h.client().embeddings.create({ model: 'embeddings', input: 'hi' });
    expect(res.data[0]!.embedding).toEqual(vectorOf('hi', 4));
  });

  it('translates with passThrough: false: the router\'s own body upstream', async () => {
    h = await startHarness(up, {}, { passThrough: false });
    const params = { model: 'embeddings', input: 'hi', encoding_format: 'float', user: 'u1' };
    await fetch(`${h.url}/v1/embeddings`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(params) });
    expect(up.requests[0]!.text).not.toBe(JSON.stringify({ ...params, model: EMBED_MODEL }));
    expect(up.requests[0]!.body).toEqual({ model: EMBED_MODEL, input: ['hi'], encoding_format: 'base64' });
  });
});
