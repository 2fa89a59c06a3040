import { getEventListeners } from 'node:events';
import { inspect } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_KINDS, isRouterError, RouterError } from '../../src/errors.js';
import { createRouter, type Router } from '../../src/router.js';
import { mulberry32, startSimulator, type Simulator } from '../../src/sim/index.js';
import { fakeRequests, VirtualClock } from '../../src/testing/index.js';
import type { ChatRequest } from '../../src/types.js';
import { captureLogger, KEY_SHAPED } from '../support/capture-logger.js';
import { until } from '../support/until.js';

/**
 * A seeded, bounded chaos run: a few thousand mixed calls (chat, stream, idempotent, aborted,
 * deadlined, with tools and JSON) through the real SDKs against a fault mix: 500s, 503s, overloaded,
 * 429s with a good or a garbage retry-after, insufficient_quota, 401s, resets, hangs, cut streams,
 * mid-stream error frames and broken JSON; the 500s, 401s and error frames echo the API key in full.
 * It checks invariants, never timings: every call settles with a result or a typed RouterError,
 * nothing is left behind after close() (no timer, no request, no socket, no listener on a caller's
 * signal), no API key (in full or key-shaped) appears in any printed error, cause or interrupted
 * stream's error (the setup file checks every log line), and no idempotency key is answered twice.
 */
const SEED = 20261201;
const CALLS = 3_000;
const WAVE = 50;
const OPENAI_KEY = 'sk-proj-CHAOSkeyOPENAI0123456789abcdefXYZ';
const ANTHROPIC_KEY = 'sk-ant-api03-CHAOSkeyANTHROPIC0123456789abcdef';
const KINDS = new Set<string>(ERROR_KINDS);

const faults = [
  { fault: 'server_error', probability: 0.05, echoKey: true },
  { fault: 'unavailable', probability: 0.05 },
  { fault: 'overloaded', probability: 0.04 },
  { fault: 'rate_limit', probability: 0.05, retryAfterMs: 150 },
  { fault: 'rate_limit', probability: 0.01, retryAfterMs: 150, retryAfterRaw: 'soon' },
  { fault: 'rate_limit', probability: 0.01, retryAfterMs: 150, retryAfterRaw: '-3' },
  { fault: 'insufficient_quota', probability: 0.003 },
  { fault: 'reset', probability: 0.03 },
  { fault: 'hang', probability: 0.02 },
  { fault: 'stream_cut', probability: 0.06, stream: true },
  { fault: 'stream_error', probability: 0.05, stream: true, echoKey: true },
  { fault: 'invalid_json', probability: 0.03 },
  { fault: 'unauthorized', probability: 0.005, echoKey: true },
] as const;

let sim: Simulator;
let router: Router;
const clock = new VirtualClock({ startMs: Date.parse('2026-12-01T00:00:00Z') });
const log = captureLogger('info');
let ticking = true;
let ticker: Promise<void>;

beforeAll(async () => {
  sim = await startSimulator({
    seed: SEED, clock,
    providers: {
      openai: { type: 'openai', faults: [...faults] },
      anthropic: { type: 'anthropic', faults: [...faults] },
    },
  });
  router = createRouter({
    providers: {
      openai: { type: 'openai', apiKey: OPENAI_KEY, baseURL: sim.baseURL('openai'), timeoutMs: 2_000 },
      anthropic: { type: 'anthropic', apiKey: ANTHROPIC_KEY, baseURL: sim.baseURL('anthropic'), timeoutMs: 2_000 },
    },
    chains: { default: ['openai:gpt-4o-mini', 'anthropic:claude-haiku-4-5'], anthropic: ['anthropic:claude-haiku-4-5', 'openai:gpt-4o-mini'] },
    retry: { maxAttempts: 2, baseDelayMs: 20, maxDelayMs: 200, maxInlineWaitMs: 1_000 },
    breaker: { resetTimeoutMs: 500, windowMs: 2_000 },
    quota: { parkMs: 1_000 },
  }, { logger: log.logger, clock, random: mulberry32(SEED) });
  // Virtual time moves on its own while calls are out, so a hung request meets its timeout.
  ticker = (async () => {
    while (ticking) await clock.advance(25);
  })();
});

afterAll(async () => {
  ticking = false;
  await ticker;
  await sim?.stop();
});

/** How a call ended: `ended` is a stream's terminal event, or `walked away` when its consumer stopped reading. */
type Outcome = { ok: true; ended?: 'done' | 'interrupted' | 'walked away' } | { ok: false; error: unknown };

/** Everything a developer would print of an error: util.inspect, JSON, and every cause's message and stack. */
function printed(err: unknown): string {
  const parts = [inspect(err, { depth: 8 }), JSON.stringify(err)];
  for (let c: unknown = err; c; c = (c as { cause?: unknown }).cause) parts.push(String((c as Error).message), String((c as Error).stack ?? c));
  return parts.join('\n');
}

describe('chaos: mixed calls against every fault', () => {
  it(`settles all ${CALLS} calls with a result or a typed RouterError, and leaves nothing behind`, { timeout: 120_000 }, async () => {
    const random = mulberry32(SEED + 1);
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    const signals: AbortSignal[] = [];
    const outcomes: Outcome[] = [];
    const interruptions: unknown[] = [];
    const weather = { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } };

    const one = async (i: number): Promise<Outcome> => {
      const r = random();
      const request: ChatRequest = { messages: [{ role: 'user', content: `chaos call ${i}: tell me about get_weather in Paris` }], maxTokens: 40 };
      if (random() < 0.3) request.chain = 'anthropic';
      if (random() < 0.15) request.tools = [weather];
      else if (random() < 0.1) request.responseFormat = { type: 'json_schema', schema: { type: 'object', properties: { answer: { type: 'string' } }, required: ['answer'] } };
      if (random() < 0.15) request.timeoutMs = 300 + Math.floor(random() * 3_000);
      if (random() < 0.1) {
        const controller = new AbortController();
        signals.push(controller.signal);
        request.signal = controller.signal;
        const at = Math.floor(random() * 400);
        void clock.sleep(at).then(() => controller.abort(new Error('chaos abort')));
      }
      try {
        if (r < 0.6) {
          await router.chat(request);
          return { ok: true };
        }
        if (r < 0.7) {
          await router.chat({ ...request, idempotencyKey: `chaos-${i % 37}`, messages: [{ role: 'user', content: `keyed ${i % 37}` }] });
          return { ok: true };
        }
        let terminal: 'done' | 'interrupted' | undefined;
        let shown = '';
        for await (const ev of router.stream(request)) {
          // The terminal event is the last one: nothing follows it.
          if (terminal) return { ok: false, error: new Error(`a ${ev.type} event after ${terminal}`) };
          if (ev.type === 'text') shown += ev.delta;
          if (ev.type === 'done' || ev.type === 'interrupted') {
            terminal = ev.type;
            // What the terminal event says was shown is exactly what the text events showed.
            const said = ev.type === 'done' ? ev.result.text : ev.text;
            if (said !== shown) return { ok: false, error: new Error(`${ev.type} says ${JSON.stringify(said)} was shown, the deltas showed ${JSON.stringify(shown)}`) };
            if (ev.type === 'interrupted') interruptions.push(ev.error);
            if (ev.type === 'interrupted' && !isRouterError(ev.error)) return { ok: false, error: ev.error };
          }
          if (!terminal && random() < 0.01) return { ok: true, ended: 'walked away' }; // a consumer that walks away
        }
        // A stream read to its end ends in exactly one terminal event.
        if (!terminal) return { ok: false, error: new Error('a stream ended without done or interrupted') };
        return { ok: true, ended: terminal };
      } catch (err) {
        return { ok: false, error: err };
      }
    };

    for (let start = 0; start < CALLS; start += WAVE) {
      const wave = await Promise.all(Array.from({ length: Math.min(WAVE, CALLS - start) }, (_, k) => one(start + k)));
      outcomes.push(...wave);
    }
    expect(outcomes).toHaveLength(CALLS);
    const errors = outcomes.filter((o): o is { ok: false; error: unknown } => !o.ok).map((o) => o.error);
    const untyped = errors.filter((e) => !(e instanceof RouterError) || !KINDS.has(e.kind));
    expect(untyped.map(String)).toEqual([]);
    // Streams read to their end ended in done or interrupted, each in both ways many times.
    const ended = outcomes.flatMap((o) => (o.ok && o.ended ? [o.ended] : []));
    const count = (what: string) => ended.filter((e) => e === what).length;
    expect(count('done')).toBeGreaterThan(CALLS * 0.1);
    expect(count('interrupted')).toBeGreaterThan(CALLS * 0.01);
    expect(count('walked away')).toBeGreaterThan(0);
    // Not a vacuous run: a fault mix this heavy fails many calls, and still answers a good share of them.
    expect(outcomes.filter((o) => o.ok).length).toBeGreaterThan(CALLS * 0.4);
    expect(errors.length).toBeGreaterThan(CALLS * 0.05);
    // The keys were echoed in full (500s, 401s, error frames), in errors that failed calls and in
    // errors that interrupted streams; none is printed, in full or in part.
    expect(sim.stats().providers.openai!.byFault).toMatchObject({ server_error: expect.any(Number), stream_error: expect.any(Number), unauthorized: expect.any(Number), insufficient_quota: expect.any(Number) });
    expect(interruptions.length).toBeGreaterThan(0);
    for (const err of [...errors, ...interruptions]) {
      const text = printed(err);
      expect(text).not.toContain(OPENAI_KEY);
      expect(text).not.toContain(ANTHROPIC_KEY);
      expect(text).not.toMatch(KEY_SHAPED);
    }

    await router.close();
    ticking = false;
    await ticker;
    // Nothing of ours left: no timer on the router's clock, no request at the upstream, no listener on a caller's signal.
    expect(clock.pendingTimers).toBe(0);
    await until(() => sim.stats().inFlight === 0, 'every request to end at the simulator');
    await until(() => sim.stats().connections.open === 0, 'every socket to the simulator to close');
    for (const signal of signals) expect(getEventListeners(signal, 'abort')).toHaveLength(0);
    await new Promise((resolve) => setImmediate(resolve));
    process.off('unhandledRejection', onUnhandled);
    expect(unhandled).toEqual([]);
  });
});

describe('chaos: idempotency keys under faults', () => {
  it('never answers one key twice, whatever fails around it', async () => {
    const random = mulberry32(SEED + 2);
    const answered = new Map<string, number>();
    const keyed = createRouter({
      providers: {
        p: {
          type: 'fake',
          respond: (request: unknown) => {
            const roll = random();
            const key = String((request as { messages: Array<{ content: string }> }).messages[0]!.content);
            if (roll < 0.2) return { fail: 'server', status: 503 };
            if (roll < 0.25) return { fail: 'transport' };
            if (roll < 0.3) return { fail: 'rate_limited', retryAfterMs: 50 };
            answered.set(key, (answered.get(key) ?? 0) + 1);
            return { text: `answer for ${key}`, latencyMs: Math.floor(random() * 30) };
          },
          // No waiting out a cooling target here: nothing advances the virtual clock for a queued call.
          limits: { maxQueueMs: 0 },
        },
      },
      chains: { default: ['p:m'] },
      retry: { maxAttempts: 2, baseDelayMs: 5, maxDelayMs: 20 },
      breaker: { volumeThreshold: 1_000, consecutiveFailures: 1_000 },
    }, { logger: captureLogger('info').logger, clock: new VirtualClock() });
    try {
      const results: Array<{ key: string; text?: string; kind?: string }> = [];
      for (let wave = 0; wave < 20; wave++) {
        await Promise.all(Array.from({ length: 50 }, async (_, k) => {
          const key = `key-${(wave * 7 + k) % 60}`;
          try {
            const res = await keyed.chat({ messages: [{ role: 'user', content: key }], idempotencyKey: key });
            results.push({ key, text: res.text });
          } catch (err) {
            results.push({ key, kind: (err as RouterError).kind });
          }
        }));
      }
      expect(results).toHaveLength(1_000);
      // Not vacuous: most of the 60 keys were answered (53 under this seed), and the keys answered upstream
      // are exactly the keys some call got an answer for.
      const keysWithAnswers = new Set(results.filter((r) => r.text !== undefined).map((r) => r.key));
      expect([...answered.keys()].sort()).toEqual([...keysWithAnswers].sort());
      expect(answered.size).toBeGreaterThanOrEqual(50);
      for (const [key, count] of answered) expect(count, `${key} answered ${count} times`).toBe(1);
      // Every call for a key that was ever answered got that one answer.
      for (const r of results) if (r.text !== undefined) expect(r.text).toBe(`answer for ${r.key}`);
      expect(results.every((r) => r.text !== undefined || KINDS.has(r.kind!))).toBe(true);
      expect(fakeRequests(keyed, 'p').length).toBeGreaterThan(answered.size);
    } finally {
      await keyed.close();
    }
  });
});
