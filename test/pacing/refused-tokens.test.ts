import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { queuedCalls } from '../../src/testing/index.js';
import { ANTHROPIC_PATH, anthropicBodies, anthropicMessage } from '../support/fixtures.js';
import { until } from '../support/until.js';
import { startUpstream, type Upstream } from '../support/upstream.js';
import { VirtualClock } from '../support/virtual-clock.js';
import { ANTHROPIC_KEY, wireRouter } from '../support/wire-router.js';

// Anthropic charges a request it answers 429 one request and no tokens. A budget that kept the
// output it reserved for those requests would count the window full of tokens nobody spent, and
// keep every retry out for a whole minute.

let up: Upstream;
let close: Array<() => Promise<void>> = [];
beforeEach(async () => {
  up = await startUpstream();
});
afterEach(async () => {
  for (const c of close) await c();
  close = [];
  await up.close();
});

/** The requests window spent by another process (back in 1.2 s); the output window untouched. */
const headers = (clock: VirtualClock, requestsLeft: number) => ({
  'anthropic-ratelimit-requests-limit': '50',
  'anthropic-ratelimit-requests-remaining': String(requestsLeft),
  'anthropic-ratelimit-requests-reset': new Date(clock.now() + 1_200).toISOString(),
  'anthropic-ratelimit-output-tokens-limit': '2000',
  'anthropic-ratelimit-output-tokens-remaining': '2000',
  'anthropic-ratelimit-output-tokens-reset': new Date(clock.now()).toISOString(),
  'request-id': 'req_011TEST',
});

describe('a 429 gives its token reservation back', () => {
  it('five calls that fill OTPM with their reservations and are answered 429 all go again after the hint, not a minute later', async () => {
    const clock = new VirtualClock({ autoAdvance: false });
    const sent: number[] = [];
    const w = wireRouter(up, {
      providers: {
        anthropic: {
          type: 'anthropic', apiKey: ANTHROPIC_KEY, baseURL: up.url, timeoutMs: 60_000,
          // 2,000 output tokens a minute, all at once: five calls of 400 fill it.
          limits: { otpm: 2_000, burstMs: 60_000, maxQueueMs: 10_000 },
        },
      },
      chains: { default: ['anthropic:claude-sonnet-4-6'] },
    }, { clock, timeoutMs: 60_000, random: () => 0 });
    close.push(() => w.router.close());
    up.otherwise(ANTHROPIC_PATH, () => {
      sent.push(clock.now());
      if (sent.length <= 5) return { status: 429, headers: { ...headers(clock, 0), 'retry-after': '1', 'x-should-retry': 'true' }, body: anthropicBodies.rateLimit };
      return { status: 200, headers: { 'content-type': 'application/json', ...headers(clock, 40) }, body: anthropicMessage() };
    });
    const t0 = clock.now();
    const calls = Array.from({ length: 5 }, (_, i) => w.router.chat({ messages: [{ role: 'user', content: `call ${i}` }], maxTokens: 400 }));
    await until(() => sent.length === 5 && queuedCalls(w.router) === 0, 'the five requests answered 429');
    for (let i = 0; i < 30 && sent.length < 10; i++) {
      await clock.advance(100);
      await until(() => true);
    }
    const results = await Promise.all(calls);
    expect(results.map((r) => r.attempts.map((a) => a.status ?? 200))).toEqual(Array.from({ length: 5 }, () => [429, 200]));
    // Each retried after its 1 s hint (random 0: no jitter on top), within the 1.2 s the requests window needed.
    expect(sent.slice(5).every((at) => at - t0 >= 1_000 && at - t0 <= 1_300)).toBe(true);
  });
});
