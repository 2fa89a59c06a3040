import OpenAI, { APIError } from 'openai';
import { describe, expect, it } from 'vitest';
import { OPENAI_PATH, openai429Headers, openaiBodies, openaiCompletion } from '../support/fixtures.js';
import { gate, until } from '../support/until.js';
import type { Upstream } from '../support/upstream.js';
import { upstreamPerTest } from '../support/upstream-per-test.js';
import { VirtualClock } from '../support/virtual-clock.js';
import { GATEWAY_PATHS, startHarness, type Harness } from './gateway-harness.js';

let up: Upstream;
let h: Harness;
upstreamPerTest((u) => (up = u), () => h?.close());

const ask = { model: 'openai-only', messages: [{ role: 'user' as const, content: 'hi' }] };
const failure = (p: Promise<unknown>) => p.then(() => { throw new Error('expected the request to fail'); }, (e: unknown) => e as APIError);

describe.each(GATEWAY_PATHS)('$path', ({ passThrough }) => {
  describe('an exhausted chain', () => {
    it('answers 429 with retry-after-ms and retry-after from the chain retryAfterMs, and later calls wait without a request', async () => {
      h = await startHarness(up, {}, { passThrough });
      up.script(OPENAI_PATH, { status: 429, headers: openai429Headers, body: openaiBodies.rateLimitRequests });
      const client = h.client();
      const first = await failure(client.chat.completions.create(ask));
      expect(first).toBeInstanceOf(OpenAI.RateLimitError);
      expect([first.code, first.type]).toEqual(['chain_exhausted', 'rate_limit_error']);
      const ms = Number(first.headers!.get('retry-after-ms'));
      // The upstream said 20 s; the chain's retryAfterMs counts down from the moment it said so.
      expect(Number.isInteger(ms) && ms > 0 && ms <= 20_000).toBe(true);
      expect(first.headers!.get('retry-after')).toBe(String(Math.ceil(ms / 1000)));
      // Under the SDKs' 60 s ceiling: the client may wait that long once and try again, so no x-should-retry.
      expect(first.headers!.get('x-should-retry')).toBeNull();
      expect(first.headers!.get('x-switchyard-attempts')).toBe('1');

      const second = await failure(client.chat.completions.create(ask));
      expect(second.status).toBe(429);
      expect(Number(second.headers!.get('retry-after-ms'))).toBeLessThanOrEqual(ms);
      expect(up.count(OPENAI_PATH)).toBe(1);
    });

    it('stops an SDK that retries (maxRetries 2) after one request when the quota is gone: x-should-retry false', async () => {
      h = await startHarness(up, {}, { passThrough });
      up.script(OPENAI_PATH, { status: 429, body: openaiBodies.insufficientQuota });
      let sent = 0;
      const client = new OpenAI({
        apiKey: 'sk-anything-0000', baseURL: `${h.url}/v1`, maxRetries: 2,
        fetch: (url, init) => {
          sent++;
          return fetch(url, init);
        },
      });
      const err = await failure(client.chat.completions.create(ask));
      expect([err.status, err.code]).toEqual([429, 'chain_exhausted']);
      expect(err.headers!.get('x-should-retry')).toBe('false');
      expect(Number(err.headers!.get('retry-after'))).toBeGreaterThan(60);
      expect([sent, up.count(OPENAI_PATH)]).toEqual([1, 1]);
    });
  });

  /** An openai client for the gateway that retries as the SDK does by default (maxRetries 2), counting what it sends. */
  function retryingClient(url: string) {
    const seen: Array<{ status: number; headers: Headers }> = [];
    const client = new OpenAI({
      apiKey: 'sk-anything-0000', baseURL: `${url}/v1`, maxRetries: 2,
      fetch: async (input, init) => {
        const res = await fetch(input, init);
        seen.push({ status: res.status, headers: res.headers });
        return res;
      },
    });
    return { client, seen };
  }

  describe('a lone target that keeps answering 503', () => {
    it('costs the upstream retry.maxAttempts requests and a retrying SDK one: 503 chain_exhausted (an outage, not throttling), x-should-retry false', async () => {
      h = await startHarness(up, {}, { passThrough });
      up.otherwise(OPENAI_PATH, () => ({ status: 503, body: openaiBodies.overloaded503 }));
      const { client, seen } = retryingClient(h.url);
      const err = await failure(client.chat.completions.create(ask));
      expect(err).toBeInstanceOf(OpenAI.InternalServerError);
      expect([err.status, err.code, err.type]).toEqual([503, 'chain_exhausted', 'upstream_error']);
      // A 503 says nothing of when it will pass: no wait to give, and the gateway has already retried.
      expect(err.headers!.get('x-should-retry')).toBe('false');
      expect(err.headers!.get('retry-after-ms')).toBeNull();
      expect(err.headers!.get('x-switchyard-attempts')).toBe('3');
      expect([seen.length, up.count(OPENAI_PATH)]).toEqual([1, 3]);
    });

    it('once its breaker is open, answers 503 with the breaker\'s reopen time: the SDK retries twice, the upstream gets nothing', async () => {
      const clock = new VirtualClock();
      h = await startHarness(up, { breaker: { consecutiveFailures: 3, volumeThreshold: 3, resetTimeoutMs: 50, lastResort: false } }, { passThrough }, clock);
      up.otherwise(OPENAI_PATH, () => ({ status: 503, body: openaiBodies.overloaded503 }));
      const { client, seen } = retryingClient(h.url);
      await failure(client.chat.completions.create(ask)); // three 503s open the breaker
      expect([seen.length, up.count(OPENAI_PATH)]).toEqual([1, 3]);

      const err = await failure(client.chat.completions.create(ask));
      expect([err.status, err.code]).toEqual([503, 'chain_exhausted']);
      // Time stands still on the router's clock, so the breaker is open through the SDK's retries.
      const later = seen.slice(1);
      expect(later.map((r) => [r.status, r.headers.get('retry-after-ms'), r.headers.get('retry-after'), r.headers.get('x-should-retry')]))
        .toEqual(Array.from({ length: 3 }, () => [503, '50', '1', null]));
      expect(up.count(OPENAI_PATH)).toBe(3);
    });
  });

  describe('a client that goes away', () => {
    it('aborts the call: the upstream request is cut and the next call is served at once', async () => {
      // A clock that stands still: no attempt timeout can end the upstream request, only the client's leaving.
      h = await startHarness(up, {}, { passThrough }, new VirtualClock());
      up.script(OPENAI_PATH, { hang: true });
      const controller = new AbortController();
      const client = h.client();
      const left = client.chat.completions.create(ask, { signal: controller.signal }).then(() => 'answered', (e: unknown) => e);
      await until(() => up.count(OPENAI_PATH) === 1, 'the call to reach the upstream');
      controller.abort();
      expect(await left).toBeInstanceOf(OpenAI.APIUserAbortError);
      await until(() => up.inFlight === 0, 'the upstream request to be aborted');
      up.script(OPENAI_PATH, { status: 200, body: openaiCompletion('next') });
      expect((await client.chat.completions.create(ask)).choices[0]!.message.content).toBe('next');
      expect(up.count(OPENAI_PATH)).toBe(2);
    });
  });

  describe('drain', () => {
    it('lets a call in flight finish, answers what comes meanwhile 503, and reports what it waited for', async () => {
      h = await startHarness(up, {}, { passThrough });
      const held = gate();
      up.script(OPENAI_PATH, { status: 200, body: openaiCompletion('finished during the drain'), heldUntil: held.promise });
      const client = h.client();
      const inFlight = client.chat.completions.create(ask);
      await until(() => up.count(OPENAI_PATH) === 1, 'the call to reach the upstream');
      const drained = h.gateway.drain();
      await until(() => !h.gateway.server.listening, 'the server to stop listening');
      held.open();
      expect((await inFlight).choices[0]!.message.content).toBe('finished during the drain');
      expect(await drained).toEqual({ inFlight: 1, cutOff: 0 });
    });

    it.each([Infinity, 3_000_000_000, -1, 2.5, Number.NaN])('refuses drainMs %s in createGateway\'s options with a config error naming it', async (drainMs) => {
      const err = await startHarness(up, {}, { drainMs, passThrough }).then(() => undefined, (e: unknown) => e);
      expect(err).toMatchObject({ kind: 'config', message: expect.stringMatching(/^createGateway: drainMs must be a whole number of ms from 0 to 2147483647/) });
    });

    it('cuts off a call still running when drainMs runs out: the client gets 503 and the upstream request is aborted', async () => {
      h = await startHarness(up, {}, { drainMs: 1, passThrough });
      up.script(OPENAI_PATH, { hang: true });
      const pending = failure(h.client().chat.completions.create(ask));
      await until(() => up.count(OPENAI_PATH) === 1, 'the call to reach the upstream');
      expect(await h.gateway.drain()).toEqual({ inFlight: 1, cutOff: 1 });
      const err = await pending;
      expect([err.status, err.code]).toEqual([503, 'gateway_closing']);
      await until(() => up.inFlight === 0, 'the upstream request to be aborted');
    });
  });
});
