import nock from 'nock';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ErrorKind } from '../../src/errors.js';
import { anthropic429Headers, anthropicBodies, anthropicMessage, anthropicSuccessHeaders } from '../../test/support/fixtures.js';
import { adapterFor, failureOf, fixedClock } from '../test-support/adapter-harness.js';
import { anthropicBody, DEFAULT_MAX_TOKENS } from './adapter.js';

const BASE = 'http://anthropic.test';
const KEY = 'sk-ant-test-0123456789abcdef';
const request = { model: 'claude-sonnet-4-6', messages: [{ role: 'user' as const, content: 'Hello' }] };
const anthropic = () => adapterFor('anthropic', { type: 'anthropic', apiKey: KEY, baseURL: BASE });

beforeAll(() => nock.disableNetConnect());
afterEach(() => {
  expect(nock.isDone()).toBe(true);
  nock.cleanAll();
});
afterAll(() => nock.enableNetConnect());

/** The adapter's clock in tests that compute a wait from a date: a whole second, as RFC 3339 resets are. */
const NOW_MS = Date.parse('2026-11-29T12:00:00Z');
const NOW_PLUS = (s: number) => new Date(NOW_MS + s * 1000).toISOString().replace(/\.\d+Z$/, 'Z');

describe('anthropic adapter: errors mapped to facts through the real SDK', () => {
  it.each<[string, number, unknown, Record<string, string>, { kind: ErrorKind; code?: string; requestId?: string }]>([
    ['429 rate_limit_error', 429, anthropicBodies.rateLimit, { ...anthropic429Headers, 'retry-after': '7' }, { kind: 'rate_limited', code: 'rate_limit_error', requestId: 'req_01T5fCVnYdf9X5ZW6KayReBK' }],
    ['429 enforced_spend_limit_reached: a monthly cap, not a rate limit', 429, anthropicBodies.enforcedSpendLimit, {}, { kind: 'quota_exhausted', code: 'enforced_spend_limit_reached' }],
    ['400 "credit balance is too low"', 400, anthropicBodies.creditTooLow, {}, { kind: 'quota_exhausted', code: 'invalid_request_error' }],
    ['400 "specified API usage limits"', 400, anthropicBodies.usageLimits, {}, { kind: 'quota_exhausted' }],
    ['402 billing_error', 402, anthropicBodies.billing402, {}, { kind: 'quota_exhausted', code: 'billing_error' }],
    ['529 overloaded_error', 529, anthropicBodies.overloaded, { 'request-id': 'req_011TEST529' }, { kind: 'server', code: 'overloaded_error', requestId: 'req_011TEST529' }],
    ['500 api_error', 500, anthropicBodies.apiError, {}, { kind: 'server', code: 'api_error' }],
    ['400 invalid_request_error', 400, anthropicBodies.invalidRequest, {}, { kind: 'bad_request', code: 'invalid_request_error' }],
    ['400 prompt is too long', 400, anthropicBodies.promptTooLong, {}, { kind: 'context_length' }],
    ['401 authentication_error', 401, anthropicBodies.authentication, {}, { kind: 'auth', code: 'authentication_error' }],
    ['403 permission_error', 403, anthropicBodies.permission, {}, { kind: 'auth', code: 'permission_error' }],
    ['404 not_found_error', 404, anthropicBodies.notFound, {}, { kind: 'not_found', code: 'not_found_error' }],
    ['413 request_too_large (sent by Cloudflare)', 413, anthropicBodies.tooLarge, {}, { kind: 'bad_request', code: 'request_too_large' }],
  ])('%s', async (_what, status, body, headers, expected) => {
    nock(BASE).post('/v1/messages').reply(status, body as nock.Body, headers);
    const err = await failureOf(anthropic(), request);
    expect(err.status).toBe(status);
    expect(err).toMatchObject({ provider: 'anthropic', model: 'claude-sonnet-4-6', ...expected });
  });

  it('reads retry-after on a 429 before the reset headers', async () => {
    nock(BASE).post('/v1/messages').reply(429, anthropicBodies.rateLimit, { ...anthropic429Headers, 'retry-after': '7' });
    expect((await failureOf(anthropic(), request)).retryAfterMs).toBe(7000);
  });

  it('reads the RFC 3339 reset of the exhausted window when there is no retry-after', async () => {
    nock(BASE).post('/v1/messages').reply(429, anthropicBodies.rateLimit, {
      'anthropic-ratelimit-requests-remaining': '0', 'anthropic-ratelimit-requests-reset': NOW_PLUS(4),
      'anthropic-ratelimit-tokens-remaining': '16000', 'anthropic-ratelimit-tokens-reset': NOW_PLUS(60),
    });
    const err = await failureOf(adapterFor('anthropic', { type: 'anthropic', apiKey: KEY, baseURL: BASE }, fixedClock(NOW_MS)), request);
    expect(err.retryAfterMs).toBe(4000);
    expect(err.rateLimit?.requests).toEqual({ remaining: 0, resetMs: 4000 });
    expect(err.rateLimit?.tokens).toEqual({ remaining: 16000, resetMs: 60_000 });
  });

  it('maps a reset connection to transport', async () => {
    // nock's replyWithError breaks inside its interceptor for node:http (a real reset on the default
    // transport is in the contract suite), so this one goes through the SDK's fetch transport.
    nock(BASE).post('/v1/messages').replyWithError({ code: 'ECONNRESET', message: 'socket hang up' });
    const viaFetch = adapterFor('anthropic', { type: 'anthropic', apiKey: KEY, baseURL: BASE, transport: 'fetch' });
    expect((await failureOf(viaFetch, request)).kind).toBe('transport');
  });

  it('maps an aborted signal to aborted: aborted once the request reached the server, before its answer', async () => {
    const controller = new AbortController();
    // The answer would take a minute: only the abort can end this call in time.
    const scope = nock(BASE).post('/v1/messages').delay(60_000).reply(200, anthropicMessage());
    scope.on('request', () => controller.abort());
    expect((await failureOf(anthropic(), request, controller.signal)).kind).toBe('aborted');
    nock.abortPendingRequests();
  });

  it('never puts the API key into an error message', async () => {
    nock(BASE).post('/v1/messages').reply(401, { type: 'error', error: { type: 'authentication_error', message: `invalid x-api-key ${KEY}` }, request_id: 'r' });
    const err = await failureOf(anthropic(), request);
    expect(err.message).not.toContain(KEY);
  });
});

describe('anthropic adapter: requests and answers', () => {
  it('sends system messages as `system`, maps maxTokens, drops temperature, and normalises the answer', async () => {
    let sent: any;
    let headers: Record<string, unknown> = {};
    nock(BASE).post('/v1/messages', (b) => ((sent = b), true)).reply(function () {
      headers = this.req.headers;
      return [200, anthropicMessage('Hi there', 'claude-sonnet-4-6-20250929'), anthropicSuccessHeaders];
    });
    const res = await anthropic().chat({
      ...request,
      messages: [{ role: 'system', content: 'Be brief.' }, { role: 'user', content: 'Hello' }],
      maxTokens: 100, temperature: 0.5,
    }, { signal: new AbortController().signal });
    expect(sent).toEqual({ model: 'claude-sonnet-4-6', max_tokens: 100, system: 'Be brief.', messages: [{ role: 'user', content: 'Hello' }] });
    expect(headers['anthropic-version']).toBe('2026-10-21');
    expect(res).toMatchObject({
      text: 'Hi there', finishReason: 'stop', usage: { inputTokens: 505, outputTokens: 41 },
      model: 'claude-sonnet-4-6-20250929', requestId: 'req_011CSLsW7mFqvHHnzrKdKjAE',
      rateLimit: { requests: { limit: 1000, remaining: 999 }, tokens: { limit: 96000 }, inputTokens: { limit: 80000 }, outputTokens: { limit: 16000 } },
    });
  });

  it('counts cached prompt tokens as input tokens', async () => {
    const body = anthropicMessage();
    body.usage.cache_read_input_tokens = 1000;
    body.usage.cache_creation_input_tokens = 200;
    nock(BASE).post('/v1/messages').reply(200, body);
    expect((await anthropic().chat(request, { signal: new AbortController().signal })).usage?.inputTokens).toBe(1705);
  });

  it.each([['max_tokens', 'length'], ['stop_sequence', 'stop'], ['tool_use', 'tool_calls'], ['refusal', 'content_filter'], ['pause_turn', 'other']])(
    'maps stop_reason %s to %s', async (stop, expected) => {
      const body = anthropicMessage();
      body.stop_reason = stop;
      nock(BASE).post('/v1/messages').reply(200, body);
      expect((await anthropic().chat(request, { signal: new AbortController().signal })).finishReason).toBe(expected);
    });

  it('gives a call without maxTokens the default max_tokens the API requires', () => {
    expect(anthropicBody(request).max_tokens).toBe(DEFAULT_MAX_TOKENS);
  });

  it('joins several system messages', () => {
    const body = anthropicBody({ ...request, messages: [{ role: 'system', content: 'A' }, { role: 'system', content: 'B' }, { role: 'user', content: 'x' }] });
    expect(body.system).toBe('A\n\nB');
  });
});
