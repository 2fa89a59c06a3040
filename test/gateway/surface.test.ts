import OpenAI, { APIError } from 'openai';
import { describe, expect, it } from 'vitest';
import { OPENAI_PATH } from '../support/fixtures.js';
import type { Upstream } from '../support/upstream.js';
import { upstreamPerTest } from '../support/upstream-per-test.js';
import { EMBED_MODEL, EMBED_PATH, GATEWAY_PATHS, startHarness, vectorOf, type Harness } from './gateway-harness.js';

let up: Upstream;
let h: Harness;
upstreamPerTest((u) => (up = u), () => h?.close());

const failure = (p: Promise<unknown>) => p.then(() => { throw new Error('expected the request to fail'); }, (e: unknown) => e as APIError);

describe.each(GATEWAY_PATHS)('$path', ({ passThrough }) => {
  describe('POST /v1/embeddings through the openai SDK', () => {
    it('returns vectors of the full length with the SDK default encoding (base64), and with float', async () => {
      h = await startHarness(up, {}, { passThrough });
      const client = h.client();
      const input = ['the first text', 'a second'];
      const { data: byDefault, response } = await client.embeddings.create({ model: 'embeddings', input }).withResponse();
      expect(up.requests[0]!.body).toMatchObject({ model: EMBED_MODEL, input });
      expect(byDefault.data.map((d) => d.embedding.length)).toEqual([1024, 1024]);
      expect(byDefault.data.map((d) => d.embedding)).toEqual(input.map((t) => vectorOf(t, 1024)));
      expect(byDefault.data.map((d) => d.index)).toEqual([0, 1]);
      expect(byDefault).toMatchObject({ object: 'list', model: EMBED_MODEL, usage: { prompt_tokens: 6, total_tokens: 6 } });
      expect(response.headers.get('x-switchyard-model')).toBe(EMBED_MODEL);
      expect(response.headers.get('x-switchyard-upstream-request-id')).toBe('req_emb');

      const floats = await client.embeddings.create({ model: 'embeddings', input: 'one', encoding_format: 'float' });
      expect(floats.data[0]!.embedding).toEqual(vectorOf('one', 1024));
    });

    it('refuses token arrays and unknown fields with the envelope, sending nothing', async () => {
      h = await startHarness(up, {}, { passThrough });
      const client = h.client();
      const tokens = await failure(client.embeddings.create({ model: 'embeddings', input: [[1, 2, 3]] }));
      expect([tokens.status, tokens.code, tokens.param]).toEqual([400, 'invalid_parameter', 'input']);
      const chat = await failure(client.embeddings.create({ model: 'default', input: 'x' }));
      expect([chat.status, chat.type]).toEqual([400, 'invalid_request_error']);
      expect(chat.message).toMatch(/anthropic:claude-sonnet-4-6 \(Anthropic has no embeddings API\)/);
      expect(up.count(EMBED_PATH)).toBe(0);
    });
  });
});

describe('GET /v1/models, /healthz, /readyz and /metrics', () => {
  it('lists the chains as models, and retrieves one', async () => {
    h = await startHarness(up);
    const client = h.client();
    const list = await client.models.list();
    expect(list.data.map((m) => m.id)).toEqual(['default', 'openai-only', 'embeddings']);
    expect(list.data[0]).toEqual({ id: 'default', object: 'model', created: expect.any(Number), owned_by: 'switchyard' });
    expect(await client.models.retrieve('openai-only')).toMatchObject({ id: 'openai-only', object: 'model' });
    const missing = await failure(client.models.retrieve('gpt-4o'));
    expect([missing.status, missing.code]).toEqual([404, 'model_not_found']);
  });

  it('serves switchyard_ metrics in Prometheus text, and health and readiness', async () => {
    h = await startHarness(up);
    await h.client().chat.completions.create({ model: 'default', messages: [{ role: 'user', content: 'hi' }] });
    const root = h.client(undefined, { root: true });
    const text = (await root.get('/metrics')) as string;
    expect(text).toMatch(/^switchyard_attempts_total\{provider="openai",model="gpt-4o-mini",outcome="ok",skipped="false"\} 1$/m);
    expect(text).toMatch(/^# TYPE switchyard_call_duration_seconds histogram$/m);
    expect(await root.get('/healthz')).toEqual({ status: 'ok' });
    expect(await root.get('/readyz')).toEqual({ status: 'ready', store: 'memory' });
  });
});

describe('errors in the OpenAI envelope, with nothing sent upstream', () => {
  it('answers bad JSON 400 invalid_json', async () => {
    h = await startHarness(up);
    const err = await failure(h.client().post('/chat/completions', { body: '{"model": "default", "messages": [', headers: { 'content-type': 'application/json' } }));
    expect(err).toBeInstanceOf(OpenAI.BadRequestError);
    expect([err.status, err.type, err.code]).toEqual([400, 'invalid_request_error', 'invalid_json']);
    expect(err.headers!.get('x-should-retry')).toBe('false');
    expect(up.count()).toBe(0);
  });

  it('answers an unknown chain 404 model_not_found, and a field with no equivalent 400 naming it', async () => {
    h = await startHarness(up);
    const client = h.client();
    const unknown = await failure(client.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] }));
    expect(unknown).toBeInstanceOf(OpenAI.NotFoundError);
    expect([unknown.code, unknown.param]).toEqual(['model_not_found', 'model']);
    const field = await failure(client.chat.completions.create({ model: 'default', n: 2, messages: [{ role: 'user', content: 'hi' }] }));
    expect([field.status, field.code, field.param]).toEqual([400, 'unsupported_parameter', 'n']);
    expect(field.message).toMatch(/^400 n is not supported: one choice per call/);
    expect(up.count()).toBe(0);
  });

  it('names a field the router refuses the way the client sent it: param max_tokens, read from the error, not its message', async () => {
    h = await startHarness(up);
    const client = h.client();
    const zero = await failure(client.chat.completions.create({ model: 'default', max_tokens: 0, messages: [{ role: 'user', content: 'hi' }] }));
    expect([zero.status, zero.type, zero.param, zero.code]).toEqual([400, 'invalid_request_error', 'max_tokens', 'invalid_parameter']);
    // One line, in the wire's words: the router's own name for the parameter never reaches the client.
    expect(zero.message).toBe('400 invalid request: max_tokens: Too small: expected number to be >0');
    const newer = await failure(client.chat.completions.create({ model: 'default', max_completion_tokens: 0, messages: [{ role: 'user', content: 'hi' }] }));
    expect(newer.param).toBe('max_completion_tokens');
    const topP = await failure(client.chat.completions.create({ model: 'default', top_p: 2, messages: [{ role: 'user', content: 'hi' }] }));
    expect(topP.param).toBe('top_p');
    const tool = await failure(client.chat.completions.create({
      model: 'default', messages: [{ role: 'user', content: 'hi' }],
      tools: [{ type: 'function', function: { name: 'has space', parameters: { type: 'object' } } }],
    }));
    expect(tool.param).toBe('tools[0].function.name');
    expect(up.count()).toBe(0);
  });

  it('answers a body that is not JSON 415 unsupported_media_type', async () => {
    h = await startHarness(up);
    const err = await failure(h.client().post('/chat/completions', { body: 'model=default&prompt=hi', headers: { 'content-type': 'application/x-www-form-urlencoded' } }));
    expect(err).toBeInstanceOf(APIError);
    expect([err.status, err.type, err.code]).toEqual([415, 'invalid_request_error', 'unsupported_media_type']);
    expect(err.headers!.get('x-should-retry')).toBe('false');
    expect(up.count()).toBe(0);
  });

  it('answers a body over gateway.bodyLimitBytes 413 request_too_large', async () => {
    h = await startHarness(up, {}, { bodyLimitBytes: 4_096 });
    const err = await failure(h.client().chat.completions.create({ model: 'default', messages: [{ role: 'user', content: 'x'.repeat(8_000) }] }));
    expect([err.status, err.code]).toEqual([413, 'request_too_large']);
    expect(up.count(OPENAI_PATH)).toBe(0);
  });
});
