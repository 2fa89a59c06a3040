import { APIError } from 'openai';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ANTHROPIC_PATH, OPENAI_PATH, anthropicBodies, openaiBodies } from '../support/fixtures.js';
import { startUpstream, type Upstream } from '../support/upstream.js';
import { GATEWAY_PATHS, startHarness, type Harness } from './gateway-harness.js';

// What a client (and a dashboard) reads from an exhausted chain: 429 only when every target was
// throttled or out of quota; a chain down with 5xx is a 503, an outage, not throttling.

describe.each(GATEWAY_PATHS)('$path', ({ passThrough }) => {
  let up: Upstream;
  let h: Harness;
  beforeEach(async () => {
    up = await startUpstream();
    h = await startHarness(up, { retry: { baseDelayMs: 1, maxDelayMs: 2, maxAttempts: 1 } }, { passThrough });
  });
  afterEach(async () => {
    await h.close();
    await up.close();
  });

  const ask = { model: 'default', messages: [{ role: 'user' as const, content: 'hi' }] };
  const failure = (p: Promise<unknown>) => p.then(() => { throw new Error('expected the request to fail'); }, (e: unknown) => e as APIError);

  describe('an exhausted chain answers by the cause of its failures', () => {
    it('both targets down with 5xx (a 503, an Anthropic 529): 503 upstream_error', async () => {
      up.otherwise(OPENAI_PATH, () => ({ status: 503, body: openaiBodies.overloaded503 }));
      up.otherwise(ANTHROPIC_PATH, () => ({ status: 529, body: anthropicBodies.overloaded }));
      const err = await failure(h.client().chat.completions.create(ask));
      expect([err.status, err.type, err.code]).toEqual([503, 'upstream_error', 'chain_exhausted']);
      expect([up.count(OPENAI_PATH), up.count(ANTHROPIC_PATH)]).toEqual([1, 1]);
    });

    it('both targets rate limited: 429 rate_limit_error, with the soonest target\'s time in retry-after', async () => {
      up.otherwise(OPENAI_PATH, () => ({ status: 429, headers: { 'retry-after-ms': '20000' }, body: openaiBodies.rateLimitRequests }));
      up.otherwise(ANTHROPIC_PATH, () => ({ status: 429, headers: { 'retry-after': '30' }, body: anthropicBodies.rateLimit }));
      const err = await failure(h.client().chat.completions.create(ask));
      expect([err.status, err.type, err.code]).toEqual([429, 'rate_limit_error', 'chain_exhausted']);
      expect(err.headers!.get('retry-after')).toBe('20');
    });

    it('one throttled, one down: 503, since an outage somewhere is not throttling', async () => {
      up.otherwise(OPENAI_PATH, () => ({ status: 429, headers: { 'retry-after-ms': '20000' }, body: openaiBodies.rateLimitRequests }));
      up.otherwise(ANTHROPIC_PATH, () => ({ status: 500, body: anthropicBodies.overloaded }));
      const err = await failure(h.client().chat.completions.create(ask));
      expect([err.status, err.code]).toEqual([503, 'chain_exhausted']);
    });
  });
});
