import { describe, expect, it } from 'vitest';
import { createRouter } from '../src/router.js';
import { captureLogger } from './support/capture-logger.js';
import { VirtualClock } from './support/virtual-clock.js';
import { fakeRequests } from '../src/testing/index.js';

// Timing logic on a virtual clock and the in-process fake provider: a 30 s reset in microseconds.
// No auto-advance: time moves only when a test advances it, so a slow answer stays in flight.
function routerWith(primaryOutcome: () => unknown) {
  const clock = new VirtualClock({ autoAdvance: false });
  const router = createRouter({
    providers: { primary: { type: 'fake', respond: primaryOutcome }, backup: { type: 'fake' } },
    chains: { default: ['primary:m', 'backup:m'] },
    retry: { maxAttempts: 1 },
    breaker: { volumeThreshold: 4, errorThresholdPercentage: 50, resetTimeoutMs: 30_000, windowMs: 10_000 },
  }, { logger: captureLogger().logger, clock });
  const primary = { requests: fakeRequests(router, 'primary') };
  return { router, clock, sent: () => primary.requests.length };
}
const ask = { messages: [{ role: 'user' as const, content: 'hi' }] };

describe('breaker timing (virtual clock)', () => {
  it('stays open for resetTimeoutMs, sending nothing, then lets exactly one probe through', async () => {
    let healthy = false;
    const { router, clock, sent } = routerWith(() => (healthy ? 'ok' : { fail: 'server', status: 503 }));
    for (let i = 0; i < 4; i++) await router.chat(ask);
    expect(router.breakerStates().primary).toBe('open');
    expect(sent()).toBe(4);

    await clock.advance(29_999);
    expect(router.breakerStates().primary).toBe('open');
    for (let i = 0; i < 10; i++) expect((await router.chat(ask)).provider).toBe('backup');
    expect(sent()).toBe(4);

    await clock.advance(1);
    expect(router.breakerStates().primary).toBe('halfOpen');
    healthy = true;
    const results = await Promise.all(Array.from({ length: 8 }, () => router.chat(ask)));
    expect(sent()).toBe(5);
    expect(results.filter((r) => r.provider === 'primary')).toHaveLength(1);
    expect(router.breakerStates().primary).toBe('closed');
    await router.close();
    expect(clock.pendingTimers).toBe(0);
  });

  it('does not open below the error threshold (strictly greater than 50%)', async () => {
    let n = 0;
    // ok, fail, ok, fail...: at every failure exactly half the calls failed, which is not over 50%.
    const { router } = routerWith(() => (n++ % 2 === 1 ? { fail: 'server' } : 'ok'));
    for (let i = 0; i < 10; i++) await router.chat(ask);
    expect(router.breakerStates().primary).toBe('closed');
    await router.close();
  });

  it('forgets failures older than the rolling window', async () => {
    const { router, clock, sent } = routerWith(() => ({ fail: 'server' }));
    for (let i = 0; i < 3; i++) await router.chat(ask);
    await clock.advance(11_000);
    await router.chat(ask);
    expect(router.breakerStates().primary).toBe('closed');
    expect(sent()).toBe(4);
    await router.close();
  });

  it('ignores a success that was sent before the breaker opened: it is no verdict on the recovered provider', async () => {
    let n = 0;
    const { router, clock, sent } = routerWith(() => (++n === 1 ? { text: 'slow', latencyMs: 40_000 } : { fail: 'server' }));
    const slow = router.chat(ask);
    for (let i = 0; i < 4; i++) await router.chat(ask);
    expect(router.breakerStates().primary).toBe('open');
    await clock.advance(30_000);
    expect(router.breakerStates().primary).toBe('halfOpen');
    await clock.advance(10_000);
    expect((await slow).text).toBe('slow');
    expect(router.breakerStates().primary).toBe('halfOpen');
    await router.chat(ask); // the real probe: fails, so the breaker opens again
    expect(sent()).toBe(6);
    expect(router.breakerStates().primary).toBe('open');
    await router.close();
  });
});
