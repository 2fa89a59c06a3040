import { afterEach, describe, expect, it } from 'vitest';
import { createRouter, type Router } from '../../src/router.js';
import { fakeRequests, queuedCalls } from '../../src/testing/index.js';
import { captureLogger } from '../support/capture-logger.js';
import { until } from '../support/until.js';
import { VirtualClock } from '../support/virtual-clock.js';

// A tenant's own budget is paced like a target's (issue 24, item 5): its rpm goes out evenly
// through the window after a burst, not all at the window's start.

let routers: Router[] = [];
afterEach(async () => {
  for (const r of routers) await r.close();
  routers = [];
});

const ask = { messages: [{ role: 'user' as const, content: 'Say hello' }], tenant: 'acme' };

describe("a tenant's budget, paced", () => {
  it('lets its burst go at once, then one request per 1/rpm of the window', async () => {
    const clock = new VirtualClock({ autoAdvance: false });
    // 120 a minute: one every 500 ms after a burst of 10 (the default burst's floor of requests).
    const router = createRouter({
      providers: { p: { type: 'fake', limits: { maxQueueMs: 60_000 } } },
      chains: { default: ['p:m'] },
      tenants: { acme: { rpm: 120 } },
    }, { logger: captureLogger().logger, clock });
    routers.push(router);
    const sent = () => fakeRequests(router, 'p').length;
    const calls = Array.from({ length: 14 }, () => router.chat(ask));
    await until(() => sent() === 10 && queuedCalls(router) === 4, 'the burst sent, the rest queued');
    await clock.advance(499);
    expect(sent()).toBe(10);
    for (let i = 1; i <= 4; i++) {
      await clock.advance(i === 1 ? 1 : 500);
      await until(() => sent() === 10 + i, `paced request ${i}`);
    }
    await Promise.all(calls);
    expect(sent()).toBe(14);
  });
});
