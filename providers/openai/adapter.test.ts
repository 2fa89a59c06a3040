import nock from 'nock';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ErrorKind } from '../../src/errors.js';
import {
  compatibleInsufficientCredits, compatibleRateLimitNullCode, openai429Headers, openaiBodies, openaiCompletion, openaiSuccessHeaders,
} from '../../test/support/fixtures.js';
import { adapterFor, closedPort, failureOf, fixedClock } from '../test-support/adapter-harness.js';
import { vllm } from '../shared/presets/wire-fixtures.js';
import { openAIBody } from './adapter.js';

const BASE = 'http://openai.test/v1';
const KEY = 'sk-test-openai-0123456789abcdef';
const request = { model: 'gpt-4o-mini', messages: [{ role: 'user' as const, content: 'Hello' }] };
/** The adapters' clock in tests that compute a wait from a date: a whole second, so the waits come out exact. */
const NOW_MS = Date.parse('2026-11-29T12:00:00Z');

beforeAll(() => nock.disableNetConnect());
afterEach(() => {
  expect(nock.isDone()).toBe(true);
  nock.cleanAll();
});
afterAll(() => nock.enableNetConnect());

const openai = () => adapterFor('openai', { type: 'openai', apiKey: KEY, baseURL: BASE });

type ErrorCase = [string, number, unknown, Record<string, string>, { kind: ErrorKind; code?: string; retryAfterMs?: number; requestId?: string }];
/** Error answers and the facts each maps to: the same on the SDK's path and on the pass-through path. */
const ERROR_CASES: ErrorCase[] = [
    ['429 rate_limit_exceeded (requests) with retry-after', 429, openaiBodies.rateLimitRequests, openai429Headers,
      { kind: 'rate_limited', code: 'rate_limit_exceeded', retryAfterMs: 20_000, requestId: 'req_abc' }],
    ['429 without retry-after: the exhausted window\'s Go-duration reset', 429, openaiBodies.rateLimitRequests,
      { 'x-request-id': 'req_r', 'x-ratelimit-remaining-requests': '0', 'x-ratelimit-reset-requests': '300ms', 'x-ratelimit-remaining-tokens': '39000', 'x-ratelimit-reset-tokens': '1.5s' },
      { kind: 'rate_limited', code: 'rate_limit_exceeded', retryAfterMs: 300, requestId: 'req_r' }],
    ['429 (tokens) with no headers: the message\'s "try again in"', 429, openaiBodies.rateLimitTokens, {},
      { kind: 'rate_limited', code: 'rate_limit_exceeded', retryAfterMs: 26_604 }],
    ['429 request too large for the TPM', 429, openaiBodies.requestTooLarge, {}, { kind: 'rate_limited', code: 'request_too_large' }],
    ['429 slow_down', 429, openaiBodies.slowDown, {}, { kind: 'rate_limited', code: 'slow_down' }],
    ['429 whose error is a bare string', 429, openaiBodies.slowDownString, {}, { kind: 'rate_limited', code: 'slow_down' }],
    ['429 insufficient_quota', 429, openaiBodies.insufficientQuota, { 'x-request-id': 'req_q' }, { kind: 'quota_exhausted', code: 'insufficient_quota', requestId: 'req_q' }],
    ['429 insufficient_quota with the old null code', 429, openaiBodies.insufficientQuotaOld, {}, { kind: 'quota_exhausted', code: 'insufficient_quota' }],
    ['429 project_spend_limit_exceeded', 429, openaiBodies.projectSpendLimit, {}, { kind: 'quota_exhausted', code: 'project_spend_limit_exceeded' }],
    ['401 invalid_api_key', 401, openaiBodies.invalidApiKey, {}, { kind: 'auth', code: 'invalid_api_key' }],
    ['403', 403, { error: { message: 'forbidden', type: 'invalid_request_error', param: null, code: null } }, {}, { kind: 'auth' }],
    ['400 context_length_exceeded', 400, openaiBodies.contextLength, {}, { kind: 'context_length', code: 'context_length_exceeded' }],
    ['400 content policy', 400, { error: { message: 'Your request was rejected as a result of our safety system.', type: 'invalid_request_error', param: null, code: 'content_policy_violation' } }, {}, { kind: 'content_filter', code: 'content_policy_violation' }],
    ['400 other', 400, { error: { message: "Invalid value for 'temperature'", type: 'invalid_request_error', param: 'temperature', code: null } }, {}, { kind: 'bad_request' }],
    ['404 model_not_found', 404, openaiBodies.modelNotFound, {}, { kind: 'not_found', code: 'model_not_found' }],
    ['408', 408, { error: { message: 'timeout', type: 'server_error', param: null, code: null } }, {}, { kind: 'server' }],
    ['409', 409, { error: { message: 'conflict', type: 'server_error', param: null, code: null } }, {}, { kind: 'server' }],
    ['413', 413, { error: { message: 'too large', type: 'invalid_request_error', param: null, code: null } }, {}, { kind: 'bad_request' }],
    ['422', 422, { error: { message: 'unprocessable', type: 'invalid_request_error', param: null, code: null } }, {}, { kind: 'bad_request' }],
    ['500 server_error', 500, openaiBodies.serverError, { 'x-request-id': 'req_500' }, { kind: 'server', code: 'server_error', requestId: 'req_500' }],
    ['503 overloaded', 503, openaiBodies.overloaded503, {}, { kind: 'server', code: 'server_error' }],
    ['503 server_is_overloaded with retry-after', 503, openaiBodies.serverIsOverloaded, { 'retry-after': '2' }, { kind: 'server', code: 'server_is_overloaded', retryAfterMs: 2000 }],
    ['502 with an HTML body', 502, '<html><body>Bad gateway</body></html>', { 'content-type': 'text/html' }, { kind: 'server' }],
];
/** A pass-through body: what the gateway forwards as the client sent it. */
const RAW_BODY = JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Hello' }] });

describe('openai adapter: errors mapped to facts through the real SDK', () => {
  it.each(ERROR_CASES)('%s', async (_what, status, body, headers, expected) => {
    nock(BASE).post('/chat/completions').reply(status, body as nock.Body, headers);
    const err = await failureOf(openai(), request);
    expect(err.status).toBe(status);
    expect(err).toMatchObject({ provider: 'openai', model: 'gpt-4o-mini', ...expected });
    if (expected.retryAfterMs !== undefined) expect(err.retryAfterMs).toBeCloseTo(expected.retryAfterMs, 3);
    else if (expected.kind !== 'rate_limited' && expected.kind !== 'server') expect(err.retryAfterMs).toBeUndefined();
  });

  it.each(ERROR_CASES)('pass-through (the client\'s bytes on the node:http transport): %s', async (_what, status, body, headers, expected) => {
    nock(BASE).post('/chat/completions').reply(status, body as nock.Body, headers);
    const err = await failureOf(openai(), { ...request, raw: RAW_BODY });
    expect(err.status).toBe(status);
    expect(err).toMatchObject({ provider: 'openai', model: 'gpt-4o-mini', ...expected });
    if (expected.retryAfterMs !== undefined) expect(err.retryAfterMs).toBeCloseTo(expected.retryAfterMs, 3);
    else if (expected.kind !== 'rate_limited' && expected.kind !== 'server') expect(err.retryAfterMs).toBeUndefined();
  });

  it('never puts the API key into an error message, even when the provider echoes it', async () => {
    nock(BASE).post('/chat/completions').reply(401, { error: { ...openaiBodies.invalidApiKey.error, message: `Incorrect API key provided: ${KEY}.` } });
    const err = await failureOf(openai(), request);
    expect(err.message).not.toContain(KEY);
    expect(err.message).not.toContain('0123456789abcdef');
    expect(err.message).toContain('[REDACTED]');
  });

  it('maps a refused connection to transport', async () => {
    const port = await closedPort();
    const adapter = adapterFor('openai', { type: 'openai', apiKey: KEY, baseURL: `http://127.0.0.1:${port}/v1` });
    nock.enableNetConnect(`127.0.0.1:${port}`);
    const err = await failureOf(adapter, request);
    expect(err.kind).toBe('transport');
    expect(err.code).toBe('ECONNREFUSED');
    nock.disableNetConnect();
  });

  it('maps a reset connection to transport', async () => {
    // nock's replyWithError breaks inside its interceptor for node:http (a real reset on the default
    // transport is in the contract suite), so this one goes through the SDK's fetch transport.
    nock(BASE).post('/chat/completions').replyWithError({ code: 'ECONNRESET', message: 'socket hang up' });
    const err = await failureOf(adapterFor('openai', { type: 'openai', apiKey: KEY, baseURL: BASE, transport: 'fetch' }), request);
    expect(err.kind).toBe('transport');
  });

  it('maps a 200 with a body that is not JSON to transport (malformed)', async () => {
    nock(BASE).post('/chat/completions').reply(200, 'not json at all', { 'content-type': 'application/json' });
    expect((await failureOf(openai(), request)).kind).toBe('transport');
  });

  it('maps a 200 without choices to transport (malformed)', async () => {
    nock(BASE).post('/chat/completions').reply(200, { id: 'x', object: 'chat.completion', choices: [] });
    const err = await failureOf(openai(), request);
    expect(err).toMatchObject({ kind: 'transport', code: 'malformed_response' });
  });

  it('maps an aborted signal to aborted: aborted once the request reached the server, before its answer', async () => {
    const controller = new AbortController();
    // The answer would take a minute: only the abort can end this call in time.
    const scope = nock(BASE).post('/chat/completions').delay(60_000).reply(200, openaiCompletion());
    scope.on('request', () => controller.abort());
    const err = await failureOf(openai(), request, controller.signal);
    expect(err.kind).toBe('aborted');
    nock.abortPendingRequests();
  });
});

describe('openai adapter: requests and answers', () => {
  it('normalises a completion and reads the rate-limit headroom', async () => {
    let sent: any;
    let auth: string | undefined;
    nock(BASE).post('/chat/completions', (b) => ((sent = b), true)).reply(function () {
      auth = this.req.headers.authorization as string;
      return [200, openaiCompletion('Hi there', 'gpt-4o-mini-2024-07-18'), openaiSuccessHeaders];
    });
    const res = await openai().chat({ ...request, maxTokens: 50, temperature: 0.2 }, { signal: new AbortController().signal });
    expect(res).toMatchObject({
      text: 'Hi there', finishReason: 'stop', usage: { inputTokens: 19, outputTokens: 10 }, model: 'gpt-4o-mini-2024-07-18',
      requestId: 'req_1332ed8a813a4caaa2f0f3c55a6a68cb',
      rateLimit: { requests: { limit: 60, remaining: 59, resetMs: 1000 }, tokens: { limit: 150000, remaining: 149984, resetMs: 360_000 } },
    });
    expect(sent).toMatchObject({ model: 'gpt-4o-mini', messages: request.messages, max_completion_tokens: 50, temperature: 0.2 });
    expect(auth).toBe(`Bearer ${KEY}`);
  });

  it('sends exactly one request: the SDK retries are off', async () => {
    const scope = nock(BASE).post('/chat/completions').times(3).reply(503, openaiBodies.overloaded503);
    await failureOf(openai(), request);
    expect(scope.pendingMocks()).toHaveLength(1); // 3 offered, 1 taken
    nock.cleanAll();
  });

  it.each([
    ['length', 'length'], ['tool_calls', 'tool_calls'], ['function_call', 'tool_calls'], ['content_filter', 'content_filter'], ['weird', 'other'],
  ])('maps finish_reason %s to %s', async (finish, expected) => {
    const body = openaiCompletion();
    body.choices[0]!.finish_reason = finish;
    nock(BASE).post('/chat/completions').reply(200, body);
    expect((await openai().chat(request, { signal: new AbortController().signal })).finishReason).toBe(expected);
  });

  it('drops temperature for reasoning models, which reject it', () => {
    expect(openAIBody({ model: 'o3-mini', messages: [], temperature: 0.3 }, false)).not.toHaveProperty('temperature');
    expect(openAIBody({ model: 'gpt-5', messages: [], temperature: 0.3 }, false)).not.toHaveProperty('temperature');
    expect(openAIBody({ model: 'gpt-4o', messages: [], temperature: 0.3 }, false)).toHaveProperty('temperature', 0.3);
  });
});

describe('openai-compatible adapter', () => {
  const compat = () => adapterFor('local', { type: 'openai-compatible', baseURL: 'http://vllm.test/v1' });

  it('sends max_tokens (what vLLM and Ollama read) to any base URL, without needing a key', async () => {
    let sent: any;
    nock('http://vllm.test/v1').post('/chat/completions', (b) => ((sent = b), true)).reply(200, openaiCompletion('ok', 'llama3:8b'));
    const res = await compat().chat({ model: 'llama3:8b', messages: request.messages, maxTokens: 64, temperature: 0.7 }, { signal: new AbortController().signal });
    expect(res.text).toBe('ok');
    expect(sent).toMatchObject({ model: 'llama3:8b', max_tokens: 64, temperature: 0.7 });
    expect(sent).not.toHaveProperty('max_completion_tokens');
  });

  it('reads x-ratelimit-reset as a Unix timestamp in seconds: the wait runs until that moment', async () => {
    const resetAt = NOW_MS / 1000 + 30;
    nock('http://vllm.test/v1').post('/chat/completions').reply(429, compatibleRateLimitNullCode, { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String(resetAt) });
    const err = await failureOf(adapterFor('local', { type: 'openai-compatible', baseURL: 'http://vllm.test/v1' }, fixedClock(NOW_MS)), { ...request, model: 'llama3:8b' });
    expect(err.kind).toBe('rate_limited');
    expect(err.retryAfterMs).toBe(30_000);
  });

  it('treats a 429 with code insufficient_credits as exhausted credit, not a rate limit', async () => {
    nock('http://vllm.test/v1').post('/chat/completions').reply(429, compatibleInsufficientCredits);
    expect(await failureOf(compat(), { ...request, model: 'm' })).toMatchObject({ kind: 'quota_exhausted', code: 'insufficient_credits' });
  });

  it('treats a 402 as exhausted credit', async () => {
    nock('http://vllm.test/v1').post('/chat/completions').reply(402, { error: { message: 'Payment required', type: null, code: null } });
    expect((await failureOf(compat(), { ...request, model: 'm' })).kind).toBe('quota_exhausted');
  });

  it('pass-through: a top-level error body (older vLLM) gets OpenAI\'s envelope first, so its context-length message still maps, as on the SDK\'s path', async () => {
    const { status, body } = vllm.contextLengthTopLevel;
    nock('http://vllm.test/v1').post('/chat/completions').twice().reply(status, body);
    const viaSdk = await failureOf(compat(), { ...request, model: 'm' });
    const passed = await failureOf(compat(), { ...request, model: 'm', raw: RAW_BODY });
    expect(passed).toMatchObject({ kind: 'context_length', status: 400 });
    expect([passed.kind, passed.code, passed.message]).toEqual([viaSdk.kind, viaSdk.code, viaSdk.message]);
  });

  it('treats a 429 whose code is null as a rate limit', async () => {
    nock('http://vllm.test/v1').post('/chat/completions').reply(429, compatibleRateLimitNullCode);
    expect((await failureOf(compat(), { ...request, model: 'm' })).kind).toBe('rate_limited');
  });
});
