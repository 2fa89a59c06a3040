import { describe, expect, it } from 'vitest';
import { RouterError, type ErrorKind } from '../../src/errors.js';
import { openAIParam } from '../../src/convert/openai-param.js';
import { errorReply } from '../../src/gateway/error-reply.js';

// The gateway's status mapping, kind by kind, with the facts that change an answer (an upstream 413/422,
// the wait hint); the table in docs/gateway.md is held to the same mapping by status-table.test.ts.
const attempt = (kind: ErrorKind) => ({ provider: 'openai', model: 'gpt-4o-mini', ok: false, kind, latencyMs: 1 });
const limited = [attempt('rate_limited'), attempt('quota_exhausted')];
const down = [attempt('server'), attempt('circuit_open')];
const timedOut = [attempt('timeout'), attempt('timeout')];

describe('errorReply', () => {
  it.each<[ErrorKind, Record<string, unknown>, number, string | null, Record<string, string | undefined>]>([
    ['invalid_request', {}, 400, 'invalid_parameter', { 'x-should-retry': 'false' }],
    ['bad_request', { status: 400, code: 'invalid_value' }, 400, 'invalid_value', { 'x-should-retry': 'false' }],
    ['bad_request', { status: 422 }, 422, null, { 'x-should-retry': 'false' }],
    ['context_length', {}, 400, 'context_length_exceeded', { 'x-should-retry': 'false' }],
    ['content_filter', {}, 400, null, { 'x-should-retry': 'false' }],
    ['unsupported', {}, 400, null, { 'x-should-retry': 'false' }],
    ['exhausted', { retryAfterMs: 1_500.2, attempts: limited }, 429, 'chain_exhausted', { 'retry-after-ms': '1501', 'retry-after': '2', 'x-should-retry': undefined }],
    ['exhausted', { retryAfterMs: 600_000, attempts: limited }, 429, 'chain_exhausted', { 'retry-after-ms': '600000', 'retry-after': '600', 'x-should-retry': 'false' }],
    ['exhausted', { attempts: limited }, 429, 'chain_exhausted', { 'retry-after-ms': undefined, 'x-should-retry': 'false' }],
    // Status by cause: a chain down with 5xx is an outage (503), with the soonest reopening when known.
    ['exhausted', { attempts: down }, 503, 'chain_exhausted', { 'retry-after-ms': undefined, 'x-should-retry': 'false' }],
    ['exhausted', { attempts: down, retryAfterMs: 5_000 }, 503, 'chain_exhausted', { 'retry-after': '5', 'x-should-retry': undefined }],
    ['exhausted', { attempts: [...limited, ...down] }, 503, 'chain_exhausted', { 'x-should-retry': 'false' }],
    ['exhausted', { attempts: timedOut }, 504, 'chain_exhausted', { 'x-should-retry': 'false' }],
    ['exhausted', {}, 503, 'chain_exhausted', { 'x-should-retry': 'false' }],
    ['rate_limited', { retryAfterMs: 20_000, code: 'rate_limit_exceeded' }, 429, 'rate_limit_exceeded', { 'retry-after': '20', 'x-should-retry': undefined }],
    ['quota_exhausted', { retryAfterMs: 5_000, code: 'insufficient_quota' }, 429, 'insufficient_quota', { 'retry-after': '5', 'x-should-retry': 'false' }],
    ['local_limit', { retryAfterMs: 800 }, 429, null, { 'retry-after-ms': '800', 'x-should-retry': undefined }],
    // An open breaker: the upstream is sick, not the client too fast; the breaker's reopening time says when.
    ['circuit_open', { retryAfterMs: 5_000 }, 503, null, { 'retry-after': '5', 'x-should-retry': undefined }],
    ['circuit_open', {}, 503, null, { 'retry-after': undefined, 'x-should-retry': 'false' }],
    ['auth', { status: 401 }, 502, null, { 'x-should-retry': 'false' }],
    ['not_found', { status: 404 }, 502, null, { 'x-should-retry': 'false' }],
    ['server', { status: 503 }, 502, null, { 'x-should-retry': 'false' }],
    ['transport', {}, 502, null, { 'x-should-retry': 'false' }],
    ['timeout', {}, 504, null, { 'x-should-retry': 'false' }],
    ['config', {}, 500, null, { 'x-should-retry': 'false' }],
    ['invalid_output', {}, 502, null, { 'x-should-retry': undefined }],
    ['aborted', {}, 503, 'gateway_closing', { 'x-should-retry': undefined }],
  ])('answers %s %j with %i, code %j', (kind, facts, status, code, headers) => {
    const reply = errorReply(new RouterError(kind, 'what went wrong', facts));
    expect(reply.status).toBe(status);
    expect(reply.body.error).toMatchObject({ message: 'what went wrong', code });
    if (kind === 'exhausted') expect(reply.body.error.type).toBe(status === 429 ? 'rate_limit_error' : 'upstream_error');
    for (const [name, value] of Object.entries(headers)) expect(reply.headers[name], name).toBe(value);
  });

  it('names the field a fromOpenAI refusal is about as param, from the error\'s param, without the converter prefix', () => {
    const reply = errorReply(new RouterError('invalid_request', 'fromOpenAI: messages[2].content[0] is not supported: a audio part is not allowed here', { code: 'unsupported_parameter', param: 'messages[2].content[0]' }));
    expect(reply.body.error).toEqual({ message: 'messages[2].content[0] is not supported: a audio part is not allowed here', type: 'invalid_request_error', param: 'messages[2].content[0]', code: 'unsupported_parameter' });
  });

  it('reads param from the error, never from its message: a message naming a field without the fact answers param null', () => {
    const reply = errorReply(new RouterError('invalid_request', 'fromOpenAI: messages[2].content[0] is not supported: a audio part', { code: 'unsupported_parameter' }));
    expect(reply.body.error.param).toBeNull();
  });

  it('names a router parameter the way the route\'s client sent it, when the route knows the wire name', () => {
    const refused = new RouterError('invalid_request', 'invalid request:\n  - maxTokens: too big', { param: 'maxTokens' });
    expect(errorReply(refused, (param) => openAIParam(param)).body.error.param).toBe('max_tokens');
    expect(errorReply(refused).body.error.param).toBe('maxTokens');
  });

  it('answers the router\'s many-line refusal in one line, the first problem under its wire name, with a code', () => {
    const refused = new RouterError('invalid_request', 'invalid request:\n  - maxTokens: Too small\n  - topP: Too big', { param: 'maxTokens' });
    const reply = errorReply(refused, (param) => openAIParam(param));
    expect(reply.body.error).toEqual({ message: 'invalid request: max_tokens: Too small (and 1 more)', type: 'invalid_request_error', param: 'max_tokens', code: 'invalid_parameter' });
  });

  it('answers anything but a RouterError 500 without its message', () => {
    const reply = errorReply(new TypeError('secret internals'));
    expect(reply.status).toBe(500);
    expect(reply.body.error.message).not.toContain('secret');
  });
});
