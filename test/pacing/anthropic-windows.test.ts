import { afterEach, describe, expect, it } from 'vitest';
import { createRouter, type Router } from '../../src/router.js';
import { startSimulator, type SimProviderOptions, type Simulator } from '../../src/sim/index.js';
import { MemoryStore } from '../../src/store/memory-store.js';
import type { BudgetRequest } from '../../src/store/state-store.js';
import type { ChatRequest } from '../../src/types.js';
import { setMaxTokensMeaning } from '../../src/convert/max-tokens-meaning.js';
import { captureLogger } from '../support/capture-logger.js';
import { until } from '../support/until.js';
import { VirtualClock } from '../support/virtual-clock.js';

// Anthropic's three limits at once, against the simulator's separate input and output windows, on
// one virtual clock: "at T0" means without the clock moving, so without any window refilling.

let cleanup: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const fn of cleanup.reverse()) await fn();
  cleanup = [];
});

// A model that thinks adaptively: before 4.6 a 600-token maxTokens leaves no room for a thinking budget.
const MODEL = 'claude-sonnet-4-6';

async function setup(sim: Omit<SimProviderOptions, 'type'>, limits: Record<string, unknown>) {
  const clock = new VirtualClock({ autoAdvance: false });
  const simulator: Simulator = await startSimulator({ clock, providers: { anthropic: { type: 'anthropic', ...sim } } });
  cleanup.push(() => simulator.stop());
  const store = new MemoryStore();
  const asked: BudgetRequest[] = [];
  const acquire = store.acquireBudget.bind(store);
  const settle = store.settleBudget.bind(store);
  const release = store.releaseBudget.bind(store);
  let out = 0;
  store.acquireBudget = (req, now) => {
    const grant = acquire(req, now);
    asked.push(req);
    if (grant.ok) out++;
    return grant;
  };
  store.settleBudget = (...args) => (out--, settle(...args));
  store.releaseBudget = (key, id, sent, now) => (sent || out--, release(key, id, sent, now));
  const router: Router = createRouter({
    providers: { anthropic: { type: 'anthropic', apiKey: 'sk-sim-anthropic', baseURL: simulator.baseURL('anthropic'), limits: { maxQueueMs: 600_000, ...limits } } },
    chains: { default: [`anthropic:${MODEL}`] },
    retry: { maxAttempts: 1 },
  }, { logger: captureLogger().logger, clock, store });
  cleanup.push(() => router.close());
  const stats = () => simulator.stats().providers.anthropic!;
  /** Moves the clock a second at a time, letting every request sent meanwhile come back first. */
  const run = async (ms: number) => {
    for (let t = 0; t < ms; t += 1_000) {
      await until(() => out === 0, 'the requests in flight to come back');
      await clock.advance(1_000);
    }
  };
  return { clock, router, stats, asked, run };
}

// No instruction the simulator follows (it would summarise a "summarise ..." prompt in one short
// sentence): its answers keep the plain answer's length these tests count on.
const prompt = (i: number, chars: number) => `Question ${i}: ${'figure of the quarterly sales report '.repeat(Math.ceil(chars / 37)).slice(0, chars)}`;

describe('Anthropic input and output token limits', () => {
  it('reserves maxTokens against OTPM and gives back what was not written, so an output-heavy load fills OTPM without a 429', async () => {
    const { router, stats, run } = await setup(
      { limits: { rpm: 600, tpm: 1_000_000_000, itpm: 1_000_000, otpm: 3_000 } },
      { rpm: 600, itpm: 1_000_000, otpm: 3_000 },
    );
    // Each reserves 600 output tokens and writes about 175 (128 of thinking, then the answer).
    // maxTokens in Anthropic's meaning (thinking included), as /v1/messages sends it: the router adds no thinking budget on top.
    const request = (i: number): ChatRequest => withAnthropicMaxTokens({ messages: [{ role: 'user', content: prompt(i, 80) }], maxTokens: 600, reasoning: { effort: 'medium' } });
    const calls = Array.from({ length: 30 }, (_, i) => router.chat(request(i)));
    // At T0, with nothing refilled: as many as the output window holds by what they wrote, not by the 600 each reserved.
    await expect.poll(() => stats().byStatus['200'] ?? 0, { interval: 5, timeout: 15_000 }).toBeGreaterThanOrEqual(14);
    expect(stats().tokens.output).toBeGreaterThan(0.8 * 3_000);
    expect(stats().tokens.output).toBeLessThanOrEqual(3_000);
    await run(300_000);
    const results = await Promise.all(calls);
    expect(results.every((r) => r.provider === 'anthropic')).toBe(true);
    expect(stats().rateLimited).toBe(0);
  });

  it('lets prompt-cached input through without spending ITPM on it, and reserves less once it has seen the cache share', async () => {
    const { router, stats, asked } = await setup(
      // 80% of every prompt is read from the prompt cache: Anthropic charges ITPM only the rest.
      { limits: { rpm: 600, tpm: 1_000_000_000, itpm: 2_000, otpm: 1_000_000 }, promptCache: { readShare: 0.8 } },
      { rpm: 600, itpm: 2_000, otpm: 1_000_000 },
    );
    const results = [];
    // Twenty prompts of about 400 tokens: 8,000 tokens of input, four times the ITPM, at T0.
    for (let i = 0; i < 20; i++) results.push(await router.chat({ messages: [{ role: 'user', content: prompt(i, 1_600) }], maxTokens: 64 }));
    expect(results.every((r) => r.provider === 'anthropic' && (r.usage?.cachedInputTokens ?? 0) > 0)).toBe(true);
    expect(stats().tokens.input).toBeGreaterThan(4 * 2_000);
    expect(stats().rateLimited).toBe(0);
    // The first call reserved its whole prompt; once the answers showed 80% cached, a fifth of it.
    const reserved = asked.map((r) => r.inputTokens!);
    expect(reserved[0]).toBeGreaterThan(400);
    expect(reserved.at(-1)!).toBeLessThan(0.25 * reserved[0]!);
  });
});

function withAnthropicMaxTokens(request: ChatRequest): ChatRequest {
  setMaxTokensMeaning(request, 'anthropic');
  return request;
}
