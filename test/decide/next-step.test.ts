import { describe, expect, it } from 'vitest';
import { breakerVerdict } from '../../src/decide/breaker-verdict.js';
import { nextStep, type NextStepInput } from '../../src/decide/next-step.js';
import type { ErrorKind } from '../../src/errors.js';

const policy = { baseDelayMs: 250, maxDelayMs: 8000, maxInlineWaitMs: 5000, retryTimeouts: false, cooldownMs: 1000, parkMs: 600_000, onInvalidOutput: 'throw' as const };
const decide = (over: Partial<NextStepInput> & { kind: ErrorKind }) =>
  nextStep({ attempt: 1, maxAttempts: 3, policy, random: () => 0, ...over });

describe('nextStep: the decision table', () => {
  it.each<[string, Partial<NextStepInput> & { kind: ErrorKind }, ReturnType<typeof nextStep>]>([
    // 429 rate limit
    ['429 with a short hint: same target after the hint', { kind: 'rate_limited', retryAfterMs: 300 }, { action: 'retry', delayMs: 300, breaker: 'neutral' }],
    ['429 without a hint: same target after backoff', { kind: 'rate_limited' }, { action: 'retry', delayMs: 125, breaker: 'neutral' }],
    ['429 with a hint longer than maxInlineWaitMs: falls through at once and cools until the reset', { kind: 'rate_limited', retryAfterMs: 20_000 },
      { action: 'fall_through', breaker: 'neutral', block: { reason: 'cooling', forMs: 20_000, scope: 'target' } }],
    ['429 on the last attempt: falls through, cooling for the hint', { kind: 'rate_limited', retryAfterMs: 300, attempt: 3 },
      { action: 'fall_through', breaker: 'neutral', block: { reason: 'cooling', forMs: 300, scope: 'target' } }],
    ['429 on the last attempt without a hint: cools for cooldownMs', { kind: 'rate_limited', attempt: 3 },
      { action: 'fall_through', breaker: 'neutral', block: { reason: 'cooling', forMs: 1000, scope: 'target' } }],
    ['429 whose wait outlasts the deadline: falls through now', { kind: 'rate_limited', retryAfterMs: 3000, remainingMs: 2000 },
      { action: 'fall_through', breaker: 'neutral', block: { reason: 'cooling', forMs: 3000, scope: 'target' } }],
    ['429 "request too large" for the TPM: next target, no retry, no cooling', { kind: 'rate_limited', code: 'request_too_large' }, { action: 'fall_through', breaker: 'neutral' }],
    // quota / billing
    ['quota: never again here, the provider is parked', { kind: 'quota_exhausted', retryAfterMs: 1000 },
      { action: 'fall_through', breaker: 'neutral', block: { reason: 'parked', forMs: 600_000, scope: 'provider' } }],
    // 5xx, 529, 408, 409
    ['server error: same target after backoff, counts for the breaker', { kind: 'server' }, { action: 'retry', delayMs: 125, breaker: 'failure' }],
    ['server error, second retry backs off further', { kind: 'server', attempt: 2 }, { action: 'retry', delayMs: 250, breaker: 'failure' }],
    ['server error on the last attempt: falls through', { kind: 'server', attempt: 3 }, { action: 'fall_through', breaker: 'failure' }],
    ['server error with a short retry-after: waits that long', { kind: 'server', retryAfterMs: 1000 }, { action: 'retry', delayMs: 1000, breaker: 'failure' }],
    ['server error with a long retry-after: falls through and cools', { kind: 'server', retryAfterMs: 60_000 },
      { action: 'fall_through', breaker: 'failure', block: { reason: 'cooling', forMs: 60_000, scope: 'target' } }],
    // transport
    ['transport error: retried', { kind: 'transport' }, { action: 'retry', delayMs: 125, breaker: 'failure' }],
    ['transport error on the last attempt: falls through', { kind: 'transport', attempt: 3 }, { action: 'fall_through', breaker: 'failure' }],
    // attempt timeout
    ['attempt timeout: not retried by default (it may be billed), falls through', { kind: 'timeout' }, { action: 'fall_through', breaker: 'failure' }],
    ['attempt timeout with retryTimeouts: retried', { kind: 'timeout', policy: { ...policy, retryTimeouts: true } }, { action: 'retry', delayMs: 125, breaker: 'failure' }],
    // skipped
    ['open circuit: next target at once', { kind: 'circuit_open' }, { action: 'fall_through', breaker: 'neutral' }],
    ['local limit: next target at once', { kind: 'local_limit' }, { action: 'fall_through', breaker: 'neutral' }],
    ['unsupported: next target at once', { kind: 'unsupported' }, { action: 'fall_through', breaker: 'neutral' }],
    // invalid output
    ['invalid output: thrown by default, after the one request', { kind: 'invalid_output' }, { action: 'throw', breaker: 'neutral' }],
    ['invalid output with onInvalidOutput next: the next target', { kind: 'invalid_output', policy: { ...policy, onInvalidOutput: 'next' } }, { action: 'fall_through', breaker: 'neutral' }],
  ])('%s', (_what, input, expected) => {
    expect(decide(input)).toEqual(expected);
  });

  it.each<ErrorKind>(['bad_request', 'context_length', 'content_filter', 'auth', 'not_found', 'aborted', 'invalid_request', 'config', 'exhausted'])(
    '%s is thrown at once: never retried, never falls through, never counts for the breaker', (kind) => {
      expect(decide({ kind })).toEqual({ action: 'throw', breaker: 'neutral' });
      expect(decide({ kind, attempt: 1, maxAttempts: 10, retryAfterMs: 0 })).toEqual({ action: 'throw', breaker: 'neutral' });
    });

  it('maxAttempts 1 never retries anything', () => {
    for (const kind of ['rate_limited', 'server', 'transport'] as const) {
      expect(decide({ kind, maxAttempts: 1 }).action).toBe('fall_through');
    }
  });
});

describe('breakerVerdict', () => {
  it.each<[ErrorKind, string]>([
    ['server', 'failure'], ['transport', 'failure'], ['timeout', 'failure'],
    ['rate_limited', 'neutral'], ['quota_exhausted', 'neutral'], ['bad_request', 'neutral'], ['auth', 'neutral'],
    ['context_length', 'neutral'], ['not_found', 'neutral'], ['aborted', 'neutral'], ['circuit_open', 'neutral'], ['local_limit', 'neutral'],
  ])('%s counts as %s', (kind, verdict) => {
    expect(breakerVerdict(kind)).toBe(verdict);
  });
});
