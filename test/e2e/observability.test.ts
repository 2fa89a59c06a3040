import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ANTHROPIC_PATH, OPENAI_PATH, openai429Headers, openaiBodies, openaiSuccessHeaders, openaiCompletion } from '../support/fixtures.js';
import { startUpstream, type Upstream } from '../support/upstream.js';
import { VirtualClock } from '../support/virtual-clock.js';
import { ANTHROPIC_KEY, OPENAI_KEY, ask, rejectionOf, wireRouter } from '../support/wire-router.js';

let up: Upstream;
beforeEach(async () => {
  up = await startUpstream();
});
afterEach(async () => {
  await up.close();
});

/** Drives one router through every kind of event: retry, fall-through, breaker, quota, an echoed key. */
async function eventfulRun(logPrompts: boolean) {
  const clock = new VirtualClock();
  const w = wireRouter(up, {
    retry: { maxAttempts: 2, baseDelayMs: 1, maxDelayMs: 2 },
    breaker: { volumeThreshold: 2, resetTimeoutMs: 60_000 },
    log: { level: 'trace', logPrompts },
    chains: { default: ['openai:gpt-4o-mini', 'anthropic:claude-sonnet-4-6'], 'anthropic-first': ['anthropic:claude-sonnet-4-6'] },
  }, { clock, random: () => 0, timeoutMs: 60_000 });
  const events: Array<[string, any]> = [];
  for (const name of ['attempt', 'retry', 'fallback', 'breaker', 'quota', 'ratelimit'] as const) {
    w.router.on(name, (e) => events.push([name, e]));
  }
  up.script(OPENAI_PATH,
    { status: 429, headers: { 'retry-after-ms': '5' }, body: openaiBodies.slowDown },
    { status: 200, headers: openaiSuccessHeaders, body: openaiCompletion() },
    { status: 503, body: openaiBodies.overloaded503 },
    { status: 503, body: openaiBodies.overloaded503 },
  );
  await w.router.chat(ask('SECRET-PROMPT-TEXT one'));         // 429 retried, then ok
  await w.router.chat(ask('SECRET-PROMPT-TEXT two'));         // 503 x2: breaker opens, falls through
  up.script(ANTHROPIC_PATH, { status: 401, body: { type: 'error', error: { type: 'authentication_error', message: `invalid x-api-key ${ANTHROPIC_KEY}` }, request_id: 'req_401' } });
  await rejectionOf(w.router.chat({ ...ask('SECRET-PROMPT-TEXT three'), chain: 'anthropic-first' }));
  up.script(ANTHROPIC_PATH, { status: 429, body: { type: 'error', error: { type: 'invalid_request_error', message: 'x' } } });
  up.script(ANTHROPIC_PATH, { status: 400, body: { type: 'error', error: { type: 'invalid_request_error', message: 'Your credit balance is too low to access the Anthropic API.' } } });
  await rejectionOf(w.router.chat({ ...ask('SECRET-PROMPT-TEXT four'), chain: 'anthropic-first' }));
  await w.router.close();
  return { ...w, events, clock };
}

describe('logging', () => {
  it('never writes an API key to any log line, even at trace level with an echoed key', async () => {
    const { log } = await eventfulRun(true);
    expect(log.lines.length).toBeGreaterThan(3);
    for (const line of log.lines) {
      expect(line).not.toContain(OPENAI_KEY);
      expect(line).not.toContain(ANTHROPIC_KEY);
      expect(line).not.toContain('TESTKEY');
    }
  });

  it('logs retries at debug, fall-throughs at info, breaker transitions at warn and quota at error', async () => {
    const { log } = await eventfulRun(false);
    const records = log.records();
    const levelOf = (re: RegExp) => records.filter((r) => re.test(r.msg)).map((r) => r.level);
    expect(levelOf(/retrying/)).toContain(20);
    expect(new Set(levelOf(/retrying/))).toEqual(new Set([20]));
    expect(new Set(levelOf(/falling through/))).toEqual(new Set([30]));
    expect(levelOf(/circuit open/)).toEqual([40]);
    expect(levelOf(/quota/)).toEqual([50]);
  });

  it('keeps prompts out of the logs unless log.logPrompts is set', async () => {
    const quiet = await eventfulRun(false);
    expect(quiet.log.lines.some((l) => l.includes('SECRET-PROMPT-TEXT'))).toBe(false);
    up.reset();
    const loud = await eventfulRun(true);
    expect(loud.log.lines.some((l) => l.includes('SECRET-PROMPT-TEXT'))).toBe(true);
  });
});

describe('router.on', () => {
  it('reports attempts, retries, fall-throughs, breaker transitions, quota and rate-limit headroom', async () => {
    const { events, clock } = await eventfulRun(false);
    // On the router's clock: the 429's 5 ms hint; then half the 1 ms backoff (jitter 0) between the two
    // 503s, and again after Anthropic's hintless 429.
    expect(clock.sleeps).toEqual([5, 0.5, 0.5]);
    expect(clock.pendingTimers).toBe(0);
    const names = events.map(([n]) => n);
    for (const name of ['attempt', 'retry', 'fallback', 'breaker', 'quota', 'ratelimit']) expect(names).toContain(name);
    expect(events.find(([n]) => n === 'retry')![1]).toMatchObject({ chain: 'default', provider: 'openai', kind: 'rate_limited', hintMs: 5 });
    expect(events.find(([n]) => n === 'fallback')![1]).toMatchObject({ provider: 'openai', kind: 'server', to: { provider: 'anthropic', model: 'claude-sonnet-4-6' } });
    // Opened by the second call's failures: the event names that call.
    const second = events.find(([n, e]) => n === 'retry' && e.kind === 'server')![1];
    expect(events.find(([n]) => n === 'breaker')![1]).toEqual({ key: 'openai', state: 'open', callId: second.callId, tenant: 'default', chain: 'default', operation: 'chat', openedBy: { default: 2 } });
    expect(events.find(([n]) => n === 'ratelimit')![1]).toMatchObject({
      provider: 'openai', requests: { limit: 60, remaining: 59, resetMs: 1000 }, tokens: { limit: 150000, remaining: 149984 },
    });
    expect(events.filter(([n]) => n === 'quota')).toHaveLength(1);
  });

  it('keeps a call alive when a listener throws', async () => {
    const { router } = wireRouter(up, {}, { clock: new VirtualClock(), timeoutMs: 60_000 });
    router.on('attempt', () => {
      throw new Error('listener bug');
    });
    expect((await router.chat(ask())).provider).toBe('openai');
    await router.close();
  });

  it('stops calling a listener after its unsubscribe', async () => {
    const { router } = wireRouter(up, {}, { clock: new VirtualClock(), timeoutMs: 60_000 });
    let n = 0;
    const off = router.on('attempt', () => n++);
    await router.chat(ask());
    off();
    await router.chat(ask());
    expect(n).toBe(1);
    await router.close();
  });

  it('reports the 429 headroom too, so it can be charted before it hits zero', async () => {
    const { router } = wireRouter(up, { retry: { maxInlineWaitMs: 0 } }, { clock: new VirtualClock(), timeoutMs: 60_000 });
    const snaps: any[] = [];
    router.on('ratelimit', (e) => snaps.push(e));
    up.script(OPENAI_PATH, { status: 429, headers: openai429Headers, body: openaiBodies.rateLimitRequests });
    await router.chat(ask());
    expect(snaps[0]).toMatchObject({ provider: 'openai', requests: { limit: 3, remaining: 0, resetMs: 20_000 } });
    await router.close();
  });
});

describe('router.close', () => {
  it('shuts every breaker down and refuses later calls with a clear error', async () => {
    const clock = new VirtualClock();
    const { router } = wireRouter(up, {}, { clock, timeoutMs: 60_000 });
    await router.chat(ask());
    await router.close();
    expect(clock.pendingTimers).toBe(0); // no breaker, window or sweep timer outlives the router
    expect(router.breakerStates()).toEqual({});
    const err = await rejectionOf(router.chat(ask()));
    expect(err.kind).toBe('invalid_request');
    expect(err.message).toMatch(/closed/);
  });
});
