import { describe, expect, it } from 'vitest';
import { DEFAULTS } from '../../src/config/defaults.js';
import { breakerVerdict } from '../../src/decide/breaker-verdict.js';
import { nextStep } from '../../src/decide/next-step.js';
import { ERROR_FACTS, ERROR_KINDS, RouterError, errorFacts, type ErrorKind } from '../../src/errors.js';
import { errorReply } from '../../src/gateway/error-reply.js';
import { toApiError } from '../../src/integrations/ai-sdk/api-error.js';
import { jobVerdict } from '../../src/integrations/bullmq/job-verdict.js';

// The five places that sort failures by kind answer from one table (ERROR_FACTS, src/errors.ts):
// for every kind, each site's answer is the one the kind's facts give.

const policy = { ...DEFAULTS.retry, parkMs: DEFAULTS.quota.parkMs };
const fail = (kind: ErrorKind, facts: ConstructorParameters<typeof RouterError>[2] = {}) => new RouterError(kind, `${kind} happened`, facts);

describe('ERROR_FACTS', () => {
  it('holds one frozen row for every kind, and nothing else', () => {
    expect(Object.keys(ERROR_FACTS).sort()).toEqual([...ERROR_KINDS].sort());
    expect(Object.isFrozen(ERROR_FACTS)).toBe(true);
    for (const kind of ERROR_KINDS) expect(Object.isFrozen(ERROR_FACTS[kind]), kind).toBe(true);
  });

  it('takes a kind this copy of the package does not know for a server failure', () => {
    expect(errorFacts('a_kind_from_a_newer_copy')).toBe(ERROR_FACTS.server);
    expect(errorFacts('toString')).toBe(ERROR_FACTS.server);
  });
});

describe.each(ERROR_KINDS.map((kind) => [kind, ERROR_FACTS[kind]] as const))('%s: every site answers by its facts', (kind, facts) => {
  it('the decision table: a caller fault is thrown at once, the breaker column is breakerCounts', () => {
    // Policy that would otherwise try the next target for invalid output, with attempts left: only
    // a caller fault (or an abort, or the chain's own end) is thrown.
    const step = nextStep({ kind, attempt: 1, maxAttempts: 3, policy: { ...policy, onInvalidOutput: 'next' }, random: () => 0 });
    expect(step.breaker).toBe(facts.breakerCounts ? 'failure' : 'neutral');
    const thrown = facts.callerFault || kind === 'aborted' || kind === 'exhausted';
    expect(step.action === 'throw').toBe(thrown);
  });

  it('breakerVerdict: failure exactly when breakerCounts', () => {
    expect(breakerVerdict(kind)).toBe(facts.breakerCounts ? 'failure' : 'neutral');
  });

  it('BullMQ: cancels what is not retryable, snoozes what clears with time, leaves the rest to the queue', () => {
    const verdict = jobVerdict(fail(kind, { retryAfterMs: 1_000 }));
    // The one exception, on purpose (issue 24, 5a): a full spend budget is not retryable (the gateway
    // says x-should-retry: false), but a job can wait for its UTC day or month to turn, which its
    // retryAfterMs says; without one it is cancelled.
    if (kind === 'budget_exceeded') {
      expect(verdict).toEqual({ action: 'snooze', delayMs: 1_000 });
      expect(jobVerdict(fail(kind))).toEqual({ action: 'cancel' });
    } else if (!facts.retryable) expect(verdict).toEqual({ action: 'cancel' });
    else if (facts.clearsWithTime) expect(verdict).toEqual({ action: 'snooze', delayMs: 1_000 });
    else expect(verdict).toEqual({ action: 'retry' });
  });

  it('the gateway: answers proxyStatus, and x-should-retry by retryable, breakerCounts and the wait', () => {
    const unknownWait = errorReply(fail(kind));
    const soon = errorReply(fail(kind, { retryAfterMs: 1_000 }));
    expect(unknownWait.status).toBe(facts.proxyStatus);
    expect(soon.status).toBe(facts.proxyStatus);
    // An exhausted chain says when its soonest target comes back, whatever status its cause gives it.
    const capacity = facts.clearsWithTime || facts.proxyStatus === 429 || kind === 'exhausted';
    if (!facts.retryable || facts.breakerCounts) {
      expect(soon.headers['x-should-retry']).toBe('false');
    } else if (capacity) {
      // Capacity says when to come back: with a wait the SDKs honour it is theirs to retry; without one, not.
      expect([soon.headers['x-should-retry'], soon.headers['retry-after']]).toEqual([undefined, '1']);
      expect(unknownWait.headers['x-should-retry']).toBe('false');
    } else {
      expect([soon.headers['x-should-retry'], unknownWait.headers['x-should-retry']]).toEqual([undefined, undefined]);
    }
  });

  it('the AI SDK provider: proxyStatus for an error the router raised, the upstream\'s own status otherwise', () => {
    expect((toApiError(fail(kind), 'default', {}) as { statusCode?: number }).statusCode).toBe(facts.proxyStatus);
    expect((toApiError(fail(kind, { status: 418 }), 'default', {}) as { statusCode?: number }).statusCode).toBe(418);
  });
});
