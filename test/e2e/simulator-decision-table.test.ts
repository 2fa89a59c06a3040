import OpenAI from 'openai';
import { afterEach, describe, expect, it } from 'vitest';
import type { SwitchyardConfig } from '../../src/config/index.js';
import { isRouterError } from '../../src/errors.js';
import { createRouter, type Router } from '../../src/router.js';
import { startSimulator, type SimProviderOptions, type Simulator } from '../../src/sim/index.js';
import { captureLogger } from '../support/capture-logger.js';
import { until } from '../support/until.js';
import { VirtualClock } from '../support/virtual-clock.js';

// The core decision table again, this time against the provider simulator: every failure is produced
// by the simulator's rate limiter or fault injection, and travels through the real SDKs over loopback.
// The router and the simulator share one VirtualClock, so rate-limit windows, fault schedules and the
// router's waits and timeouts agree, and move only when a test moves them.

const OPENAI = 'gpt-4o-mini';
const ANTHROPIC = 'claude-haiku-4-5';
const ask = (content = 'Say hello', extra: Record<string, unknown> = {}) => ({ messages: [{ role: 'user' as const, content }], ...extra });

let cleanup: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const fn of cleanup.reverse()) await fn();
  cleanup = [];
});

interface Setup {
  openai?: Omit<SimProviderOptions, 'type'>;
  anthropic?: Omit<SimProviderOptions, 'type'>;
  config?: Partial<SwitchyardConfig>;
  /** One clock for the router's waits and the simulator's windows (a new one unless given). */
  clock?: VirtualClock;
  random?: () => number;
  timeoutMs?: number;
  /** Extra router config for the openai provider (limits, ...). */
  routerOpenAI?: Record<string, unknown>;
}

async function setup(s: Setup = {}): Promise<{ sim: Simulator; router: Router; clock: VirtualClock; sent: (provider: string) => number; log: ReturnType<typeof captureLogger> }> {
  const clock = s.clock ?? new VirtualClock();
  const sim = await startSimulator({
    clock,
    providers: { openai: { type: 'openai', ...s.openai }, anthropic: { type: 'anthropic', ...s.anthropic } },
  });
  cleanup.push(() => sim.stop());
  const log = captureLogger();
  const config: SwitchyardConfig = {
    providers: {
      // A minute on the router's clock: the SDKs' own timers get the same value, on the wall clock.
      openai: { type: 'openai', apiKey: 'sk-sim-openai', baseURL: sim.baseURL('openai'), timeoutMs: s.timeoutMs ?? 60_000, ...s.routerOpenAI },
      anthropic: { type: 'anthropic', apiKey: 'sk-sim-anthropic', baseURL: sim.baseURL('anthropic'), timeoutMs: 60_000 },
    },
    chains: {
      default: [`openai:${OPENAI}`, `anthropic:${ANTHROPIC}`],
      'anthropic-first': [`anthropic:${ANTHROPIC}`, `openai:${OPENAI}`],
      'two-openai-models': [`openai:${OPENAI}`, 'openai:gpt-4o', `anthropic:${ANTHROPIC}`],
    },
    retry: { baseDelayMs: 10, maxDelayMs: 40 },
    ...s.config,
  };
  const router = createRouter(config, { logger: log.logger, clock, random: s.random ?? (() => 0) });
  cleanup.push(() => router.close());
  return { sim, router, clock, log, sent: (provider) => sim.stats().providers[provider]!.requests };
}

async function rejectionOf(promise: Promise<unknown>): Promise<any> {
  try {
    await promise;
  } catch (err) {
    return err;
  }
  throw new Error('expected the call to fail');
}

describe('429s from the simulator\'s rate limiter', () => {
  /** Another client of the same account spends the window, so the router's next request meets a 429 it could not foresee. */
  async function spendWindow(sim: Simulator, requests: number): Promise<void> {
    const other = new OpenAI({ apiKey: 'sk-other-client', baseURL: sim.baseURL('openai'), maxRetries: 0 });
    for (let i = 0; i < requests; i++) await other.chat.completions.create({ model: OPENAI, messages: [{ role: 'user', content: 'x' }] });
  }

  it('waits out the retry-after of an exhausted RPM window on the same target, and the retry is admitted', async () => {
    const clock = new VirtualClock();
    const { router, sim, sent } = await setup({ clock, openai: { limits: { rpm: 1, windowMs: 2_000 } } });
    await spendWindow(sim, 1);
    const res = await router.chat(ask());
    expect(res.provider).toBe('openai');
    expect(res.attempts.map((a) => a.kind ?? 'ok')).toEqual(['rate_limited', 'ok']);
    expect(clock.sleeps).toEqual([2_000]); // retry-after: 2, and jitter 0
    expect([sent('openai'), sent('anthropic')]).toEqual([3, 0]);
    expect(sim.stats().providers.openai!.byStatus).toEqual({ 200: 2, 429: 1 });
  });

  it('reads the wait from "Please try again in 2s" when a 429 carries no headers at all, as one real OpenAI 429 did', async () => {
    const clock = new VirtualClock();
    const { router, sim, sent } = await setup({ clock, openai: { limits: { rpm: 1, windowMs: 2_000 }, retryAfter: false, rateLimitHeaders: 'success-only' } });
    await spendWindow(sim, 1);
    const res = await router.chat(ask());
    expect(res.attempts.map((a) => a.kind ?? 'ok')).toEqual(['rate_limited', 'ok']);
    expect(clock.sleeps).toEqual([2_000]);
    expect(sent('openai')).toBe(3);
  });

  it('falls through when the wait is longer than maxInlineWaitMs, skips the cooling target until its reset, then uses it again', async () => {
    const clock = new VirtualClock();
    const { router, sim, sent } = await setup({ clock, openai: { limits: { rpm: 1 } } });
    await spendWindow(sim, 1);
    const spilled = await router.chat(ask());
    expect(spilled.provider).toBe('anthropic');
    expect(spilled.attempts[0]).toMatchObject({ provider: 'openai', kind: 'rate_limited', status: 429 });
    expect([sent('openai'), sent('anthropic')]).toEqual([2, 1]);

    const skipped = await router.chat(ask());
    expect(skipped.attempts[0]).toMatchObject({ provider: 'openai', skipped: true, kind: 'rate_limited' });
    expect(sent('openai')).toBe(2);

    await clock.advance(60_000); // the reset the 429 named
    expect((await router.chat(ask())).provider).toBe('openai');
    expect(sent('openai')).toBe(3);
  });

  it('keeps off a target whose last answer reported no requests left, without spending a 429, until the reset', async () => {
    const clock = new VirtualClock();
    const { router, sim, sent } = await setup({ clock, openai: { limits: { rpm: 1 } }, routerOpenAI: { limits: { maxQueueMs: 0 } } });
    expect((await router.chat(ask())).provider).toBe('openai'); // x-ratelimit-remaining-requests: 0, reset 1m0s
    const next = await router.chat(ask());
    expect(next.provider).toBe('anthropic');
    expect(next.attempts[0]).toMatchObject({ provider: 'openai', skipped: true, kind: 'local_limit' });
    expect(sent('openai')).toBe(1);
    expect(sim.stats().providers.openai!.rateLimited).toBe(0);
    await clock.advance(60_000);
    expect((await router.chat(ask())).provider).toBe('openai');
    expect(sim.stats().providers.openai!.byStatus).toEqual({ 200: 2 });
  });

  it('never opens the breaker on a 429 storm', async () => {
    const clock = new VirtualClock();
    const { router, sent } = await setup({
      clock, openai: { faults: [{ fault: 'rate_limit', retryAfterMs: 1_000 }] },
      config: { retry: { maxAttempts: 1, maxInlineWaitMs: 0 }, breaker: { volumeThreshold: 2, errorThresholdPercentage: 10 } },
    });
    for (let i = 0; i < 20; i++) {
      expect((await router.chat(ask())).provider).toBe('anthropic');
      await clock.advance(1_000);
    }
    expect(sent('openai')).toBe(20);
    expect(router.breakerStates().openai).toBe('closed');
  });

  it('sends a request larger than the whole TPM to the next target without retrying or cooling', async () => {
    const { router, sent } = await setup({ openai: { limits: { tpm: 1_000 } } });
    expect((await router.chat(ask('hi', { maxTokens: 2_000 }))).provider).toBe('anthropic');
    expect((await router.chat(ask())).provider).toBe('openai');
    expect([sent('openai'), sent('anthropic')]).toEqual([2, 1]);
  });

  it('reports the headroom the simulator sends on every answer as ratelimit events', async () => {
    const { router } = await setup({ openai: { limits: { rpm: 10, tpm: 10_000 } } });
    const seen: any[] = [];
    router.on('ratelimit', (e) => seen.push(e));
    await router.chat(ask());
    await router.chat(ask());
    expect(seen.map((e) => e.requests.remaining)).toEqual([9, 8]);
    expect(seen[0]).toMatchObject({ provider: 'openai', requests: { limit: 10 }, tokens: { limit: 10_000 } });
  });
});

describe('quota and billing', () => {
  it('costs one request on OpenAI insufficient_quota, falls through, and parks the provider for every model', async () => {
    const { router, sent } = await setup({ openai: { faults: [{ fault: 'insufficient_quota' }] } });
    const quota: any[] = [];
    router.on('quota', (e) => quota.push(e));
    const res = await router.chat({ ...ask(), chain: 'two-openai-models' });
    expect(res.attempts.map((a) => [a.model, a.kind ?? 'ok', a.skipped ?? false])).toEqual([
      [OPENAI, 'quota_exhausted', false], ['gpt-4o', 'quota_exhausted', true], [ANTHROPIC, 'ok', false],
    ]);
    await router.chat(ask());
    expect(sent('openai')).toBe(1);
    expect(quota).toMatchObject([{ provider: 'openai', code: 'insufficient_quota', status: 429, requestId: expect.stringMatching(/^req_/) }]);
  });

  it('parks Anthropic on "credit balance is too low" (a 400) after one request', async () => {
    const { router, sent } = await setup({ anthropic: { faults: [{ fault: 'insufficient_quota' }] } });
    const res = await router.chat({ ...ask(), chain: 'anthropic-first' });
    expect(res.provider).toBe('openai');
    expect(res.attempts[0]).toMatchObject({ kind: 'quota_exhausted', status: 400 });
    await router.chat({ ...ask(), chain: 'anthropic-first' });
    expect(sent('anthropic')).toBe(1);
  });
});

describe('caller errors fail at once', () => {
  it.each([
    ['a 401', { faults: [{ fault: 'unauthorized' as const }] }, 'auth', 401],
    ['a context-length 400', { contextTokens: 20 }, 'context_length', 400],
    ['a 404 for a model it does not serve', { models: ['gpt-4o'] }, 'not_found', 404],
  ])('%s costs one request and tries no other target', async (_what, openai, kind, status) => {
    const { router, sent } = await setup({ openai });
    const err = await rejectionOf(router.chat(ask('a question that is long enough to pass twenty tokens of context, surely, yes')));
    expect(isRouterError(err)).toBe(true);
    expect(err).toMatchObject({ kind, status });
    expect([sent('openai'), sent('anthropic')]).toEqual([1, 0]);
    expect(router.breakerStates().openai).toBe('closed');
  });
});

describe('server and transport failures', () => {
  it('retries 503s with capped exponential backoff until attempts run out, then falls through', async () => {
    const clock = new VirtualClock();
    const { router, sent } = await setup({
      clock, random: () => 1, config: { retry: { maxAttempts: 3, baseDelayMs: 100, maxDelayMs: 1_000 } },
      openai: { faults: [{ fault: 'unavailable' }], rateLimitHeaders: 'success-and-429' },
    });
    const res = await router.chat(ask());
    expect(res.provider).toBe('anthropic');
    expect([sent('openai'), sent('anthropic')]).toEqual([3, 1]);
    expect(clock.sleeps).toEqual([100, 200]);
  });

  it('backs off on 503s that carry healthy rate-limit headers (their resets are no hint for a 5xx), then falls through', async () => {
    const clock = new VirtualClock();
    const { router, sent } = await setup({
      clock, random: () => 1, openai: { faults: [{ fault: 'unavailable' }] },
      config: { retry: { maxAttempts: 3, baseDelayMs: 100, maxDelayMs: 1_000 } },
    });
    const res = await router.chat(ask());
    expect(res.attempts.map((a) => [a.provider, a.kind ?? 'ok', a.status])).toEqual([
      ['openai', 'server', 503], ['openai', 'server', 503], ['openai', 'server', 503], ['anthropic', 'ok', undefined],
    ]);
    expect([sent('openai'), sent('anthropic')]).toEqual([3, 1]);
    expect(clock.sleeps).toEqual([100, 200]);
  });

  it.each([
    ['an Anthropic 529 overloaded_error', 'anthropic', 'overloaded', 'server', 529],
    ['an OpenAI 500', 'openai', 'server_error', 'server', 500],
    ['a reset connection', 'openai', 'reset', 'transport', undefined],
    ['a body cut short', 'openai', 'stream_cut', 'transport', undefined],
  ] as const)('retries %s on the same target and answers', async (_what, provider, fault, kind, status) => {
    const { router, sent } = await setup({ [provider]: { faults: [{ fault, nth: 1 }] }, config: provider === 'anthropic' ? { chains: { default: [`anthropic:${ANTHROPIC}`, `openai:${OPENAI}`] } } : {} });
    const res = await router.chat(ask());
    expect(res.provider).toBe(provider);
    expect(res.attempts[0]).toMatchObject({ ok: false, kind, status });
    expect(sent(provider)).toBe(2);
  });

  it('falls through on a refused connection after its attempts', async () => {
    const { router, sim, sent, clock } = await setup();
    const down = await startSimulator();
    await down.stop();
    const err = await rejectionOf(router.chat({ ...ask(), chain: 'nowhere' }));
    expect(err.kind).toBe('invalid_request');
    const refused = createRouter({
      providers: {
        openai: { type: 'openai', apiKey: 'sk-x', baseURL: down.baseURL('openai') },
        anthropic: { type: 'anthropic', apiKey: 'sk-y', baseURL: sim.baseURL('anthropic') },
      },
      chains: { default: [`openai:${OPENAI}`, `anthropic:${ANTHROPIC}`] },
      retry: { baseDelayMs: 1, maxDelayMs: 2 },
    }, { logger: captureLogger().logger, clock, random: () => 0 });
    cleanup.push(() => refused.close());
    const res = await refused.chat(ask());
    expect(res.provider).toBe('anthropic');
    expect(res.attempts.filter((a) => a.provider === 'openai').map((a) => a.kind)).toEqual(['transport', 'transport', 'transport']);
    expect(clock.sleeps).toEqual([0.5, 1]);
    expect(sent('anthropic')).toBe(1);
  });
});

// The attempt timeout is a minute of the router's clock, reached by advancing it; the SDK's own timer
// (set from the same timeoutMs, on the wall clock) and the simulator's real-time first-byte delay (ten
// minutes) stay out of reach, so nothing but the router's timer can end the attempt.
describe('attempt timeouts', () => {
  it.each([
    ['a hang', { fault: 'hang' as const, nth: 1 }],
    ['a slow first byte', { fault: 'slow_first_byte' as const, nth: 1, delayMs: 600_000 }],
  ])('does not retry %s past the attempt timeout and falls through', async (_what, fault) => {
    const { router, sent, clock } = await setup({ openai: { faults: [fault] } });
    const pending = router.chat(ask());
    await until(() => sent('openai') === 1, 'the request at the simulator');
    await clock.advance(59_999);
    expect(sent('anthropic')).toBe(0);
    await clock.advance(1);
    const res = await pending;
    expect(res.provider).toBe('anthropic');
    expect(res.attempts[0]).toMatchObject({ provider: 'openai', kind: 'timeout', latencyMs: 60_000 });
    expect([sent('openai'), sent('anthropic')]).toEqual([1, 1]);
  });

  it('retries a timed-out attempt when retry.retryTimeouts is set', async () => {
    const { router, sent, clock } = await setup({ openai: { faults: [{ fault: 'hang', nth: 1 }] }, config: { retry: { retryTimeouts: true, baseDelayMs: 1, maxDelayMs: 1 } } });
    const pending = router.chat(ask());
    await until(() => sent('openai') === 1, 'the first request at the simulator');
    await clock.advance(60_000);
    expect((await pending).provider).toBe('openai');
    expect(sent('openai')).toBe(2);
    expect(clock.sleeps).toEqual([0.5]);
  });
});

describe('circuit breaker', () => {
  it('opens during an outage, sends nothing while open, then exactly one probe, and closes once the provider recovers', async () => {
    const { router, sent, clock } = await setup({
      openai: { faults: [{ fault: 'unavailable', untilMs: 1_000 }] },
      config: { retry: { maxAttempts: 1 }, breaker: { volumeThreshold: 3, errorThresholdPercentage: 50, resetTimeoutMs: 400, windowMs: 10_000 } },
    });
    const transitions: string[] = [];
    router.on('breaker', (e) => transitions.push(`${e.key}:${e.state}`));
    for (let i = 0; i < 3; i++) await router.chat(ask());
    expect(router.breakerStates().openai).toBe('open');
    for (let i = 0; i < 5; i++) expect((await router.chat(ask())).attempts[0]).toMatchObject({ kind: 'circuit_open', skipped: true });
    expect([sent('openai'), sent('anthropic')]).toEqual([3, 8]);

    await clock.advance(399);
    expect(router.breakerStates().openai).toBe('open');
    await clock.advance(601); // the breaker went half-open at 400; the outage is over at 1,000
    expect(router.breakerStates().openai).toBe('halfOpen');
    const burst = await Promise.all(Array.from({ length: 5 }, () => router.chat(ask())));
    expect(sent('openai')).toBe(4);
    expect(burst.filter((r) => r.provider === 'openai')).toHaveLength(1);
    expect(transitions).toEqual(['openai:open', 'openai:halfOpen', 'openai:closed']);
  });
});

describe('an exhausted chain', () => {
  it('throws exhausted with retryAfterMs = the sooner of the two providers\' retry-after', async () => {
    const { router, sent } = await setup({
      openai: { faults: [{ fault: 'rate_limit', retryAfterMs: 20_000 }] },
      anthropic: { faults: [{ fault: 'rate_limit', retryAfterMs: 7_000 }] },
    });
    const err = await rejectionOf(router.chat(ask()));
    expect(err.kind).toBe('exhausted');
    expect(err.retryAfterMs).toBe(7_000);
    expect(err.attempts.map((a: any) => [a.provider, a.kind])).toEqual([['openai', 'rate_limited'], ['anthropic', 'rate_limited']]);
    const again = await rejectionOf(router.chat(ask()));
    expect(again.attempts.every((a: any) => a.skipped)).toBe(true);
    expect(again.retryAfterMs).toBe(7_000); // no time has passed on the shared clock
    expect([sent('openai'), sent('anthropic')]).toEqual([1, 1]);
  });
});

describe('router.stream against the simulator', () => {
  async function collect(router: Router, request = ask()) {
    const events: any[] = [];
    for await (const ev of router.stream(request)) events.push(ev);
    return events;
  }
  const text = (events: any[]) => events.filter((e) => e.type === 'text').map((e) => e.delta).join('');

  it('streams an answer to done, with the usage the simulator counted', async () => {
    const { router, sim } = await setup();
    const events = await collect(router);
    expect(events[0]).toMatchObject({ type: 'start', provider: 'openai', model: OPENAI });
    const done = events.at(-1);
    expect(done.type).toBe('done');
    expect(done.result.text).toBe(text(events));
    expect(done.result.usage).toEqual({ inputTokens: sim.stats().providers.openai!.tokens.input, outputTokens: sim.stats().providers.openai!.tokens.output });
  });

  it('falls through on a mid-stream error frame before the first token', async () => {
    const { router, sent } = await setup({ openai: { faults: [{ fault: 'stream_error', afterChunks: 0 }] }, config: { retry: { maxAttempts: 1 } } });
    const events = await collect(router);
    expect(events[0]).toMatchObject({ type: 'start', provider: 'anthropic', model: ANTHROPIC });
    expect(events.at(-1).type).toBe('done');
    expect([sent('openai'), sent('anthropic')]).toEqual([1, 1]);
  });

  it('ends a stream cut after two chunks as interrupted with exactly their text, and asks no other target', async () => {
    const { router, sent } = await setup({ anthropic: { faults: [{ fault: 'stream_cut', afterChunks: 2 }] }, config: { chains: { default: [`anthropic:${ANTHROPIC}`, `openai:${OPENAI}`] } } });
    const events = await collect(router);
    const last = events.at(-1);
    expect(last.type).toBe('interrupted');
    expect(last.text).toBe(text(events));
    expect(events.filter((e) => e.type === 'text')).toHaveLength(2);
    expect([sent('anthropic'), sent('openai')]).toEqual([1, 0]);
  });
});
