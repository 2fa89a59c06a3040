import { describe, expect, it } from 'vitest';
import { geminiBodies } from '../test-support/gemini-wire.js';
import { mapGeminiError } from './map-error.js';
import { durationMs, messageHintMs } from './retry-hint.js';

const NOW = Date.UTC(2026, 11, 1, 12, 0, 0);
const ctx = { provider: 'gemini', model: 'gemini-2.5-flash', nowMs: NOW, redact: (s: string) => s.replaceAll('AIzaSECRET', '[REDACTED]') };
const map = (status: number | undefined, body: unknown, headers?: Record<string, string>) => mapGeminiError({ status, body, headers: headers ? new Headers(headers) : undefined }, ctx);

describe('Gemini error envelopes in the decision table', () => {
  it.each([
    ['429 RESOURCE_EXHAUSTED per minute', 429, geminiBodies.rateLimit('13s'), 'rate_limited', 'GenerateRequestsPerMinutePerProjectPerModel-FreeTier', 13_000],
    ['429 with a fractional RetryInfo', 429, geminiBodies.rateLimit('0.5s'), 'rate_limited', 'GenerateRequestsPerMinutePerProjectPerModel-FreeTier', 500],
    ['429 whose violations include a per-day quota', 429, geminiBodies.perDayQuota, 'quota_exhausted', 'GenerateRequestsPerDayPerProjectPerModel-FreeTier', undefined],
    ['429 whose per-day violation comes last, after the per-minute ones', 429, geminiBodies.perDayQuotaLast, 'quota_exhausted', 'GenerateRequestsPerDayPerProjectPerModel-FreeTier', undefined],
    ['the bare 429 without details', 429, geminiBodies.exhausted, 'rate_limited', 'RESOURCE_EXHAUSTED', undefined],
    ['400 API_KEY_INVALID (a wrong key)', 400, geminiBodies.invalidKey, 'auth', 'API_KEY_INVALID', undefined],
    ['403 PERMISSION_DENIED (no key)', 403, geminiBodies.unregistered, 'auth', 'PERMISSION_DENIED', undefined],
    ['401 UNAUTHENTICATED', 401, { error: { code: 401, message: 'Request had invalid authentication credentials.', status: 'UNAUTHENTICATED' } }, 'auth', 'UNAUTHENTICATED', undefined],
    ['400 over the input token limit', 400, geminiBodies.contextLength, 'context_length', 'INVALID_ARGUMENT', undefined],
    ['400 INVALID_ARGUMENT', 400, geminiBodies.badRequest, 'bad_request', 'INVALID_ARGUMENT', undefined],
    ['400 FAILED_PRECONDITION (region)', 400, geminiBodies.location, 'quota_exhausted', 'FAILED_PRECONDITION', undefined],
    ['400 FAILED_PRECONDITION (billing)', 400, geminiBodies.billing, 'quota_exhausted', 'FAILED_PRECONDITION', undefined],
    ['404 NOT_FOUND', 404, geminiBodies.notFound('gemini-9'), 'not_found', 'NOT_FOUND', undefined],
    ['500 INTERNAL', 500, geminiBodies.internal, 'server', 'INTERNAL', undefined],
    ['503 UNAVAILABLE', 503, geminiBodies.overloaded, 'server', 'UNAVAILABLE', undefined],
    ['504 DEADLINE_EXCEEDED', 504, geminiBodies.deadline, 'server', 'DEADLINE_EXCEEDED', undefined],
    ['a 502 HTML page from a proxy', 502, '<html>Bad Gateway</html>', 'server', undefined, undefined],
    ['a mid-stream error frame (no HTTP status)', undefined, geminiBodies.overloaded, 'server', 'UNAVAILABLE', undefined],
    ['a mid-stream rate-limit frame', undefined, geminiBodies.rateLimit('2s'), 'rate_limited', 'GenerateRequestsPerMinutePerProjectPerModel-FreeTier', 2000],
    ['an envelope wrapped in an array', 503, [geminiBodies.overloaded], 'server', 'UNAVAILABLE', undefined],
  ])('%s is %s', (_what, status, body, kind, code, retryAfterMs) => {
    const err = map(status, body);
    expect(err.kind).toBe(kind);
    expect(err.code).toBe(code);
    expect(err.retryAfterMs).toBe(retryAfterMs);
    expect(err.status).toBe(status);
  });

  it.each([
    ['retry-after-ms', { 'retry-after-ms': '1500' }, 1500],
    ['retry-after seconds', { 'retry-after': '7' }, 7000],
    ['retry-after as an HTTP date', { 'retry-after': new Date(NOW + 30_000).toUTCString() }, 30_000],
  ])('takes a proxy\'s %s before the body\'s RetryInfo', (_what, headers, expected) => {
    expect(map(429, geminiBodies.rateLimit('13s'), headers).retryAfterMs).toBe(expected);
  });

  it('reads "Please retry in 38.8s." from the message when there is no RetryInfo', () => {
    const body = { error: { code: 429, message: 'Quota exceeded for metric: x\nPlease retry in 38.804097346s.', status: 'RESOURCE_EXHAUSTED' } };
    expect(map(429, body).retryAfterMs).toBeCloseTo(38_804.097346, 3);
  });

  it('hints a server error only with a retry-after or RetryInfo, never from its message', () => {
    expect(map(503, geminiBodies.overloaded).retryAfterMs).toBeUndefined();
    expect(map(503, geminiBodies.overloaded, { 'retry-after': '2' }).retryAfterMs).toBe(2000);
  });

  it('hides the key in the message and in the body kept as the cause', () => {
    const body = { error: { code: 400, message: 'API key not valid: AIzaSECRET', status: 'INVALID_ARGUMENT' } };
    const err = map(400, body);
    expect(err.message).not.toContain('AIzaSECRET');
    expect(JSON.stringify(err.cause)).not.toContain('AIzaSECRET');
    expect(err.kind).toBe('auth');
  });
});

describe('Gemini wait hints', () => {
  it.each([['13s', 13_000], ['0.5s', 500], ['38.804097346s', 38_804.097346], ['0s', 0], ['13', undefined], ['-1s', undefined], ['soon', undefined], [13, undefined]])('reads the Duration %s', (value, ms) => {
    const got = durationMs(value);
    if (ms === undefined) expect(got).toBeUndefined();
    else expect(got).toBeCloseTo(ms, 3);
  });

  it('caps a Duration at a day', () => {
    expect(durationMs('999999999s')).toBe(24 * 60 * 60 * 1000);
  });

  it.each([['Please retry in 20s.', 20_000], ['try again in 1.5s', 1500], ['retry in 200ms', 200], ['please try again later', undefined]])('reads "%s"', (text, ms) => {
    expect(messageHintMs(text)).toBe(ms);
  });
});
