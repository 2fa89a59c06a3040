import { afterEach, describe, expect, it } from 'vitest';
import type { RouterEvents } from '../../src/observe/events.js';
import { createRouter, type Router } from '../../src/router.js';
import { captureLogger } from '../support/capture-logger.js';
import { VirtualClock } from '../support/virtual-clock.js';

// The `breaker` event of an opening names whose attempts opened it: the counted failures per
// tenant within the breaker's window. A breaker one tenant opened while another's calls succeeded
// shows as such.

let routers: Router[] = [];
afterEach(async () => {
  for (const r of routers) await r.close();
  routers = [];
});

/** `primary` fails the requests whose prompt says "fail"; a backup answers the rest of the chain. */
function setup(breaker: Record<string, number>) {
  const clock = new VirtualClock({ autoAdvance: false });
  const router = createRouter({
    providers: {
      primary: { type: 'fake', respond: (request) => (JSON.stringify((request as { messages: unknown }).messages).includes('fail') ? { fail: 'server', status: 503 } : 'ok') },
      backup: { type: 'fake' },
    },
    chains: { default: ['primary:m', 'backup:m'] },
    retry: { maxAttempts: 1 },
    breaker: { resetTimeoutMs: 30_000, windowMs: 10_000, ...breaker },
  }, { logger: captureLogger().logger, clock });
  routers.push(router);
  const events: Array<RouterEvents['breaker']> = [];
  router.on('breaker', (e) => events.push(e));
  const call = (tenant: string, content: string) => router.chat({ tenant, messages: [{ role: 'user', content }] });
  return { router, clock, events, call };
}

describe('the breaker event of an opening', () => {
  it('names the one tenant whose failures opened it while another tenant\'s calls succeeded', async () => {
    const { router, events, call } = setup({ consecutiveFailures: 3 });
    await call('noisy', 'please fail');
    await call('quiet', 'hello');
    await call('noisy', 'please fail');
    await call('noisy', 'please fail');
    await call('noisy', 'please fail');
    await call('noisy', 'please fail');
    expect(router.breakerStates().primary).toBe('open');
    const opened = events.filter((e) => e.state === 'open');
    expect(opened).toEqual([expect.objectContaining({ key: 'primary', state: 'open', tenant: 'noisy', openedBy: { noisy: 4 } })]);
  });

  it('counts every tenant\'s failures in the window, and forgets those older than it', async () => {
    const { router, clock, events, call } = setup({ consecutiveFailures: 100, volumeThreshold: 4, errorThresholdPercentage: 50 });
    await call('early', 'please fail');
    await clock.advance(10_000); // out of the window (opossum forgets it too)
    await call('a', 'please fail');
    await call('b', 'please fail');
    await call('a', 'please fail');
    await call('c', 'hello');
    await call('a', 'please fail');
    await new Promise((r) => setImmediate(r)); // opossum opens a tick after the failure it judged
    expect(router.breakerStates().primary).toBe('open');
    const opened = events.filter((e) => e.state === 'open');
    expect(opened).toHaveLength(1);
    expect(opened[0]!.openedBy).toEqual({ a: 3, b: 1 });
  });

  it('says nothing of tenants when time alone changes the state', async () => {
    const { router, clock, events, call } = setup({ consecutiveFailures: 1 });
    await call('noisy', 'please fail');
    expect(router.breakerStates().primary).toBe('open');
    await clock.advance(30_000);
    expect(router.breakerStates().primary).toBe('halfOpen');
    expect(events.map((e) => [e.state, e.openedBy])).toEqual([['open', { noisy: 1 }], ['halfOpen', undefined]]);
  });
});
