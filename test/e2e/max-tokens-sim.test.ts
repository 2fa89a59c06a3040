import { afterEach, describe, expect, it } from 'vitest';
import { adapterFor } from '../../providers/test-support/adapter-harness.js';
import type { SwitchyardConfig } from '../../src/config/index.js';
import { createRouter } from '../../src/router.js';
import { startSimulator, type FaultRule, type SimRequestEvent } from '../../src/sim/index.js';
import { captureLogger } from '../support/capture-logger.js';
import { VirtualClock } from '../support/virtual-clock.js';

// The empty-answer bug, on the simulator: a Gemini 2.5 model thinks out of maxOutputTokens (its
// dynamic thinking, or the whole of a thinkingBudget), so a limit sized for the answer alone leaves
// it nothing. maxTokens is the visible answer's budget now: the router adds the thinking on top.

const KEY = 'AIzaSyTESTmaxTokensSim0123456789abcdef';
const ask = { messages: [{ role: 'user' as const, content: 'Tell me about trains, please.' }], maxTokens: 100 };

let cleanup: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const fn of cleanup.reverse()) await fn();
  cleanup = [];
});

async function setup(options: { openaiFaults?: FaultRule[]; chains?: SwitchyardConfig['chains']; limits?: NonNullable<SwitchyardConfig['providers'][string]>['limits'] } = {}) {
  const clock = new VirtualClock();
  const seen: SimRequestEvent[] = [];
  const sim = await startSimulator({ clock, providers: { google: { type: 'gemini' }, openai: { type: 'openai', faults: options.openaiFaults } }, onRequest: (e) => seen.push(e) });
  cleanup.push(() => sim.stop());
  const router = createRouter({
    providers: {
      google: { type: 'gemini', apiKey: KEY, baseURL: sim.baseURL('google'), timeoutMs: 60_000, ...(options.limits ? { limits: options.limits } : {}) },
      openai: { type: 'openai', apiKey: 'sk-sim-openai', baseURL: sim.baseURL('openai'), timeoutMs: 60_000 },
    },
    chains: options.chains ?? { default: ['google:gemini-2.5-flash'] },
    retry: { maxAttempts: 1 },
  }, { logger: captureLogger().logger, clock, random: () => 1 });
  cleanup.push(() => router.close());
  const sent = (p: 'google' | 'openai') => sim.stats().providers[p]!.requests;
  return { sim, router, seen, sent };
}

describe('a Gemini 2.5 target given maxTokens 100', () => {
  it('answered "" before: the request as it was sent (maxOutputTokens 100, and thinkingBudget 1024 for effort low) leaves thinking the whole limit', async () => {
    const { sim, sent } = await setup();
    const adapter = adapterFor('gemini', { type: 'gemini', apiKey: KEY, baseURL: sim.baseURL('google') });
    const plain = await adapter.chat({ model: 'gemini-2.5-flash', messages: ask.messages, maxTokens: 100 }, {});
    expect(plain).toMatchObject({ text: '', finishReason: 'length', usage: { outputTokens: 100, reasoningTokens: 100 } });
    const low = await adapter.chat({ model: 'gemini-2.5-flash', messages: ask.messages, maxTokens: 100, reasoning: { effort: 'low' } }, {});
    expect(low).toMatchObject({ text: '', finishReason: 'length', usage: { reasoningTokens: 100 } });
    expect(sent('google')).toBe(2);
  });

  it('answers visible text through the router, the thinking budget added on top', async () => {
    const { router, sent } = await setup();
    const plain = await router.chat(ask);
    expect(plain.text.length).toBeGreaterThan(0);
    expect(plain.finishReason).toBe('stop');
    // The explicit default budget, thought whole by the simulated model, and the answer beside it.
    expect(plain.usage!.reasoningTokens).toBe(8192);
    expect(plain.usage!.outputTokens - 8192).toBeLessThanOrEqual(100);
    const low = await router.chat(Object.assign({}, ask, { reasoning: { effort: 'low' as const } }));
    expect(low).toMatchObject({ text: plain.text, finishReason: 'stop', usage: { reasoningTokens: 1024 } });
    expect(sent('google')).toBe(2);
  });

  it('answers text after a fall-through from an OpenAI model that was rate limited: a chain sized for GPT', async () => {
    const { router, sent } = await setup({ openaiFaults: [{ fault: 'rate_limit' }], chains: { default: ['openai:gpt-4o-mini', 'google:gemini-2.5-flash'] } });
    const res = await router.chat(ask);
    expect(res.attempts.map((a) => [a.provider, a.ok, a.status])).toEqual([['openai', false, 429], ['google', true, undefined]]);
    expect(res.provider).toBe('google');
    expect(res.text.length).toBeGreaterThan(0);
    expect(res.finishReason).toBe('stop');
    expect([sent('openai'), sent('google')]).toEqual([1, 1]);
  });

  it('reserves the thinking budget with the answer: an OTPM budget smaller than maxTokens plus the budget skips the target unsent', async () => {
    const chains = { default: ['google:gemini-2.5-flash', 'openai:gpt-4o-mini'], lite: ['google:gemini-2.5-flash-lite', 'openai:gpt-4o-mini'] };
    const { router, sent } = await setup({ chains, limits: { otpm: 8_000 } });
    // 100 + 8192 > 8000: too large for the window however long it waits.
    const flash = await router.chat(ask);
    expect(flash.provider).toBe('openai');
    expect(flash.attempts[0]).toMatchObject({ provider: 'google', kind: 'local_limit', skipped: true, code: 'too_large' });
    // Flash-Lite does not think unless asked: 100 fits.
    const lite = await router.chat(Object.assign({}, ask, { chain: 'lite' }));
    expect(lite.provider).toBe('google');
    expect([sent('google'), sent('openai')]).toEqual([1, 1]);
  });
});
