import { describe, expect, it } from 'vitest';
import { queuedCalls } from '../../src/testing/index.js';
import { ANTHROPIC_PATH, anthropicBodies, anthropicMessage } from '../support/fixtures.js';
import { until } from '../support/until.js';
import type { Upstream } from '../support/upstream.js';
import { upstreamPerTest } from '../support/upstream-per-test.js';
import { VirtualClock } from '../support/virtual-clock.js';
import { ANTHROPIC_KEY, ask, wireRouter } from '../support/wire-router.js';

// An Anthropic account another process already spent: its first answer, a 429, says the requests
// bucket holds 50 and refills continuously over a minute (one request every 1.2 s). The router
// configures no limits at all: what it knows of the bucket it learns from that first answer.

let up: Upstream;
const close = upstreamPerTest((u) => (up = u));

/** The requests window as Anthropic reports it: 50 a minute, none left, full again a minute from now. */
const spent = (clock: VirtualClock) => ({
  'anthropic-ratelimit-requests-limit': '50',
  'anthropic-ratelimit-requests-remaining': '0',
  'anthropic-ratelimit-requests-reset': new Date(clock.now() + 60_000).toISOString(),
  'request-id': 'req_011TEST',
});

describe('calls waiting on a spent account go out at the rate its headers imply', () => {
  it('an empty-start account: after the 1 s hint the queued calls go out one every 1.2 s, not all at once', async () => {
    const clock = new VirtualClock({ autoAdvance: false });
    const t0 = clock.now();
    const sent: Array<{ at: number; text: string }> = [];
    const w = wireRouter(up, {
      providers: { anthropic: { type: 'anthropic', apiKey: ANTHROPIC_KEY, baseURL: up.url, timeoutMs: 60_000, limits: { maxQueueMs: 10_000 } } },
      chains: { default: ['anthropic:claude-sonnet-4-6'] },
    }, { clock, timeoutMs: 60_000, random: () => 0 });
    close.push(() => w.router.close());
    let n = 0;
    up.otherwise(ANTHROPIC_PATH, (req) => {
      sent.push({ at: clock.now() - t0, text: String(req.body.messages.at(-1).content) });
      if (n++ === 0) return { status: 429, headers: { ...spent(clock), 'retry-after': '1', 'x-should-retry': 'true' }, body: anthropicBodies.rateLimit };
      return { status: 200, headers: { 'content-type': 'application/json', ...spent(clock) }, body: anthropicMessage() };
    });
    const first = w.router.chat(ask('first'));
    await until(() => sent.length === 1 && queuedCalls(w.router) === 0, 'the first request answered 429');
    await clock.advance(100);
    const others = ['b', 'c', 'd'].map((t) => w.router.chat(ask(t)));
    await until(() => queuedCalls(w.router) === 3, 'the others held in the queue by the 429, not sent');
    expect(sent).toHaveLength(1);
    for (let i = 0; i < 60 && sent.length < 5; i++) {
      await clock.advance(100);
      await until(() => true);
    }
    await Promise.all([first, ...others]);
    // The bucket: empty at 0, one request back every 1.2 s. The 429ed caller retried after its
    // hint and queued behind the calls already waiting (first come, first served).
    expect(sent.map((s) => [s.text, s.at])).toEqual([['first', 0], ['b', 1200], ['c', 2400], ['d', 3600], ['first', 4800]]);
    expect(queuedCalls(w.router)).toBe(0);
  });
});
