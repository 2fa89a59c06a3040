import { Registry } from 'prom-client';
import { afterEach, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import type { SwitchyardConfig } from '../../src/config/index.js';
import type { outlierSchema } from '../../src/config/schema.js';
import { collectMetrics } from '../../src/integrations/prometheus/index.js';
import type { RouterEvents } from '../../src/observe/events.js';
import { createRouter, type Router } from '../../src/router.js';
import { fakeRequests } from '../../src/testing/index.js';
import { captureLogger } from '../support/capture-logger.js';
import { until } from '../support/until.js';
import { VirtualClock } from '../support/virtual-clock.js';

// Outlier ejection through the whole router, on fake providers and one virtual clock: every count
// below is requests that reached a member, every time one the clock was moved to.

let routers: Router[] = [];
afterEach(async () => {
  for (const r of routers) await r.close();
  routers = [];
});

const ask = () => ({ messages: [{ role: 'user' as const, content: 'Say hello' }] });
type Outlier = z.input<typeof outlierSchema>;
type Provider = SwitchyardConfig['providers'][string];

/** A router on fake members a, b (and c), one pool step with `outlier`; breakers kept out of the way. */
function pool(members: Record<string, Provider>, outlier: Outlier, pick?: 'headroom' | 'round_robin', clock = new VirtualClock()) {
  const router = createRouter({
    providers: members,
    chains: { default: [{ pool: Object.keys(members).map((m) => `${m}:m`), outlier, ...(pick ? { pick } : {}) }] },
    retry: { maxAttempts: 1 },
    breaker: { consecutiveFailures: 1_000, errorThresholdPercentage: 100 },
  }, { logger: captureLogger().logger, clock });
  routers.push(router);
  const events: Array<RouterEvents['outlier']> = [];
  router.on('outlier', (e) => events.push(e));
  const sent = (m: string) => fakeRequests(router, m).length;
  return { router, clock, events, sent };
}

const failing: Provider = { type: 'fake', respond: () => ({ fail: 'server', status: 503 }) };
const healthy: Provider = { type: 'fake' };

async function calls(router: Router, n: number): Promise<void> {
  for (let i = 0; i < n; i++) await router.chat(ask()).catch(() => undefined);
}

describe('outlier ejection of a pool member', () => {
  it('ejects a member after consecutiveFailures in a row; it gets no request until its time is up, then one', async () => {
    const { router, clock, events, sent } = pool({ a: failing, b: healthy }, { consecutiveFailures: 3, ejectMs: 10_000 });
    await calls(router, 3);
    expect([sent('a'), sent('b')]).toEqual([3, 3]);
    expect(events).toMatchObject([{ action: 'eject', provider: 'a', pool: 'default[0]', reason: 'consecutive_failures', ejectedForMs: 10_000, ejections: 1, ejectedMembers: 1 }]);

    const skipped = await router.chat(ask());
    expect(skipped.provider).toBe('b');
    expect(skipped.attempts[0]).toMatchObject({ provider: 'a', skipped: true, kind: 'circuit_open', code: 'outlier_ejected' });
    await calls(router, 5);
    expect(sent('a')).toBe(3);

    await clock.advance(9_999);
    await calls(router, 2);
    expect(sent('a')).toBe(3);
    await clock.advance(1);
    await calls(router, 3);
    // Its time is up: one request (the probe), which fails, and it is out again.
    expect(sent('a')).toBe(4);
    expect(sent('b')).toBe(3 + 1 + 5 + 2 + 3);
  });

  it('ejects for longer on each repeat (ejectMs x ejections), and returns a member whose probe answers', async () => {
    let down = true;
    const { router, clock, events, sent } = pool({ a: { type: 'fake', respond: () => (down ? { fail: 'server', status: 503 } : 'ok') }, b: healthy }, { consecutiveFailures: 2, ejectMs: 10_000 });
    await calls(router, 2);
    await clock.advance(10_000);
    await calls(router, 1); // the probe fails
    expect(events.map((e) => [e.action, e.reason, e.ejectedForMs, e.ejections])).toEqual([
      ['eject', 'consecutive_failures', 10_000, 1], ['eject', 'probe_failed', 20_000, 2],
    ]);
    await clock.advance(19_999);
    await calls(router, 1);
    expect(sent('a')).toBe(3);
    down = false;
    await clock.advance(1);
    await calls(router, 1); // the probe answers
    expect(events.at(-1)).toMatchObject({ action: 'return', provider: 'a', ejections: 2, ejectedMembers: 0 });
    await calls(router, 4);
    // Back in service: headroom keeps the configured order, so a answers every call.
    expect(sent('a')).toBe(3 + 1 + 4);
  });

  it('sends one request, not one per call, to a member whose time is up while many calls arrive at once', async () => {
    let down = true;
    const clock = new VirtualClock({ autoAdvance: false });
    const { router, events, sent } = pool({
      a: { type: 'fake', latencyMs: 100, respond: () => (down ? { fail: 'server', status: 503 } : 'ok') }, b: { type: 'fake', latencyMs: 100 },
    }, { consecutiveFailures: 1, ejectMs: 10_000 }, undefined, clock);
    const first = router.chat(ask());
    await until(() => sent('a') === 1, 'the first request');
    await clock.advance(100);
    await until(() => sent('b') === 1, 'the fall-through');
    await clock.advance(100);
    await first;
    down = false;
    await clock.advance(10_000);
    const burst = Array.from({ length: 5 }, () => router.chat(ask()));
    await until(() => sent('a') + sent('b') === 7, 'the probe and four calls passed over to b');
    expect([sent('a'), sent('b')]).toEqual([2, 5]);
    await clock.advance(100);
    const answered = await Promise.all(burst);
    expect(answered.filter((r) => r.provider === 'a')).toHaveLength(1);
    expect(events.map((e) => e.action)).toEqual(['eject', 'return']);
  });

  it('never ejects more than maxEjectedPercent of the pool: when every member fails, one still gets every call', async () => {
    const { router, clock, events, sent } = pool({ a: failing, b: failing, c: failing }, { consecutiveFailures: 2, maxEjectedPercent: 50 });
    await calls(router, 2);
    // a went out at its second failure; b and c failed twice too, but one of three is the cap.
    expect(events.map((e) => [e.action, e.provider])).toEqual([['eject', 'a']]);
    expect([sent('a'), sent('b'), sent('c')]).toEqual([2, 2, 2]);
    await calls(router, 10);
    expect([sent('a'), sent('b'), sent('c')]).toEqual([2, 12, 12]);
    await clock.advance(30_000); // a's probe fails: out again, for 60 s
    await calls(router, 1);
    expect([sent('a'), sent('b'), sent('c')]).toEqual([3, 13, 13]);
    expect(events.map((e) => [e.action, e.provider, e.ejectedForMs])).toEqual([['eject', 'a', 30_000], ['eject', 'a', 60_000]]);
  });

  it('ejects a member that answers 200 but slowly: p50 above latencyAboveMedianX times the others\' median', async () => {
    const { router, events, sent } = pool({
      a: { type: 'fake', latencyMs: 100 }, b: { type: 'fake', latencyMs: 100 }, c: { type: 'fake', latencyMs: 400 },
    }, { latencyAboveMedianX: 3 }, 'round_robin');
    // Turns: a, b, c, a, b, c, ... c's fifth answer (call 15) gives it a p50 of 400 ms against 100.
    await calls(router, 15);
    expect(events).toMatchObject([{ action: 'eject', provider: 'c', reason: 'latency' }]);
    await calls(router, 15);
    expect([sent('a'), sent('b'), sent('c')]).toEqual([5 + 10, 5 + 5, 5]);
  });

  it('ejects a member whose success rate falls below successRateBelow times the others\'', async () => {
    // a fails every third request (70% over ten), b and c never; the other rules off.
    const { router, events, sent } = pool({
      a: { type: 'fake', respond: (_r, n) => (n % 3 === 0 ? { fail: 'server', status: 500 } : 'ok') }, b: healthy, c: healthy,
    }, { successRateBelow: 0.8, consecutiveFailures: 0, latencyAboveMedianX: 0 }, 'round_robin');
    await calls(router, 27);
    expect([sent('a'), events.length]).toEqual([9, 0]); // nine verdicts: too few to judge
    await calls(router, 1);
    expect(sent('a')).toBe(10);
    expect(events).toMatchObject([{ action: 'eject', provider: 'a', reason: 'success_rate' }]);
    await calls(router, 30);
    expect(sent('a')).toBe(10);
  });

  it('never ejects for 429s, nor for the caller\'s own 4xx', async () => {
    let reply: object = { fail: 'rate_limited', retryAfterMs: 0 };
    const { router, clock, events, sent } = pool({ a: { type: 'fake', respond: () => reply }, b: healthy }, { consecutiveFailures: 2 });
    for (let i = 0; i < 6; i++) {
      await calls(router, 1);
      await clock.advance(60_000); // past any cooling
    }
    reply = { fail: 'bad_request', status: 400 };
    await calls(router, 6);
    expect(sent('a')).toBe(12);
    expect(events).toEqual([]);
  });

  it('counts a stream cut after its first token as a failure', async () => {
    const { router, events, sent } = pool({ a: { type: 'fake', respond: () => ({ cutAfterChunks: 1 }) }, b: healthy }, { consecutiveFailures: 2 });
    for (let i = 0; i < 3; i++) {
      for await (const e of router.stream(ask())) void e;
    }
    expect(events).toMatchObject([{ action: 'eject', provider: 'a', operation: 'stream', reason: 'consecutive_failures' }]);
    expect([sent('a'), sent('b')]).toEqual([2, 1]);
  });

  it('reports ejections as switchyard_outlier_ejections_total and the members out as switchyard_outlier_ejected', async () => {
    let down = true;
    const { router, clock } = pool({ a: { type: 'fake', respond: () => (down ? { fail: 'server', status: 503 } : 'ok') }, b: healthy }, { consecutiveFailures: 2, ejectMs: 1_000 });
    const registry = new Registry();
    const stop = collectMetrics(router, { registry });
    await calls(router, 2);
    const labels = 'pool="default[0]",provider="a",model="m"';
    let text = await registry.metrics();
    expect(text).toContain(`switchyard_outlier_ejections_total{${labels},reason="consecutive_failures"} 1`);
    expect(text).toContain(`switchyard_outlier_ejected{${labels}} 1`);
    down = false;
    await clock.advance(1_000);
    await calls(router, 1);
    text = await registry.metrics();
    expect(text).toContain(`switchyard_outlier_ejected{${labels}} 0`);
    stop();
  });
});
