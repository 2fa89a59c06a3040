import { afterEach, describe, expect, it } from 'vitest';
import type { SwitchyardConfig } from '../../src/config/index.js';
import { createRouter, type Router } from '../../src/router.js';
import { startSimulator, type SimProviderOptions, type SimRequestEvent } from '../../src/sim/index.js';
import { MemoryStore } from '../../src/store/memory-store.js';
import { fakeRequests, queuedCalls } from '../../src/testing/index.js';
import { captureLogger } from '../support/capture-logger.js';
import { until } from '../support/until.js';
import { VirtualClock } from '../support/virtual-clock.js';

// Pacing through the whole router, on one virtual clock: the router's waits and the simulator's
// buckets move only when a test moves the clock, so "at once" means one virtual instant.

let cleanup: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const fn of cleanup.reverse()) await fn();
  cleanup = [];
});

const ask = () => ({ messages: [{ role: 'user' as const, content: 'Say hello' }] });

function fakeRouter(config: Pick<SwitchyardConfig, 'providers' | 'chains'> & Partial<SwitchyardConfig>, clock: VirtualClock) {
  const store = new MemoryStore();
  const router = createRouter(config, { logger: captureLogger().logger, clock, store });
  cleanup.push(() => router.close());
  return { router, store };
}

/** A router on one simulated OpenAI provider, every request's virtual arrival time recorded. */
async function simulated(provider: Omit<SimProviderOptions, 'type'>, limits: Record<string, unknown>, clock: VirtualClock) {
  const arrivals: SimRequestEvent[] = [];
  const sim = await startSimulator({ clock, providers: { openai: { type: 'openai', ...provider } }, onRequest: (e) => arrivals.push(e) });
  cleanup.push(() => sim.stop());
  const router = createRouter({
    providers: { openai: { type: 'openai', apiKey: 'sk-sim-openai', baseURL: sim.baseURL('openai'), limits } },
    chains: { default: ['openai:gpt-4o-mini'] },
    retry: { maxAttempts: 1 },
  }, { logger: captureLogger().logger, clock });
  cleanup.push(() => router.close());
  return { sim, router, arrivals };
}

/** Runs `calls` and waits until each has either reached the provider or queued. */
async function fire(router: Router, n: number, sent: () => number, before: number): Promise<Array<Promise<unknown>>> {
  const calls = Array.from({ length: n }, () => router.chat(ask()).catch((err: unknown) => err));
  await until(() => sent() - before + queuedCalls(router) === n, `${n} calls sent or queued`);
  return calls;
}

describe('pacing learns the provider\'s bucket', () => {
  it('halves the burst after a 429 that arrived while the budget showed room, and then releases no more than that at once', async () => {
    const clock = new VirtualClock({ autoAdvance: false });
    // 600 a minute: a burst of 10, one more every 100 ms. The first ten requests find the provider's bucket empty.
    const { router, store } = fakeRouter({
      providers: {
        p: { type: 'fake', latencyMs: 50, limits: { rpm: 600 }, respond: (_request, n) => (n <= 10 ? { fail: 'rate_limited', retryAfterMs: 0 } : 'ok') },
        q: { type: 'fake' },
      },
      chains: { default: ['p:m', 'q:m'] },
      retry: { maxAttempts: 1 },
    }, clock);
    const sent = () => fakeRequests(router, 'p').length;
    const first = await fire(router, 10, sent, 0);
    expect(sent()).toBe(10);
    await clock.advance(50);
    await Promise.all(first);
    expect(store.paces('p:m', clock.now())[0]).toMatchObject({ burst: 5 });

    await clock.advance(60_000); // the bucket has long refilled: what it lets out at once is the burst
    const later = await fire(router, 20, sent, 10);
    expect([sent() - 10, queuedCalls(router)]).toEqual([5, 15]);
    // Then one request every 100 ms, as the limit's rate allows.
    await clock.advance(99);
    expect(sent() - 10).toBe(5);
    await clock.advance(1);
    await until(() => sent() - 10 === 6, 'the next paced request');
    await clock.advance(5_000);
    await Promise.all(later);
  });

  it('learns a per-second bucket from the headers and never sends more than it holds, without a 429', async () => {
    const clock = new VirtualClock({ autoAdvance: false });
    // The console says 600 a minute; the provider enforces it per second: a bucket of 10.
    const { sim, router, arrivals } = await simulated({ limits: { rpm: 600, tpm: 100_000_000, quantumMs: 1_000 } }, { rpm: 600, burstMs: 5_000 }, clock);
    await router.chat(ask()); // its headers: 9 left, full in 100 ms: a bucket of 10, not the 50 the burst started at
    const calls = await fire(router, 40, () => arrivals.length, 1);
    expect(arrivals).toHaveLength(10);
    for (let step = 0; step < 31; step++) {
      await clock.advance(100);
      await until(() => arrivals.length >= Math.min(41, 11 + step), 'the next paced request');
    }
    const results = await Promise.all(calls);
    expect(results.every((r) => (r as { provider?: string }).provider === 'openai')).toBe(true);
    expect(sim.stats().providers.openai!.rateLimited).toBe(0);
    // Within any second, at most the bucket plus what refilled: 10 + 10.
    for (const a of arrivals) expect(arrivals.filter((b) => b.atMs >= a.atMs && b.atMs < a.atMs + 1_000).length).toBeLessThanOrEqual(20);
  });

  it('counts the calls in flight against the headroom a response reports, so 50 calls do not all pass on one reading', async () => {
    const clock = new VirtualClock({ autoAdvance: false });
    // No limits configured: the provider's own headers are all the router knows. 40 a minute, per-minute bucket.
    const { sim, router, arrivals } = await simulated({ limits: { rpm: 40, tpm: 100_000_000 }, latency: { baseMs: 30 } }, {}, clock);
    await router.chat(ask()); // 39 left
    const calls = await fire(router, 50, () => arrivals.length, 1);
    // 39 went; the other 11 wait for the refill (one every 1.5 s) instead of meeting 429s.
    expect(arrivals).toHaveLength(40);
    await until(() => sim.stats().providers.openai!.inFlight === 0, 'the 39 answers');
    expect(arrivals).toHaveLength(40);
    expect(sim.stats().providers.openai!.rateLimited).toBe(0);
    await clock.advance(60_000);
    await Promise.all(calls);
    expect(sim.stats().providers.openai!.rateLimited).toBe(0);
  });
});
