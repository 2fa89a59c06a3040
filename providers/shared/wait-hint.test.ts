import { describe, expect, it } from 'vitest';
import { headerBag } from './headers.js';
import { readRateLimits } from './rate-limit-snapshot.js';
import { waitHintMs } from './wait-hint.js';

const NOW = Date.parse('2026-11-29T12:00:00Z');
const hint = (headers: Record<string, string>, extra: { window?: 'requests' | 'tokens'; message?: string } = {}) =>
  waitHintMs({ headers: headerBag(headers), nowMs: NOW, ...extra });

describe('waitHintMs', () => {
  it.each<[string, Record<string, string>, number | undefined]>([
    ['retry-after-ms wins over everything', { 'retry-after-ms': '250', 'retry-after': '20', 'x-ratelimit-remaining-requests': '0', 'x-ratelimit-reset-requests': '6m0s' }, 250],
    ['retry-after-ms of zero is an immediate retry, not "no hint"', { 'retry-after-ms': '0', 'retry-after': '20' }, 0],
    ['retry-after in seconds', { 'retry-after': '20' }, 20_000],
    ['retry-after in fractional seconds', { 'retry-after': '1.5' }, 1500],
    ['retry-after as an HTTP date', { 'retry-after': 'Sun, 29 Nov 2026 12:00:30 GMT' }, 30_000],
    ['retry-after before the reset headers', { 'retry-after': '7', 'anthropic-ratelimit-requests-remaining': '0', 'anthropic-ratelimit-requests-reset': '2026-11-29T12:01:00Z' }, 7000],
    ['OpenAI: the requests window when it is the one at zero', { 'x-ratelimit-remaining-requests': '0', 'x-ratelimit-reset-requests': '300ms', 'x-ratelimit-remaining-tokens': '39000', 'x-ratelimit-reset-tokens': '1.5s' }, 300],
    ['OpenAI: the tokens window when it is the one at zero', { 'x-ratelimit-remaining-requests': '2', 'x-ratelimit-reset-requests': '20s', 'x-ratelimit-remaining-tokens': '0', 'x-ratelimit-reset-tokens': '6m0s' }, 360_000],
    ['OpenAI: the longer reset when both windows are at zero', { 'x-ratelimit-remaining-requests': '0', 'x-ratelimit-reset-requests': '1s', 'x-ratelimit-remaining-tokens': '0', 'x-ratelimit-reset-tokens': '2s' }, 2000],
    ['Anthropic: RFC 3339 reset of the exhausted window', { 'anthropic-ratelimit-requests-remaining': '0', 'anthropic-ratelimit-requests-reset': '2026-11-29T12:00:05Z', 'anthropic-ratelimit-tokens-remaining': '16000', 'anthropic-ratelimit-tokens-reset': '2026-11-29T12:01:00Z' }, 5000],
    ['Anthropic: input-token window at zero', { 'anthropic-ratelimit-input-tokens-remaining': '0', 'anthropic-ratelimit-input-tokens-reset': '2026-11-29T12:00:09Z' }, 9000],
    ['compatible: bare x-ratelimit-reset as a Unix timestamp in seconds', { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String(NOW / 1000 + 12) }, 12_000],
    ['no hint at all', { 'x-request-id': 'req_1' }, undefined],
    // Broken headers are bounded: a day at most, and a number that is not finite is no hint.
    ['a retry-after of 99,999,999 s is a day, not 1,157 days', { 'retry-after': '99999999' }, 86_400_000],
    ['a retry-after of 400 digits (Infinity) is no hint', { 'retry-after': '9'.repeat(400) }, undefined],
    ['a retry-after-ms of 400 digits falls back to the next hint', { 'retry-after-ms': '9'.repeat(400), 'retry-after': '3' }, 3000],
    ['a reset years away is a day', { 'x-ratelimit-remaining-requests': '0', 'x-ratelimit-reset-requests': '99999h' }, 86_400_000],
  ])('%s', (_what, headers, expected) => {
    expect(hint(headers)).toBe(expected);
  });

  it('uses the window the body names when no window reports zero', () => {
    const headers = { 'x-ratelimit-remaining-requests': '5', 'x-ratelimit-reset-requests': '20s', 'x-ratelimit-remaining-tokens': '652', 'x-ratelimit-reset-tokens': '26.604s' };
    expect(hint(headers, { window: 'tokens' })).toBeCloseTo(26_604, 6);
    expect(hint(headers, { window: 'requests' })).toBe(20_000);
  });

  it('takes the longest reset when nothing says which window ran out', () => {
    expect(hint({ 'x-ratelimit-reset-requests': '1s', 'x-ratelimit-reset-tokens': '3s' })).toBe(3000);
  });

  it('falls back to "try again in" from the message when no header helps', () => {
    expect(hint({}, { message: 'Rate limit reached ... Please try again in 644ms. Visit ...' })).toBe(644);
    expect(hint({}, { message: 'Please try again in 1m30s.' })).toBe(90_000);
    expect(waitHintMs({ nowMs: NOW, message: 'Please try again in 26.604s.' })).toBeCloseTo(26_604, 6);
  });
});

describe('readRateLimits', () => {
  it('reads OpenAI headroom with Go-duration resets', () => {
    const snap = readRateLimits(headerBag({
      'x-ratelimit-limit-requests': '60', 'x-ratelimit-remaining-requests': '59', 'x-ratelimit-reset-requests': '1s',
      'x-ratelimit-limit-tokens': '150000', 'x-ratelimit-remaining-tokens': '149984', 'x-ratelimit-reset-tokens': '6m0s',
    }), NOW);
    expect(snap).toEqual({
      requests: { limit: 60, remaining: 59, resetMs: 1000 },
      tokens: { limit: 150000, remaining: 149984, resetMs: 360_000 },
    });
  });

  it('reads all four Anthropic windows with RFC 3339 resets', () => {
    const snap = readRateLimits(headerBag({
      'anthropic-ratelimit-requests-limit': '1000', 'anthropic-ratelimit-requests-remaining': '999', 'anthropic-ratelimit-requests-reset': '2026-11-29T12:00:01Z',
      'anthropic-ratelimit-tokens-limit': '96000', 'anthropic-ratelimit-tokens-remaining': '96000', 'anthropic-ratelimit-tokens-reset': '2026-11-29T12:00:02Z',
      'anthropic-ratelimit-input-tokens-limit': '80000', 'anthropic-ratelimit-input-tokens-remaining': '79000', 'anthropic-ratelimit-input-tokens-reset': '2026-11-29T12:00:03Z',
      'anthropic-ratelimit-output-tokens-limit': '16000', 'anthropic-ratelimit-output-tokens-remaining': '15000', 'anthropic-ratelimit-output-tokens-reset': '2026-11-29T12:00:04Z',
    }), NOW);
    expect(snap).toEqual({
      requests: { limit: 1000, remaining: 999, resetMs: 1000 },
      tokens: { limit: 96000, remaining: 96000, resetMs: 2000 },
      inputTokens: { limit: 80000, remaining: 79000, resetMs: 3000 },
      outputTokens: { limit: 16000, remaining: 15000, resetMs: 4000 },
    });
  });

  it('is undefined for a response without rate-limit headers', () => {
    expect(readRateLimits(headerBag({ 'content-type': 'application/json' }), NOW)).toBeUndefined();
  });
});
