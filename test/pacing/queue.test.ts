import { afterEach, describe, expect, it } from 'vitest';
import type { SwitchyardConfig } from '../../src/config/index.js';
import { isRouterError } from '../../src/errors.js';
import { createRouter, type Router } from '../../src/router.js';
import { fakeRequests, queuedCalls } from '../../src/testing/index.js';
import { captureLogger } from '../support/capture-logger.js';
import { until } from '../support/until.js';
import { VirtualClock } from '../support/virtual-clock.js';

// Calls a paced budget holds back wait in the same fair queue as any budget's: by tenant share,
// first come first served within a tenant, and never longer than maxQueueMs.

let routers: Router[] = [];
afterEach(async () => {
  for (const r of routers) await r.close();
  routers = [];
});

/** One request every 100 ms, one at a time (600 a minute, a burst of 100 ms' worth). */
function paced(extra: Partial<SwitchyardConfig> = {}, maxQueueMs = 10_000) {
  const clock = new VirtualClock({ autoAdvance: false });
  const router = createRouter({
    providers: { p: { type: 'fake', limits: { rpm: 600, burstMs: 100, maxQueueMs } } },
    chains: { default: ['p:m'] },
    ...extra,
  }, { logger: captureLogger().logger, clock });
  routers.push(router);
  return { router, clock, sent: () => fakeRequests(router, 'p').length };
}

const ask = (tenant?: string) => ({ messages: [{ role: 'user' as const, content: 'Say hello' }], ...(tenant ? { tenant } : {}) });

describe('the queue in front of a paced budget', () => {
  it('serves tenants by their share while the pace holds calls back', async () => {
    const { router, clock, sent } = paced({ tenants: { web: { share: 3 }, batch: { share: 1 } } });
    await router.chat(ask()); // takes the one request the burst holds
    const order: string[] = [];
    const calls = [
      ...Array.from({ length: 12 }, () => router.chat(ask('batch')).then(() => order.push('batch'))),
      ...Array.from({ length: 4 }, () => router.chat(ask('web')).then(() => order.push('web'))),
    ];
    await until(() => queuedCalls(router) === 16, 'every call queued behind the pace');
    for (let i = 1; i <= 16; i++) {
      await clock.advance(100);
      await until(() => sent() === 1 + i, `paced request ${i}`);
    }
    await Promise.all(calls);
    // Share 3 against 1: web's four calls are done within the first six turns, not after the flood.
    expect(order.lastIndexOf('web')).toBeLessThan(6);
  });

  it('lets a call wait at most maxQueueMs for the pace, then skips the target without a request', async () => {
    const { router, clock, sent } = paced({}, 250);
    const calls = Array.from({ length: 6 }, () => router.chat(ask()).catch((err: unknown) => err));
    await until(() => sent() + queuedCalls(router) === 6, 'one sent, five queued');
    await clock.advance(100);
    await until(() => sent() === 2, 'the second, 100 ms later');
    await clock.advance(100);
    await until(() => sent() === 3, 'the third, 200 ms later');
    await clock.advance(50);
    const results = await Promise.all(calls);
    expect(sent()).toBe(3);
    const ok = results.filter((r) => !isRouterError(r)) as Array<{ attempts: Array<{ waitedMs?: number }> }>;
    expect(ok.map((r) => r.attempts[0]!.waitedMs ?? 0)).toEqual([0, 100, 200]);
    expect(results.filter(isRouterError).map((r) => [r.kind, r.attempts[0]?.kind])).toEqual(Array.from({ length: 3 }, () => ['exhausted', 'local_limit']));
  });
});
