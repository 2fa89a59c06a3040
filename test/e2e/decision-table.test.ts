import { describe, expect, it } from 'vitest';
import { isRouterError } from '../../src/errors.js';
import {
  ANTHROPIC_PATH, OPENAI_PATH, anthropic429Headers, anthropicBodies, compatibleInsufficientCredits, openai429Headers, openaiBodies, openaiOk,
} from '../support/fixtures.js';
import { until } from '../support/until.js';
import type { Upstream } from '../support/upstream.js';
import { upstreamPerTest } from '../support/upstream-per-test.js';
import { VirtualClock } from '../support/virtual-clock.js';
import { ask, rejectionOf, wireRouter } from '../support/wire-router.js';

let up: Upstream;
const close = upstreamPerTest((u) => (up = u));
/**
 * A wired router on a virtual clock (a new one unless given): every wait and timeout in virtual time.
 * Attempt timeouts are a minute, so the SDKs' own wall-clock timers (the same value) never fire.
 */
const setup = (overrides: Parameters<typeof wireRouter>[1] = {}, options: Parameters<typeof wireRouter>[2] = {}) => {
  const clock = options.clock ?? new VirtualClock();
  const w = wireRouter(up, overrides, { timeoutMs: 60_000, ...options, clock });
  close.push(() => w.router.close());
  return { ...w, clock: clock as VirtualClock };
};

describe('429 rate limits', () => {
  it('retries a 429 on the same target after the x-ratelimit-reset-requests it names (300ms)', async () => {
    const { router, openai, anthropic, clock } = setup({}, { random: () => 0 });
    up.script(OPENAI_PATH, { status: 429, headers: { 'x-ratelimit-remaining-requests': '0', 'x-ratelimit-reset-requests': '300ms', 'x-request-id': 'req_429' }, body: openaiBodies.rateLimitRequests });
    const res = await router.chat(ask());
    expect(res.provider).toBe('openai');
    expect(openai()).toBe(2);
    expect(anthropic()).toBe(0);
    expect(clock.sleeps).toEqual([300]);
    expect(res.attempts).toMatchObject([
      { provider: 'openai', ok: false, kind: 'rate_limited', status: 429, requestId: 'req_429' },
      { provider: 'openai', ok: true, waitedMs: 300 },
    ]);
  });

  it('waits exactly the retry-after it is given (20 s, inline wait raised), measured on a virtual clock', async () => {
    const clock = new VirtualClock();
    const { router, openai } = setup({ retry: { maxInlineWaitMs: 30_000 } }, { clock, random: () => 0 });
    up.script(OPENAI_PATH, { status: 429, headers: openai429Headers, body: openaiBodies.rateLimitRequests });
    await router.chat(ask());
    expect(openai()).toBe(2);
    expect(clock.sleeps).toEqual([20_000]);
  });

  it('sleeps until a compatible server\'s Unix x-ratelimit-reset, not for that many seconds', async () => {
    const clock = new VirtualClock();
    const { router } = setup({
      providers: { local: { type: 'openai-compatible', baseURL: `${up.url}/v1` } },
      chains: { default: ['local:llama3:8b'] },
    }, { clock, random: () => 0 });
    up.script(OPENAI_PATH, { status: 429, headers: { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String(clock.now() / 1000 + 3) }, body: { error: { message: 'slow', type: null, code: null } } });
    const res = await router.chat(ask());
    expect(res.model).toBe('llama3:8b');
    expect(up.requests[0]!.body.model).toBe('llama3:8b');
    expect(clock.sleeps).toEqual([3000]);
  });

  it('falls through at once when the hint is longer than maxInlineWaitMs, and later calls skip the cooling target without a request', async () => {
    const { router, openai, anthropic } = setup();
    up.script(OPENAI_PATH, { status: 429, headers: openai429Headers, body: openaiBodies.rateLimitRequests });
    const first = await router.chat(ask());
    expect(first.provider).toBe('anthropic');
    expect([openai(), anthropic()]).toEqual([1, 1]);

    const second = await router.chat(ask());
    expect(second.provider).toBe('anthropic');
    expect([openai(), anthropic()]).toEqual([1, 2]);
    expect(second.attempts[0]).toMatchObject({ provider: 'openai', skipped: true, kind: 'rate_limited', ok: false });
  });

  it('falls through when a 429 outlasts its attempts, cooling the target for the hint', async () => {
    const clock = new VirtualClock();
    const { router, openai, anthropic } = setup({ retry: { maxAttempts: 2 } }, { clock });
    const r429 = { status: 429, headers: { 'retry-after-ms': '100' }, body: openaiBodies.rateLimitRequests };
    up.script(OPENAI_PATH, r429, r429);
    const res = await router.chat(ask());
    expect(res.provider).toBe('anthropic');
    expect([openai(), anthropic()]).toEqual([2, 1]);
    await router.chat(ask());
    expect(openai()).toBe(2); // still cooling
    await clock.advance(200);
    await router.chat(ask());
    expect(openai()).toBe(3); // cooled down: tried again
  });

  it('never opens the breaker on a 429 storm', async () => {
    const { router, openai } = setup({ retry: { maxAttempts: 1, cooldownMs: 0 }, breaker: { volumeThreshold: 2, errorThresholdPercentage: 10 } });
    // slow_down carries no wait hint at all, so with cooldownMs 0 every call tries openai again.
    up.otherwise(OPENAI_PATH, () => ({ status: 429, body: openaiBodies.slowDown }));
    for (let i = 0; i < 20; i++) expect((await router.chat(ask())).provider).toBe('anthropic');
    expect(openai()).toBe(20);
    expect(router.breakerStates().openai).toBe('closed');
  });

  it('sends a request too large for the TPM to the next target without retrying or cooling', async () => {
    const { router, openai, anthropic } = setup();
    up.script(OPENAI_PATH, { status: 429, body: openaiBodies.requestTooLarge });
    expect((await router.chat(ask())).provider).toBe('anthropic');
    expect((await router.chat(ask())).provider).toBe('openai');
    expect([openai(), anthropic()]).toEqual([2, 1]);
  });
});

describe('quota and billing', () => {
  it('costs one request, falls through, and the next call sends none to that provider (any model)', async () => {
    const { router, openai, anthropic, log } = setup();
    const quota: unknown[] = [];
    router.on('quota', (e) => quota.push(e));
    up.script(OPENAI_PATH, { status: 429, headers: { 'x-request-id': 'req_quota' }, body: openaiBodies.insufficientQuota });
    const first = await router.chat({ ...ask(), chain: 'two-openai-models' });
    expect(first.provider).toBe('anthropic');
    expect([openai(), anthropic()]).toEqual([1, 1]);
    expect(first.attempts.map((a) => [a.model, a.kind ?? 'ok', a.skipped ?? false])).toEqual([
      ['gpt-4o-mini', 'quota_exhausted', false], ['gpt-4o', 'quota_exhausted', true], ['claude-sonnet-4-6', 'ok', false],
    ]);
    await router.chat(ask());
    expect(openai()).toBe(1);
    expect(quota).toMatchObject([{ provider: 'openai', code: 'insufficient_quota', status: 429, requestId: 'req_quota' }]);
    expect(log.records().filter((r) => r.level === 50 && /quota/.test(r.msg))).toHaveLength(1);
  });

  it.each([
    ['OpenAI insufficient_quota with the old null code', OPENAI_PATH, 429, openaiBodies.insufficientQuotaOld, 'default'],
    ['an OpenAI-compatible 429 insufficient_credits', OPENAI_PATH, 429, compatibleInsufficientCredits, 'default'],
    ['Anthropic 400 "credit balance is too low"', ANTHROPIC_PATH, 400, anthropicBodies.creditTooLow, 'anthropic-first'],
    ['Anthropic 402 billing_error', ANTHROPIC_PATH, 402, anthropicBodies.billing402, 'anthropic-first'],
    ['Anthropic 429 enforced_spend_limit_reached', ANTHROPIC_PATH, 429, anthropicBodies.enforcedSpendLimit, 'anthropic-first'],
  ])('never retries %s: one request, then parked', async (_what, path, status, body, chain) => {
    const { router } = setup({
      chains: { default: ['openai:gpt-4o-mini', 'anthropic:claude-sonnet-4-6'], 'anthropic-first': ['anthropic:claude-sonnet-4-6', 'openai:gpt-4o-mini'] },
    });
    up.script(path, { status, body });
    const res = await router.chat({ ...ask(), chain });
    expect(res.attempts[0]).toMatchObject({ kind: 'quota_exhausted', status });
    await router.chat({ ...ask(), chain });
    expect(up.count(path)).toBe(1);
  });
});

describe('caller errors fail at once', () => {
  it.each([
    ['a 400 context-length error', OPENAI_PATH, 400, openaiBodies.contextLength, 'context_length'],
    ['a 401', OPENAI_PATH, 401, openaiBodies.invalidApiKey, 'auth'],
    ['a 403', ANTHROPIC_PATH, 403, anthropicBodies.permission, 'auth'],
    ['a 404', OPENAI_PATH, 404, openaiBodies.modelNotFound, 'not_found'],
    ['a 400', ANTHROPIC_PATH, 400, anthropicBodies.invalidRequest, 'bad_request'],
    ['a 413', ANTHROPIC_PATH, 413, anthropicBodies.tooLarge, 'bad_request'],
    ['a 422', OPENAI_PATH, 422, { error: { message: 'bad', type: 'invalid_request_error', param: null, code: null } }, 'bad_request'],
    ['a 400 content-policy rejection', OPENAI_PATH, 400, { error: { message: 'rejected', type: 'invalid_request_error', param: null, code: 'content_policy_violation' } }, 'content_filter'],
  ])('%s costs exactly one request and tries no other target', async (_what, path, status, body, kind) => {
    const { router } = setup({ chains: { default: path === OPENAI_PATH ? ['openai:gpt-4o-mini', 'anthropic:claude-sonnet-4-6'] : ['anthropic:claude-sonnet-4-6', 'openai:gpt-4o-mini'] } });
    up.script(path, { status, body });
    const err = await rejectionOf(router.chat(ask()));
    expect(isRouterError(err)).toBe(true);
    expect(err).toMatchObject({ kind, status });
    expect(up.count()).toBe(1);
    expect(err.attempts).toHaveLength(1);
    expect(router.breakerStates()[path === OPENAI_PATH ? 'openai' : 'anthropic']).toBe('closed');
  });
});

describe('server and transport failures', () => {
  it('retries 5xx with capped exponential backoff until attempts run out, then falls through', async () => {
    const clock = new VirtualClock();
    const { router, openai, anthropic } = setup({ retry: { maxAttempts: 3, baseDelayMs: 100, maxDelayMs: 1000 } }, { clock, random: () => 1 });
    const r503 = { status: 503, body: openaiBodies.overloaded503 };
    up.script(OPENAI_PATH, r503, r503, r503);
    const res = await router.chat(ask());
    expect(res.provider).toBe('anthropic');
    expect([openai(), anthropic()]).toEqual([3, 1]);
    expect(clock.sleeps).toEqual([100, 200]);
  });

  it('retries an Anthropic 529 on the same target and answers', async () => {
    const { router, anthropic, openai } = setup({ chains: { default: ['anthropic:claude-sonnet-4-6', 'openai:gpt-4o-mini'] } });
    up.script(ANTHROPIC_PATH, { status: 529, body: anthropicBodies.overloaded });
    const res = await router.chat(ask());
    expect(res.provider).toBe('anthropic');
    expect([anthropic(), openai()]).toEqual([2, 0]);
  });

  it.each([408, 409, 500, 502, 504])('retries a %d on the same target', async (status) => {
    const { router, openai } = setup();
    up.script(OPENAI_PATH, { status, body: openaiBodies.serverError });
    expect((await router.chat(ask())).provider).toBe('openai');
    expect(openai()).toBe(2);
  });

  it('retries a reset connection, then answers', async () => {
    const { router, openai, anthropic } = setup();
    up.script(OPENAI_PATH, { reset: true });
    const res = await router.chat(ask());
    expect(res.provider).toBe('openai');
    expect(res.attempts[0]).toMatchObject({ kind: 'transport', ok: false });
    expect([openai(), anthropic()]).toEqual([2, 0]);
  });

  it('retries a malformed 200 body as a transport failure', async () => {
    const { router, openai } = setup();
    up.script(OPENAI_PATH, { status: 200, body: '{"choices": [' });
    expect((await router.chat(ask())).provider).toBe('openai');
    expect(openai()).toBe(2);
  });

  it('falls through on a refused connection after its attempts', async () => {
    const { router, anthropic } = setup({
      providers: {
        openai: { type: 'openai', apiKey: 'sk-x', baseURL: 'http://127.0.0.1:1/v1' },
        anthropic: { type: 'anthropic', apiKey: 'sk-y', baseURL: up.url },
      },
      chains: { default: ['openai:gpt-4o-mini', 'anthropic:claude-sonnet-4-6'] },
    });
    const res = await router.chat(ask());
    expect(res.provider).toBe('anthropic');
    expect(res.attempts.filter((a) => a.provider === 'openai').map((a) => a.kind)).toEqual(['transport', 'transport', 'transport']);
    expect(anthropic()).toBe(1);
  });
});

describe('attempt timeouts', () => {
  // The attempt timeouts here are a minute: they fire when the test moves the router's clock, while
  // the SDKs' own timers (set from the same timeoutMs, on the wall clock) stay far out of reach.
  const slowOpenAI = (timeoutMs: number) => ({
    openai: { type: 'openai' as const, apiKey: 'sk-x', baseURL: `${up.url}/v1`, timeoutMs },
    anthropic: { type: 'anthropic' as const, apiKey: 'sk-y', baseURL: up.url },
  });

  it('does not retry a timed-out attempt (it may be billed) and falls through', async () => {
    const { router, openai, anthropic, clock } = setup({ providers: slowOpenAI(60_000) });
    up.script(OPENAI_PATH, { hang: true });
    const pending = router.chat(ask());
    await until(() => openai() === 1, 'the request upstream');
    await clock.advance(59_999);
    expect(anthropic()).toBe(0);
    await clock.advance(1);
    const res = await pending;
    expect(res.provider).toBe('anthropic');
    expect(res.attempts[0]).toMatchObject({ provider: 'openai', kind: 'timeout', latencyMs: 60_000 });
    expect([openai(), anthropic()]).toEqual([1, 1]);
    expect(clock.sleeps).toEqual([]);
  });

  // On a clock that is not the wall clock every attempt runs under the router's own timer; on the
  // wall clock a plain call hands its timeout to the SDK, and a body that stalls after its headers is
  // caught by the stall guard (timeout + 1 s grace, swept every 250 ms). Both, on virtual time.
  it.each([
    ['the router\'s attempt timer', false, 60_000],
    ['the stall guard of the wall-clock path', true, 61_000],
  ])('times out a response whose headers arrive but whose body never finishes, by %s', async (_what, wallClock, afterMs) => {
    const virtual = new VirtualClock();
    const clock = wallClock
      ? { isWallClock: true, now: () => virtual.now(), sleep: virtual.sleep.bind(virtual), setTimer: virtual.setTimer.bind(virtual) }
      : virtual;
    const { router, openai, anthropic } = setup({ providers: slowOpenAI(60_000) }, { clock: clock as VirtualClock });
    up.script(OPENAI_PATH, { sse: ['{"id": "chatcmpl-1", "choices": ['], end: false, headers: { 'content-type': 'application/json' } });
    const pending = router.chat(ask());
    await until(() => openai() === 1, 'the request upstream');
    await virtual.advance(afterMs - 1);
    expect(anthropic()).toBe(0);
    await virtual.advance(1);
    const res = await pending;
    expect(res.provider).toBe('anthropic');
    expect(res.attempts[0]).toMatchObject({ provider: 'openai', kind: 'timeout', latencyMs: afterMs });
    expect([openai(), anthropic()]).toEqual([1, 1]);
  });

  it('retries a timed-out attempt when retry.retryTimeouts is set', async () => {
    const { router, openai, clock } = setup({ providers: slowOpenAI(60_000), retry: { retryTimeouts: true, baseDelayMs: 1, maxDelayMs: 1 } }, { random: () => 0 });
    up.script(OPENAI_PATH, { hang: true });
    const pending = router.chat(ask());
    await until(() => openai() === 1, 'the first request upstream');
    await clock.advance(60_000);
    expect((await pending).provider).toBe('openai');
    expect(openai()).toBe(2);
    expect(clock.sleeps).toEqual([0.5]); // base 1 ms with equal jitter, random 0
  });
});

describe('circuit breaker', () => {
  const breakerConfig = { retry: { maxAttempts: 1 }, breaker: { volumeThreshold: 3, errorThresholdPercentage: 50, resetTimeoutMs: 400, windowMs: 10_000 } };

  it('opens on a 503 storm; later calls send nothing to that provider until the reset, then exactly one probe', async () => {
    const { router, openai, anthropic, clock } = setup(breakerConfig);
    const transitions: string[] = [];
    router.on('breaker', (e) => transitions.push(`${e.key}:${e.state}`));
    up.otherwise(OPENAI_PATH, () => ({ status: 503, body: openaiBodies.overloaded503 }));
    for (let i = 0; i < 3; i++) await router.chat(ask());
    expect(openai()).toBe(3);
    expect(router.breakerStates().openai).toBe('open');

    for (let i = 0; i < 5; i++) {
      const res = await router.chat(ask());
      expect(res.attempts[0]).toMatchObject({ provider: 'openai', kind: 'circuit_open', skipped: true });
    }
    expect(openai()).toBe(3);
    expect(anthropic()).toBe(8);

    await clock.advance(399);
    expect(router.breakerStates().openai).toBe('open');
    await clock.advance(1); // resetTimeoutMs after it opened
    expect(router.breakerStates().openai).toBe('halfOpen');
    up.otherwise(OPENAI_PATH, () => openaiOk());
    const burst = await Promise.all(Array.from({ length: 5 }, () => router.chat(ask())));
    expect(openai()).toBe(4); // exactly one probe went out
    expect(burst.filter((r) => r.provider === 'openai')).toHaveLength(1);
    expect(router.breakerStates().openai).toBe('closed');
    expect(transitions).toEqual(['openai:open', 'openai:halfOpen', 'openai:closed']);
    await router.chat(ask());
    expect(openai()).toBe(5);
  });

  it('a half-open probe answered with a 429 does not close the breaker; the next call probes again', async () => {
    const { router, openai, clock } = setup({ ...breakerConfig, retry: { maxAttempts: 1, cooldownMs: 0 } });
    up.otherwise(OPENAI_PATH, () => ({ status: 503, body: openaiBodies.overloaded503 }));
    for (let i = 0; i < 3; i++) await router.chat(ask());
    await clock.advance(400);
    up.script(OPENAI_PATH, { status: 429, body: openaiBodies.slowDown });
    await router.chat(ask());
    expect(openai()).toBe(4);
    expect(router.breakerStates().openai).toBe('halfOpen');
    up.otherwise(OPENAI_PATH, () => openaiOk());
    expect((await router.chat(ask())).provider).toBe('openai');
    expect(router.breakerStates().openai).toBe('closed');
  });

  it('a half-open probe that fails reopens the breaker', async () => {
    const { router, openai, clock } = setup(breakerConfig);
    up.otherwise(OPENAI_PATH, () => ({ status: 500, body: openaiBodies.serverError }));
    for (let i = 0; i < 3; i++) await router.chat(ask());
    await clock.advance(400);
    await router.chat(ask());
    expect(openai()).toBe(4);
    expect(router.breakerStates().openai).toBe('open');
    await router.chat(ask());
    expect(openai()).toBe(4);
  });

  it('opens after consecutiveFailures in a row even when the window is full of earlier successes', async () => {
    const { router, openai } = setup({ retry: { maxAttempts: 1 }, breaker: { volumeThreshold: 5, consecutiveFailures: 3, windowMs: 60_000 } });
    for (let i = 0; i < 20; i++) await router.chat(ask());
    up.otherwise(OPENAI_PATH, () => ({ status: 503, body: openaiBodies.overloaded503 }));
    for (let i = 0; i < 3; i++) await router.chat(ask()); // 3 of 23 failed: 13%, far under 50%
    expect(router.breakerStates().openai).toBe('open');
    await router.chat(ask());
    expect(openai()).toBe(23);
  });

  it('tries a lone target past its open breaker as a last resort, leaving the breaker to its own probe', async () => {
    const { router, openai } = setup({
      retry: { maxAttempts: 1 }, breaker: { volumeThreshold: 2, resetTimeoutMs: 60_000 },
      chains: { default: ['openai:gpt-4o-mini'] },
    }, { random: () => 0.9 });
    up.script(OPENAI_PATH, { status: 503, body: openaiBodies.overloaded503 }, { status: 503, body: openaiBodies.overloaded503 });
    await rejectionOf(router.chat(ask()));
    await rejectionOf(router.chat(ask()));
    expect(router.breakerStates().openai).toBe('open');
    // Two failures in the throttle's window: it refuses with p = 2/3; random 0.5 is refused, 0.9 allowed.
    const res = await router.chat(ask());
    expect(res.attempts.map((a) => [a.kind ?? 'ok', a.skipped ?? false])).toEqual([['circuit_open', true], ['ok', false]]);
    expect(openai()).toBe(3);
    expect(router.breakerStates().openai).toBe('open');
  });

  it('refuses the last resort when adaptive throttling says the target fails nearly everything', async () => {
    const { router, openai } = setup({
      retry: { maxAttempts: 1 }, breaker: { volumeThreshold: 2, resetTimeoutMs: 60_000 },
      chains: { default: ['openai:gpt-4o-mini'] },
    }, { random: () => 0.5 });
    up.otherwise(OPENAI_PATH, () => ({ status: 503, body: openaiBodies.overloaded503 }));
    for (let i = 0; i < 4; i++) await rejectionOf(router.chat(ask()));
    const sent = openai();
    const err = await rejectionOf(router.chat(ask()));
    expect(err.kind).toBe('exhausted');
    expect(err.attempts).toMatchObject([{ kind: 'circuit_open', skipped: true }]);
    expect(openai()).toBe(sent);
  });

  it('never uses the last resort while another target can answer', async () => {
    const { router, openai, anthropic } = setup({ retry: { maxAttempts: 1 }, breaker: { volumeThreshold: 2, resetTimeoutMs: 60_000 } });
    up.otherwise(OPENAI_PATH, () => ({ status: 503, body: openaiBodies.overloaded503 }));
    await router.chat(ask());
    await router.chat(ask());
    for (let i = 0; i < 5; i++) expect((await router.chat(ask())).provider).toBe('anthropic');
    expect([openai(), anthropic()]).toEqual([2, 7]);
  });

  it('keeps a breaker per target with scope "target"', async () => {
    const { router, openai } = setup({ ...breakerConfig, breaker: { ...breakerConfig.breaker, scope: 'target' } });
    up.otherwise(OPENAI_PATH, (req) => (req.body.model === 'gpt-4o-mini' ? { status: 503, body: openaiBodies.overloaded503 } : openaiOk()));
    for (let i = 0; i < 3; i++) await router.chat({ ...ask(), chain: 'two-openai-models' });
    expect(router.breakerStates()).toMatchObject({ 'openai:gpt-4o-mini': 'open', 'openai:gpt-4o': 'closed' });
    const res = await router.chat({ ...ask(), chain: 'two-openai-models' });
    expect(res.model).toBe('gpt-4o');
    expect(openai()).toBe(7);
  });
});

describe('cancellation and deadlines', () => {
  it('a caller abort during a retry wait ends the call at once, with no further request', async () => {
    // No auto-advance: the 3 s wait stays pending until the caller aborts it.
    const { router, openai, clock } = setup({}, { clock: new VirtualClock({ autoAdvance: false }), random: () => 0 });
    const idleTimers = clock.pendingTimers;
    up.script(OPENAI_PATH, { status: 429, headers: { 'retry-after': '3' }, body: openaiBodies.rateLimitRequests });
    const controller = new AbortController();
    const pending = rejectionOf(router.chat({ ...ask(), signal: controller.signal }));
    await until(() => clock.sleeps.length === 1, 'the retry wait');
    expect(clock.sleeps).toEqual([3000]);
    const abortedAt = clock.now();
    controller.abort();
    const err = await pending;
    expect(err.kind).toBe('aborted');
    expect(clock.now()).toBe(abortedAt); // not a moment of the wait was spent
    expect(clock.pendingTimers).toBe(idleTimers); // the wait's timer is gone
    expect(openai()).toBe(1);
    expect(up.count()).toBe(1);
    expect(err.attempts).toHaveLength(1);
  });

  it('a caller abort cancels the in-flight request at once', async () => {
    const { router, clock } = setup();
    const idleTimers = clock.pendingTimers;
    up.script(OPENAI_PATH, { hang: true });
    const controller = new AbortController();
    const pending = rejectionOf(router.chat({ ...ask(), signal: controller.signal }));
    await until(() => up.count() === 1, 'the request upstream');
    const abortedAt = clock.now();
    controller.abort();
    const err = await pending;
    expect(err.kind).toBe('aborted');
    expect(clock.now()).toBe(abortedAt);
    expect(clock.pendingTimers).toBe(idleTimers); // the attempt's timer is gone
    await until(() => up.abandoned === 1, 'the upstream connection to close');
    expect(up.count()).toBe(1);
    expect(router.breakerStates().openai).toBe('closed');
  });

  it('an already-aborted signal sends nothing', async () => {
    const { router } = setup();
    const err = await rejectionOf(router.chat({ ...ask(), signal: AbortSignal.abort() }));
    expect(err.kind).toBe('aborted');
    expect(up.count()).toBe(0);
  });

  it('timeoutMs bounds the whole call, waits included, and a wait longer than what is left falls through', async () => {
    const { router, openai, anthropic, clock } = setup();
    up.script(OPENAI_PATH, { status: 429, headers: { 'retry-after': '1' }, body: openaiBodies.rateLimitRequests });
    up.script(ANTHROPIC_PATH, { hang: true });
    const startedAt = clock.now();
    let endedAt: number | undefined;
    const pending = rejectionOf(router.chat({ ...ask(), timeoutMs: 300 })).finally(() => (endedAt = clock.now() - startedAt));
    await until(() => anthropic() === 1, 'the fall-through to anthropic');
    expect(clock.sleeps).toEqual([]); // the 1 s retry-after did not fit in the 300 ms left: no wait
    await clock.advance(299);
    expect(endedAt).toBeUndefined();
    await clock.advance(1);
    const err = await pending;
    expect(err.kind).toBe('timeout');
    expect(endedAt).toBe(300);
    expect([openai(), anthropic()]).toEqual([1, 1]);
  });
});

describe('an exhausted chain', () => {
  it('throws exhausted with retryAfterMs = the soonest known reset', async () => {
    const { router } = setup();
    up.script(OPENAI_PATH, { status: 429, headers: openai429Headers, body: openaiBodies.rateLimitRequests });
    up.script(ANTHROPIC_PATH, { status: 429, headers: { ...anthropic429Headers, 'retry-after': '7' }, body: anthropicBodies.rateLimit });
    const err = await rejectionOf(router.chat(ask()));
    expect(err.kind).toBe('exhausted');
    expect(err.retryAfterMs).toBe(7000);
    expect(err.attempts.map((a: any) => [a.provider, a.kind])).toEqual([['openai', 'rate_limited'], ['anthropic', 'rate_limited']]);
    expect(up.count()).toBe(2);

    const again = await rejectionOf(router.chat(ask()));
    expect(again.kind).toBe('exhausted');
    expect(again.attempts.every((a: any) => a.skipped)).toBe(true);
    expect(again.retryAfterMs).toBe(7000); // no time has passed on the router's clock
    expect(up.count()).toBe(2);
  });

  it('reports the breaker\'s reset as the soonest moment when a circuit is open', async () => {
    const { router } = setup({ retry: { maxAttempts: 1 }, breaker: { volumeThreshold: 1, resetTimeoutMs: 5000, lastResort: false }, chains: { default: ['openai:gpt-4o-mini'] } });
    up.script(OPENAI_PATH, { status: 500, body: openaiBodies.serverError });
    expect((await rejectionOf(router.chat(ask()))).retryAfterMs).toBeUndefined();
    const err = await rejectionOf(router.chat(ask()));
    expect(err.kind).toBe('exhausted');
    expect(err.retryAfterMs).toBe(5000);
  });
});

describe('invalid input', () => {
  it.each([
    ['no messages', { messages: [] }, /messages: at least one message/],
    ['an unknown role', { messages: [{ role: 'robot', content: 'x' }] }, /messages\[0\]\.role/],
    ['an unknown chain', { chain: 'nope', messages: [{ role: 'user', content: 'x' }] }, /unknown chain "nope"/],
    ['a non-string content', { messages: [{ role: 'user', content: 42 }] }, /messages\[0\]\.content/],
    ['a misspelt option', { messages: [{ role: 'user', content: 'x' }], max_tokens: 5 }, /max_tokens/],
    ['a negative maxTokens', { messages: [{ role: 'user', content: 'x' }], maxTokens: -1 }, /maxTokens/],
  ])('throws invalid_request naming %s, before any request', async (_what, request, message) => {
    const { router } = setup();
    const err = await rejectionOf(router.chat(request as any));
    expect(err.kind).toBe('invalid_request');
    expect(err.message).toMatch(message);
    expect(up.count()).toBe(0);
  });
});

describe('wait hints on server errors', () => {
  it('backs off on a 503 that carries healthy rate-limit headers: their resets are no wait hint for a 5xx', async () => {
    const clock = new VirtualClock();
    const { router, openai } = setup({ retry: { maxAttempts: 3, baseDelayMs: 200, maxDelayMs: 2000 } }, { clock, random: () => 0 });
    const healthy = { 'x-ratelimit-remaining-requests': '59', 'x-ratelimit-reset-requests': '0s', 'x-ratelimit-remaining-tokens': '149000', 'x-ratelimit-reset-tokens': '0s' };
    up.script(OPENAI_PATH, { status: 503, headers: healthy, body: openaiBodies.overloaded503 }, { status: 503, headers: healthy, body: openaiBodies.overloaded503 });
    await router.chat(ask());
    expect(openai()).toBe(3);
    expect(clock.sleeps).toEqual([100, 200]);
  });

  it('still honours a retry-after on a 503', async () => {
    const clock = new VirtualClock();
    const { router } = setup({}, { clock, random: () => 0 });
    up.script(OPENAI_PATH, { status: 503, headers: { 'retry-after': '2' }, body: openaiBodies.overloaded503 });
    await router.chat(ask());
    expect(clock.sleeps).toEqual([2000]);
  });
});
