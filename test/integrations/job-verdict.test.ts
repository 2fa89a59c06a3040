import { describe, expect, it } from 'vitest';
import { RouterError, type ErrorKind } from '../../src/errors.js';
import { jobVerdict } from '../../src/integrations/bullmq/job-verdict.js';
import type { Attempt } from '../../src/types.js';

const tried = (kind: ErrorKind | undefined, skipped = false, code?: string): Attempt => ({ provider: 'p', model: 'm', ok: kind === undefined, kind, skipped, latencyMs: 0, code });
const exhausted = (attempts: Attempt[], retryAfterMs?: number) =>
  new RouterError('exhausted', 'every target failed', { attempts, retryAfterMs, code: attempts.at(-1)?.kind });

const VERB = { snooze: 'snoozes', cancel: 'cancels', retry: "leaves to the queue's backoff" } as const;

describe('jobVerdict', () => {
  it.each(([
    ['an exhausted chain whose target cools until its rate limit resets', exhausted([tried('rate_limited')], 1_500), { action: 'snooze', delayMs: 1_500 }],
    ['an exhausted chain skipped for a local budget', exhausted([tried('local_limit', true)], 800), { action: 'snooze', delayMs: 800 }],
    ['an exhausted chain behind an open breaker', exhausted([tried('circuit_open', true)], 5_000), { action: 'snooze', delayMs: 5_000 }],
    ['an exhausted chain with one target out of quota and one cooling', exhausted([tried('quota_exhausted'), tried('rate_limited')], 2_000), { action: 'snooze', delayMs: 2_000 }],
    // A full spend budget: its retryAfterMs is when the blocking window (UTC day or month) turns.
    ['a spend budget that is full until its day turns', new RouterError('budget_exceeded', 'full', { code: 'budget_exceeded', retryAfterMs: 3_600_000 }), { action: 'snooze', delayMs: 3_600_000 }],
    ['a spend budget that is full, with no window end to wait for', new RouterError('budget_exceeded', 'full', { code: 'budget_exceeded' }), { action: 'cancel' }],
    ['a rate-limited error with a hint', new RouterError('rate_limited', '429', { retryAfterMs: 300 }), { action: 'snooze', delayMs: 300 }],
    ['an exhausted chain whose every target is out of quota', exhausted([tried('quota_exhausted'), tried('quota_exhausted', true)], 600_000), { action: 'cancel' }],
    ['an exhausted chain out of quota or unable to carry the request', exhausted([tried('unsupported', true), tried('quota_exhausted')], 600_000), { action: 'cancel' }],
    ['an exhausted chain whose every target has a token budget smaller than the request', exhausted([tried('local_limit', true, 'too_large'), tried('local_limit', true, 'too_large')]), { action: 'cancel' }],
    ['an exhausted chain out of quota or with a budget smaller than the request', exhausted([tried('local_limit', true, 'too_large'), tried('quota_exhausted')], 600_000), { action: 'cancel' }],
    ['a local limit the request can never fit', new RouterError('local_limit', 'too large', { code: 'too_large' }), { action: 'cancel' }],
    ['an exhausted chain with a budget smaller than the request and a target cooling', exhausted([tried('local_limit', true, 'too_large'), tried('rate_limited')], 1_000), { action: 'snooze', delayMs: 1_000 }],
    ['an exhausted chain with no attempts whose last kind was quota', new RouterError('exhausted', 'x', { code: 'quota_exhausted' }), { action: 'cancel' }],
    ['a quota error', new RouterError('quota_exhausted', 'insufficient_quota', { status: 429, retryAfterMs: 600_000 }), { action: 'cancel' }],
    ...(['bad_request', 'auth', 'context_length', 'invalid_request', 'config', 'not_found', 'content_filter', 'unsupported'] as const)
      .map((kind) => [`a caller fault: ${kind}`, new RouterError(kind, kind), { action: 'cancel' }] as const),
    ['an exhausted chain of 5xx (no promise of when it clears)', exhausted([tried('server'), tried('server')]), { action: 'retry' }],
    ['an exhausted chain of 5xx and a parked quota (the park ends, the quota need not)', exhausted([tried('quota_exhausted', true), tried('server')], 600_000), { action: 'retry' }],
    ['an exhausted chain of 5xx and a budget smaller than the request, with a hint', exhausted([tried('local_limit', true, 'too_large'), tried('server')], 1_000), { action: 'retry' }],
    ['an exhausted chain of timeouts and transport failures', exhausted([tried('timeout'), tried('transport')]), { action: 'retry' }],
    ['a rate-limited error without a hint', new RouterError('rate_limited', '429'), { action: 'retry' }],
    ['a server error', new RouterError('server', '503', { status: 503 }), { action: 'retry' }],
    ['an abort', new RouterError('aborted', 'aborted'), { action: 'retry' }],
    // The model's answer failed the schema: a new attempt samples again and may pass (not the caller's fault).
    ['an answer that did not validate', new RouterError('invalid_output', 'not JSON', { raw: '{' }), { action: 'retry' }],
    ['an error that is not the router\'s', new Error('database down'), { action: 'retry' }],
  ] as const).map(([name, err, verdict]) => [`${VERB[verdict.action]} ${name}`, err, verdict] as const))('%s', (_name, err, verdict) => {
    expect(jobVerdict(err)).toEqual(verdict);
  });
});
