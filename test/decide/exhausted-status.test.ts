import { describe, expect, it } from 'vitest';
import { answerStatus, exhaustedStatus } from '../../src/decide/exhausted-status.js';
import { RouterError, type ErrorKind } from '../../src/errors.js';

const failed = (...kinds: ErrorKind[]) => kinds.map((kind) => ({ ok: false, kind }));

describe('exhaustedStatus: an exhausted chain answers by the cause of its failures', () => {
  it.each<[string, ErrorKind[], number, string]>([
    ['every target rate limited', ['rate_limited', 'rate_limited'], 429, 'capacity'],
    ['rate limits, a quota and a full local budget', ['rate_limited', 'quota_exhausted', 'local_limit'], 429, 'capacity'],
    ['every target down with 5xx', ['server', 'server'], 503, 'upstream'],
    ['one rate limit, one 5xx: an outage somewhere is not throttling', ['rate_limited', 'server'], 503, 'upstream'],
    ['a quota and an open breaker', ['quota_exhausted', 'circuit_open'], 503, 'upstream'],
    ['transport errors', ['transport'], 503, 'upstream'],
    ['invalid output fallen through', ['invalid_output', 'rate_limited'], 503, 'upstream'],
    ['every attempt timed out', ['timeout', 'timeout'], 504, 'timeout'],
    ['timeouts and a 5xx', ['timeout', 'server'], 503, 'upstream'],
    ['timeouts and a rate limit', ['timeout', 'rate_limited'], 503, 'upstream'],
    ['a target that cannot carry the request says nothing: the rate limit decides', ['unsupported', 'rate_limited'], 429, 'capacity'],
  ])('%s: %i', (_what, kinds, status, cause) => {
    expect(exhaustedStatus(failed(...kinds))).toEqual({ status, cause });
  });

  it('reads only failures: an attempt that answered (a stream cut later, a retry that passed) does not count', () => {
    expect(exhaustedStatus([{ ok: true }, ...failed('rate_limited')])).toEqual({ status: 429, cause: 'capacity' });
  });

  it('falls back on the last failure\'s kind when no attempt says, and on 503 when nothing does', () => {
    expect(exhaustedStatus([], 'rate_limited').status).toBe(429);
    expect(exhaustedStatus([], 'timeout').status).toBe(504);
    expect(exhaustedStatus([], 'server').status).toBe(503);
    expect(exhaustedStatus([], undefined).status).toBe(503);
    expect(exhaustedStatus([], 'a_kind_from_elsewhere').status).toBe(503);
  });

  it('answerStatus: exhausted by its cause, any other kind by its facts', () => {
    expect(answerStatus(new RouterError('exhausted', 'x', { attempts: [{ provider: 'p', model: 'm', ok: false, kind: 'rate_limited', latencyMs: 0 }] }))).toBe(429);
    expect(answerStatus(new RouterError('exhausted', 'x', { attempts: [{ provider: 'p', model: 'm', ok: false, kind: 'server', status: 503, latencyMs: 0 }] }))).toBe(503);
    expect(answerStatus(new RouterError('server', 'x'))).toBe(502);
    expect(answerStatus(new RouterError('bad_request', 'x', { status: 422 }))).toBe(422);
  });
});
