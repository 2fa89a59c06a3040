import { describe, expect, it } from 'vitest';
import { openaiEmbeddingTooLong, openaiEmbeddings } from '../../providers/test-support/wire.js';
import type { SwitchyardConfig } from '../../src/config/index.js';
import { createRouter, type Router } from '../../src/router.js';
import { captureLogger } from '../support/capture-logger.js';
import { OPENAI_PATH, openaiBodies, openaiOk } from '../support/fixtures.js';
import type { SeenRequest, Upstream } from '../support/upstream.js';
import { upstreamPerTest } from '../support/upstream-per-test.js';
import { VirtualClock } from '../support/virtual-clock.js';
import { rejectionOf } from '../support/wire-router.js';

const EMBED_PATH = '/v1/embeddings';
const MODEL = 'text-embedding-3-small';

let up: Upstream;
const routers = upstreamPerTest<Router>((u) => (up = u));

/** A vector that says which input it embeds, so order is checkable: [position in the request, length]. */
const vectorFor = (text: string) => [Number(text.replace(/\D/g, '') || 0), text.length];

/** Answers every embeddings request with one vector per input, in the SDK's default base64 encoding. */
function answerEmbeddings(req: SeenRequest) {
  const input: string[] = Array.isArray(req.body.input) ? req.body.input : [req.body.input];
  return { status: 200, headers: { 'x-request-id': 'req_emb' }, body: openaiEmbeddings(input.map((t, index) => ({ index, embedding: vectorFor(t) })), req.body.model, input.length * 3) };
}

function setup(overrides: Partial<SwitchyardConfig> = {}, clock?: VirtualClock) {
  up.otherwise(EMBED_PATH, answerEmbeddings);
  up.otherwise(`/azure${EMBED_PATH}`, answerEmbeddings);
  up.otherwise(OPENAI_PATH, () => openaiOk());
  const config: SwitchyardConfig = {
    providers: {
      openai: { type: 'openai', apiKey: 'sk-test-openai', baseURL: `${up.url}/v1` },
      azure: { type: 'openai-compatible', apiKey: 'az-test', baseURL: `${up.url}/azure/v1` },
      anthropic: { type: 'anthropic', apiKey: 'sk-ant-test', baseURL: up.url },
    },
    chains: {
      embeddings: [`openai:${MODEL}`, `azure:${MODEL}`],
      default: ['openai:gpt-4o-mini'],
      mixed: [`openai:${MODEL}`, 'openai:text-embedding-3-large'],
      'with-claude': [`openai:${MODEL}`, 'anthropic:claude-sonnet-4-6'],
    },
    retry: { maxAttempts: 1 },
    ...overrides,
  };
  const router = createRouter(config, { logger: captureLogger().logger, ...(clock ? { clock } : {}) });
  routers.push(router);
  return router;
}

/** Requests to a path; for the embeddings path, at either provider (OpenAI's and Azure's). */
const sent = (path: string) => up.requests.filter((r) => (path === EMBED_PATH ? r.path.endsWith(EMBED_PATH) : r.path === path));

describe('router.embed, through the real openai SDK', () => {
  it('returns one vector per input, in order, with usage, from the SDK\'s default base64 encoding', async () => {
    const router = setup();
    const res = await router.embed({ input: ['doc 0', 'doc 1', 'doc 2'], dimensions: 2 });
    expect(res.embeddings).toEqual([[0, 5], [1, 5], [2, 5]]);
    expect(res).toMatchObject({ provider: 'openai', model: MODEL, usage: { inputTokens: 9 } });
    expect(res.attempts).toEqual([expect.objectContaining({ provider: 'openai', ok: true, requestId: 'req_emb' })]);
    expect(sent(EMBED_PATH)).toHaveLength(1);
    expect(sent(EMBED_PATH)[0]!.body).toMatchObject({ model: MODEL, input: ['doc 0', 'doc 1', 'doc 2'], dimensions: 2, encoding_format: 'base64' });
  });

  it('takes a single string as one input', async () => {
    const router = setup();
    const res = await router.embed({ input: 'hello 7' });
    expect(res.embeddings).toEqual([[7, 7]]);
  });

  it('falls through to the same model on a second provider when the first answers 503', async () => {
    const router = setup();
    up.script(EMBED_PATH, { status: 503, body: openaiBodies.overloaded503 });
    const res = await router.embed({ input: ['a 1', 'b 2'] });
    expect(res.provider).toBe('azure');
    expect(res.model).toBe(MODEL);
    expect(res.embeddings).toEqual([[1, 3], [2, 3]]);
    expect(res.attempts.map((a) => [a.provider, a.ok, a.status])).toEqual([['openai', false, 503], ['azure', true, undefined]]);
    expect(sent(EMBED_PATH).map((r) => r.headers.authorization)).toEqual(['Bearer sk-test-openai', 'Bearer az-test']);
  });

  it('sends 2,500 inputs as batches of at most 2,048 and puts the vectors back in input order', async () => {
    const router = setup();
    const input = Array.from({ length: 2500 }, (_, i) => `item ${i}`);
    const res = await router.embed({ input });
    expect(res.embeddings).toHaveLength(2500);
    expect(res.embeddings.map((v) => v[0])).toEqual(input.map((_, i) => i));
    const batches = sent(EMBED_PATH).map((r) => r.body.input.length);
    expect(batches).toEqual([2048, 452]);
    expect(res.usage.inputTokens).toBe(2500 * 3);
  });

  it('splits inputs whose tokens exceed OpenAI\'s 300,000 a request into several requests, each under it, in order', async () => {
    const router = setup();
    // 100 inputs of 8,000 tokens each (32,000 characters: the counter's characters / 4): 800,000 in all.
    const input = Array.from({ length: 100 }, (_, i) => `${i} `.padEnd(32_000, 'x'));
    const res = await router.embed({ input });
    const requests = sent(EMBED_PATH);
    expect(requests.length).toBeGreaterThan(1);
    for (const r of requests) {
      expect((r.body.input as string[]).reduce((sum, t) => sum + Math.ceil(t.length / 4), 0)).toBeLessThanOrEqual(300_000);
    }
    // Later batches go out concurrently, so they may arrive in any order: each is a consecutive slice.
    const batches = requests.map((r) => r.body.input as string[]).sort((a, b) => parseInt(a[0]!, 10) - parseInt(b[0]!, 10));
    expect(batches.flat()).toEqual(input);
    expect(res.embeddings.map((v) => v[0])).toEqual(input.map((_, i) => i));
  });

  it('falls through to another deployment of the same model when a later batch meets a 503', async () => {
    const router = setup();
    // The second batch meets a 503 at OpenAI and goes to Azure's deployment of the same model.
    up.script(EMBED_PATH, answerEmbeddings(await fakeSeen(2048)), { status: 503, body: openaiBodies.overloaded503 });
    const res = await router.embed({ input: Array.from({ length: 2100 }, (_, i) => `x ${i}`) });
    expect(res.embeddings).toHaveLength(2100);
    expect(res.embeddings.at(-1)![0]).toBe(2099);
    expect(res.attempts.map((a) => `${a.provider}:${a.ok}`)).toEqual(['openai:true', 'openai:false', 'azure:true']);
  });

  it('keeps every batch on the model that answered the first, even when the chain declares another model interchangeable', async () => {
    const router = setup({
      chains: { embeddings: [`openai:${MODEL}`, 'azure:emb-small-deployment'] },
      embeddings: { interchangeable: [[MODEL, 'emb-small-deployment']] },
    });
    // The first batch is answered by OpenAI's model; the second meets a 503 there, and the only other
    // target names another model: the call fails rather than mix two models' vectors in one answer.
    up.script(EMBED_PATH, answerEmbeddings(await fakeSeen(2048)), { status: 503, body: openaiBodies.overloaded503 });
    const err = await rejectionOf(router.embed({ input: Array.from({ length: 2100 }, (_, i) => `x ${i}`) }));
    expect(err.kind).toBe('exhausted');
    expect(sent(EMBED_PATH).map((r) => r.body.model)).toEqual([MODEL, MODEL]);
    expect(up.requests.filter((r) => r.path.startsWith('/azure'))).toHaveLength(0);
  });

  it('refuses a chain that mixes embedding models before any request', async () => {
    const router = setup();
    const err = await rejectionOf(router.embed({ chain: 'mixed', input: ['a'] }));
    expect(err.kind).toBe('config');
    expect(err.message).toMatch(/mixes embedding models openai:text-embedding-3-small and openai:text-embedding-3-large/);
    expect(up.count()).toBe(0);
  });

  it('lets a chain mix models the config declares interchangeable', async () => {
    const router = setup({
      chains: { embeddings: [`openai:${MODEL}`, 'azure:emb-small-deployment'] },
      embeddings: { interchangeable: [[MODEL, 'emb-small-deployment']] },
    });
    up.script(EMBED_PATH, { status: 503, body: openaiBodies.overloaded503 });
    const res = await router.embed({ input: ['q 1'] });
    expect(res).toMatchObject({ provider: 'azure', model: 'emb-small-deployment' });
  });

  it('refuses a chain with an Anthropic target, naming it, before any request', async () => {
    const router = setup();
    const err = await rejectionOf(router.embed({ chain: 'with-claude', input: ['a'] }));
    expect(err.kind).toBe('unsupported');
    expect(err.message).toMatch(/anthropic:claude-sonnet-4-6 \(Anthropic has no embeddings API\)/);
    expect(up.count()).toBe(0);
  });

  it('fails a 400 at once, after exactly one request, without falling through', async () => {
    const router = setup();
    up.script(EMBED_PATH, { status: 400, body: openaiEmbeddingTooLong });
    const err = await rejectionOf(router.embed({ input: ['far too long'] }));
    expect(err.kind).toBe('context_length');
    expect(sent(EMBED_PATH)).toHaveLength(1);
  });

  it('parks the provider after a quota error: later embed calls send it nothing', async () => {
    const router = setup();
    up.script(EMBED_PATH, { status: 429, body: openaiBodies.insufficientQuota });
    const first = await router.embed({ input: ['a 1'] });
    expect(first.provider).toBe('azure');
    const second = await router.embed({ input: ['b 2'] });
    expect(second.provider).toBe('azure');
    expect(second.attempts[0]).toMatchObject({ provider: 'openai', kind: 'quota_exhausted', skipped: true });
    expect(sent(EMBED_PATH).map((r) => r.headers.authorization)).toEqual(['Bearer sk-test-openai', 'Bearer az-test', 'Bearer az-test']);
  });

  it('counts embeddings on a budget of their own: an embeddings storm never takes chat\'s room', async () => {
    const router = setup({
      providers: {
        openai: { type: 'openai', apiKey: 'sk-test-openai', baseURL: `${up.url}/v1`, limits: { rpm: 1, embeddings: { rpm: 2 } } },
        azure: { type: 'openai-compatible', apiKey: 'az-test', baseURL: `${up.url}/azure/v1` },
      },
      chains: { embeddings: [`openai:${MODEL}`, `azure:${MODEL}`], default: ['openai:gpt-4o-mini'] },
    });
    const results = [];
    for (let i = 0; i < 3; i++) results.push(await router.embed({ input: [`e ${i}`] }));
    expect(results.map((r) => r.provider)).toEqual(['openai', 'openai', 'azure']);
    expect(results[2]!.attempts[0]).toMatchObject({ provider: 'openai', kind: 'local_limit', skipped: true });
    // Chat's one request a minute is still there.
    expect((await router.chat({ messages: [{ role: 'user', content: 'hi' }] })).provider).toBe('openai');
    expect(sent(OPENAI_PATH)).toHaveLength(1);
  });

  it('reserves no output tokens: a call whose inputs fill the embeddings TPM exactly is admitted at once', async () => {
    const clock = new VirtualClock();
    // 400 and 800 ASCII characters: 100 + 200 tokens as OpenAI's limiter counts them (characters / 4).
    const input = ['a'.repeat(400), 'b'.repeat(800)];
    const router = setup({
      providers: {
        openai: { type: 'openai', apiKey: 'sk-test-openai', baseURL: `${up.url}/v1`, limits: { embeddings: { tpm: 300 } } },
        azure: { type: 'openai-compatible', apiKey: 'az-test', baseURL: `${up.url}/azure/v1` },
      },
      chains: { embeddings: [`openai:${MODEL}`, `azure:${MODEL}`] },
    }, clock);
    const res = await router.embed({ input });
    expect(res.provider).toBe('openai');
    expect(res.attempts).toEqual([expect.objectContaining({ provider: 'openai', ok: true })]);
    expect(res.attempts[0]!.waitedMs ?? 0).toBe(0);
    expect(clock.sleeps).toEqual([]);
    expect(sent(EMBED_PATH).map((r) => r.headers.authorization)).toEqual(['Bearer sk-test-openai']);
  });

  it('refuses bad input naming the field, before any request', async () => {
    const router = setup();
    for (const [request, field] of [[{ input: [] }, /input/], [{ input: [''] }, /empty string/], [{ input: ['a'], dimensions: 0 }, /dimensions/], [{ input: ['a'], chain: 'nope' }, /unknown chain "nope"/]] as const) {
      const err = await rejectionOf(router.embed(request as never));
      expect(err.kind).toBe('invalid_request');
      expect(err.message).toMatch(field);
    }
    expect(up.count()).toBe(0);
  });
});

/** A stand-in seen request with `n` inputs numbered from 0, to script a whole batch's answer up front. */
async function fakeSeen(n: number): Promise<SeenRequest> {
  return { method: 'POST', path: EMBED_PATH, headers: {}, at: 0, body: { model: MODEL, input: Array.from({ length: n }, (_, i) => `x ${i}`) } };
}
