import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SwitchyardConfig } from '../../src/config/index.js';
import { isRouterError } from '../../src/errors.js';
import type { RouterEvents } from '../../src/observe/events.js';
import { createRouter, type Router } from '../../src/router.js';
import { MemoryStore } from '../../src/store/memory-store.js';
import { redisStore } from '../../src/store/redis-store.js';
import type { StateStore } from '../../src/store/state-store.js';
import { captureLogger } from '../support/capture-logger.js';
import { OPENAI_PATH, openaiSuccessHeaders } from '../support/fixtures.js';
import { redisPerFile } from '../support/redis-per-file.js';
import { startUpstream, type Upstream } from '../support/upstream.js';
import { until } from '../support/until.js';
import { VirtualClock } from '../support/virtual-clock.js';
import { OPENAI_KEY, rejectionOf } from '../support/wire-router.js';

// Prices a test can count in: one cent a token, in and out. Every answer of the upstream reports 19
// prompt and 10 completion tokens (openaiCompletion), so each answered call costs exactly $0.29.
const CENT_A_TOKEN = { inputPerMTok: 10_000, outputPerMTok: 10_000 };
const ANSWER_USD = 0.29;
// A prompt the estimate counts as a few tokens more than the 19 the upstream bills: the worst case
// reserved (prompt estimate + 10 output tokens) is about $0.30 (under $0.35), never below what an answer costs.
const PROMPT = 'Please say hello to everyone in this room, politely.';
const ask = (tenant = 'acme') => ({ messages: [{ role: 'user' as const, content: PROMPT }], tenant, maxTokens: 10 });

let up: Upstream;
let closers: Array<() => Promise<void>> = [];
beforeEach(async () => {
  up = await startUpstream();
  up.otherwise(OPENAI_PATH, () => ({ status: 200, headers: openaiSuccessHeaders, body: completion() }));
});
afterEach(async () => {
  for (const c of closers) await c();
  closers = [];
  await up.close();
});

function completion() {
  return {
    id: 'chatcmpl-1', object: 'chat.completion', created: 1741569952, model: 'gpt-4o-mini',
    choices: [{ index: 0, message: { role: 'assistant', content: 'Hello!', refusal: null }, logprobs: null, finish_reason: 'stop' }],
    usage: { prompt_tokens: 19, completion_tokens: 10, total_tokens: 29 },
  };
}

function config(spend: Record<string, unknown>, extra: Partial<SwitchyardConfig> = {}): SwitchyardConfig {
  return {
    providers: {
      openai: { type: 'openai', apiKey: OPENAI_KEY, baseURL: `${up.url}/v1`, timeoutMs: 60_000 },
      backup: { type: 'openai', apiKey: OPENAI_KEY, baseURL: `${up.url}/v1`, timeoutMs: 60_000 },
    },
    chains: { default: ['openai:gpt-4o-mini', 'backup:gpt-4o-mini'] },
    retry: { maxAttempts: 1, baseDelayMs: 10, maxDelayMs: 40 },
    prices: { 'gpt-4o-mini': CENT_A_TOKEN },
    tenants: { acme: { spend } },
    ...extra,
  };
}

function router(cfg: SwitchyardConfig, clock = new VirtualClock(), store: StateStore = new MemoryStore()) {
  const log = captureLogger();
  const r: Router = createRouter(cfg, { logger: log.logger, clock, store });
  closers.push(() => r.close());
  return { router: r, clock, log };
}

const sent = () => up.count(OPENAI_PATH);

describe('spend budgets (memory store, virtual clock)', () => {
  it('prices every answer: costUsd on the attempt and call events and on the result', async () => {
    const { router: r } = router(config({ usdPerDay: 100 }));
    const attempts: Array<RouterEvents['attempt']> = [];
    const calls: Array<RouterEvents['call']> = [];
    r.on('attempt', (e) => attempts.push(e));
    r.on('call', (e) => calls.push(e));
    const result = await r.chat(ask());
    expect(result.costUsd).toBeCloseTo(ANSWER_USD, 10);
    expect(attempts.map((a) => a.costUsd)).toEqual([result.costUsd]);
    expect(calls.map((c) => c.costUsd)).toEqual([result.costUsd]);
  });

  it('throws budget_exceeded with no request sent, and tries no other target, once the day holds the budget', async () => {
    // $0.40 a day: the first call fits (its worst case is under 0.40) and costs 0.29; the second cannot fit.
    const { router: r } = router(config({ usdPerDay: 0.4 }));
    await r.chat(ask());
    expect(sent()).toBe(1);
    const err = await rejectionOf(r.chat(ask()));
    expect(isRouterError(err)).toBe(true);
    expect(err.kind).toBe('budget_exceeded');
    expect(err.code).toBe('budget_exceeded');
    expect(err.message).toContain('tenant:acme spend budget is full');
    expect(err.message).toContain('tenants.acme.spend.usdPerDay');
    expect(sent()).toBe(1);
    // The refusal is recorded as a skip of the first target; the backup was never tried.
    expect(err.attempts).toEqual([expect.objectContaining({ provider: 'openai', kind: 'budget_exceeded', skipped: true, code: 'day' })]);
    // Another tenant has no budget and is served.
    await r.chat(ask('other'));
    expect(sent()).toBe(2);
  });

  it('gives a failed call its reservation back, so the next call fits', async () => {
    // One worst case (about $0.30) fits $0.50, two do not: had the failure kept its reservation, the next call could not fit.
    const { router: r } = router(config({ usdPerDay: 0.5 }, { chains: { default: ['openai:gpt-4o-mini'] } }));
    up.script(OPENAI_PATH, { status: 500, body: { error: { message: 'boom', type: 'server_error', param: null, code: null } } });
    const failed = await rejectionOf(r.chat(ask()));
    expect(failed.kind).not.toBe('budget_exceeded');
    const ok = await r.chat(ask());
    expect(ok.costUsd).toBeCloseTo(ANSWER_USD, 10);
    expect(sent()).toBe(2);
  });

  it('keeps the reservation of an answer whose usage is unknown', async () => {
    const { router: r } = router(config({ usdPerDay: 0.5 }, { chains: { default: ['openai:gpt-4o-mini'] } }));
    const { usage: _none, ...noUsage } = completion();
    up.script(OPENAI_PATH, { status: 200, headers: openaiSuccessHeaders, body: noUsage });
    const first = await r.chat(ask());
    expect(first.costUsd).toBeUndefined();
    // The whole worst case (about $0.30) stays spent: a second one no longer fits $0.50.
    expect((await rejectionOf(r.chat(ask()))).kind).toBe('budget_exceeded');
    expect(sent()).toBe(1);
  });

  it('keeps the reservation of an attempt that timed out: the provider may have billed it', async () => {
    const clock = new VirtualClock();
    const { router: r } = router(config({ usdPerDay: 0.5 }, { chains: { default: ['openai:gpt-4o-mini'] } }), clock);
    up.script(OPENAI_PATH, { hang: true });
    const timedOut = rejectionOf(r.chat(ask()));
    await until(() => up.inFlight === 1, 'the request upstream');
    await clock.advance(60_000);
    expect((await timedOut).attempts.map((a: { kind?: string }) => a.kind)).toEqual(['timeout']);
    // The timeout kept its worst case (about $0.30): another one does not fit $0.50.
    expect((await rejectionOf(r.chat(ask()))).kind).toBe('budget_exceeded');
    expect(sent()).toBe(1);
  });

  it('starts a new day window at UTC midnight on the virtual clock, while the month keeps counting', async () => {
    const clock = new VirtualClock({ startMs: Date.parse('2026-11-28T23:59:00Z') });
    const { router: r } = router(config({ usdPerDay: 0.4, usdPerMonth: 0.7 }), clock);
    await r.chat(ask());
    const full = await rejectionOf(r.chat(ask()));
    expect([full.kind, full.retryAfterMs]).toEqual(['budget_exceeded', 60_000]);
    await clock.advance(59_999); // 23:59:59.999: still the same day
    expect((await rejectionOf(r.chat(ask()))).kind).toBe('budget_exceeded');
    await clock.advance(1); // 00:00 UTC, Nov 29
    await r.chat(ask());
    expect(sent()).toBe(2);
    await clock.advance(86_400_000); // Nov 30: a new day, but the month holds $0.58 of its $0.70
    const err = await rejectionOf(r.chat(ask()));
    expect(err.kind).toBe('budget_exceeded');
    expect(err.message).toContain('tenants.acme.spend.usdPerMonth');
    expect(err.message).toContain('2026-11 (UTC) holds $0.5800 of $0.7000');
    await clock.advance(86_400_000); // Dec 1: a new day and a new month
    await r.chat(ask());
    expect(sent()).toBe(3);
  });

  it('fires each alert threshold once per window, as a spend event', async () => {
    const clock = new VirtualClock({ startMs: Date.parse('2026-11-29T10:00:00Z') });
    const { router: r } = router(config({ usdPerDay: 1, alertAt: [0.5, 0.8] }), clock);
    const seen: Array<RouterEvents['spend']> = [];
    r.on('spend', (e) => seen.push(e));
    await r.chat(ask()); // 0.29
    await r.chat(ask()); // 0.58: crosses 50%
    expect(seen.map((e) => [e.reason, e.window, e.threshold])).toEqual([['threshold', 'day:2026-11-29', 0.5]]);
    expect(seen[0]).toMatchObject({ budget: 'tenant:acme', tenant: 'acme', limitUsd: 1 });
    expect(seen[0]!.spentUsd).toBeCloseTo(0.58, 10);
    await r.chat(ask()); // 0.87: crosses 80%
    expect(seen.map((e) => e.threshold)).toEqual([0.5, 0.8]);
    await clock.advance(86_400_000);
    await r.chat(ask());
    await r.chat(ask()); // a new day: 50% again, once
    expect(seen.map((e) => `${e.window}@${e.threshold}`)).toEqual(['day:2026-11-29@0.5', 'day:2026-11-29@0.8', 'day:2026-11-30@0.5']);
  });

  it('reserves each attempt at its own target\'s price: a dearer fallback can be refused where the first target fitted', async () => {
    const cfg = config({ usdPerDay: 0.5 }, { prices: { 'openai:gpt-4o-mini': CENT_A_TOKEN, 'backup:gpt-4o-mini': { inputPerMTok: 100_000, outputPerMTok: 100_000 } } });
    const { router: r } = router(cfg);
    up.script(OPENAI_PATH, { status: 500, body: { error: { message: 'boom', type: 'server_error', param: null, code: null } } });
    const err = await rejectionOf(r.chat(ask()));
    // The first target was sent (and refunded); the backup's worst case at ten cents a token cannot fit $0.50.
    expect(err.kind).toBe('budget_exceeded');
    expect(err.message).toContain('backup:gpt-4o-mini may cost up to');
    expect(sent()).toBe(1);
  });
});

describe('spend config', () => {
  const bad = (spend: unknown, extra: Partial<SwitchyardConfig> = {}) => {
    try {
      createRouter({ ...config({}), tenants: { acme: { spend } as never }, ...extra }, { logger: captureLogger().logger });
    } catch (err) {
      expect(isRouterError(err) && err.kind).toBe('config');
      return (err as Error).message;
    }
    throw new Error('expected a config error');
  };

  it('names the field of a negative, a non-numeric or a missing amount', () => {
    expect(bad({ usdPerDay: -1 })).toMatch(/tenants\.acme\.spend\.usdPerDay: .*>0/);
    expect(bad({ usdPerMonth: '10' })).toMatch(/tenants\.acme\.spend\.usdPerMonth: .*expected number/);
    expect(bad({ usdPerDay: Number.POSITIVE_INFINITY })).toContain('tenants.acme.spend.usdPerDay');
    expect(bad({ alertAt: [0.8] })).toContain('tenants.acme.spend: set usdPerDay and/or usdPerMonth');
    expect(bad({ usdPerDay: 5, alertAt: [1.5] })).toContain('tenants.acme.spend.alertAt[0]');
    expect(bad({ usdPerDay: 5, usdPerWeek: 3 })).toContain('tenants.acme.spend');
  });

  it('refuses a budget over a target nobody priced, naming the budget and the target; unbudgeted, an unpriced model is fine', () => {
    const unpriced = { chains: { default: ['openai:gpt-4o-mini', 'backup:my-finetune'] }, prices: {} };
    expect(bad({ usdPerDay: 5 }, unpriced)).toContain('tenants.acme.spend: no price for backup:my-finetune');
    // gpt-4o-mini is in the shipped table: only the fine-tune is named.
    expect(bad({ usdPerDay: 5 }, unpriced)).not.toContain('openai:gpt-4o-mini');
    expect(() => createRouter({ ...config({}), ...unpriced, tenants: {} }, { logger: captureLogger().logger })).not.toThrow();
  });

  it('names a gateway key\'s spend field, and checks only the chains the key may use', () => {
    const base = { ...config({}), tenants: {}, chains: { default: ['openai:gpt-4o-mini'], custom: ['backup:my-finetune'] }, prices: {} };
    const keyed = (spend: unknown, chains?: string[]) => () => createRouter({
      ...base, gateway: { keys: [{ keyHash: `sha256:${'a'.repeat(64)}`, tenant: 't', spend: spend as never, ...(chains ? { chains } : {}) }] },
    }, { logger: captureLogger().logger });
    expect(keyed({ usdPerDay: -2 })).toThrow(/gateway\.keys\[0\]\.spend\.usdPerDay/);
    expect(keyed({ usdPerDay: 2 })).toThrow(/gateway\.keys\[0\]\.spend: no price for backup:my-finetune/);
    expect(keyed({ usdPerDay: 2 }, ['default'])).not.toThrow();
  });
});

describe('spend budgets shared through Redis', () => {
  const redis = redisPerFile();

  it('two routers on one Redis never spend past one budget under 50 concurrent calls', async () => {
    const BUDGET = 5;
    const cfg = config({ usdPerDay: BUDGET }, { chains: { default: ['openai:gpt-4o-mini'] } });
    const clock = new VirtualClock();
    const prefix = `spend-${Math.random().toString(36).slice(2)}:`;
    const a = router(cfg, clock, redisStore(redis.url, { keyPrefix: prefix }));
    const b = router(cfg, clock, redisStore(redis.url, { keyPrefix: prefix }));
    const outcomes = await Promise.allSettled(Array.from({ length: 50 }, (_, i) => (i % 2 === 0 ? a : b).router.chat(ask())));
    const served = outcomes.filter((o) => o.status === 'fulfilled').map((o) => (o as PromiseFulfilledResult<{ costUsd?: number }>).value.costUsd!);
    const refused = outcomes.filter((o) => o.status === 'rejected').map((o) => (o as PromiseRejectedResult).reason as { kind: string });
    expect(refused.every((e) => e.kind === 'budget_exceeded')).toBe(true);
    expect(served.length + refused.length).toBe(50);
    expect(sent()).toBe(served.length);
    const spent = served.reduce((s, c) => s + c, 0);
    // Every call's worst case was reserved before it was sent and no answer cost more: the fleet stays within the budget.
    expect(spent).toBeLessThanOrEqual(BUDGET + 1e-9);
    // And the budget was really spent, not refused wholesale: all 50 reserve at once, so as many worst cases fit as $5 holds.
    const worst = Number(/may cost up to \$([\d.]+)/.exec((refused[0] as unknown as Error).message)![1]);
    expect(worst).toBeGreaterThanOrEqual(ANSWER_USD);
    expect(served.length).toBe(Math.floor(BUDGET / worst));
    expect(spent).toBeCloseTo(served.length * ANSWER_USD, 9);
    expect(refused.length).toBeGreaterThan(0);
    // The store recorded what the answers cost, by model.
    const reader = redisStore(redis.url, { keyPrefix: prefix });
    const rows = await reader.readSpend(['day:2026-11-29']);
    await reader.close();
    expect(rows).toEqual([{ budget: 'tenant:acme', window: 'day:2026-11-29', model: 'openai:gpt-4o-mini', usd: expect.closeTo(spent, 9) }]);
  });

  it('refunds a failed call through Redis, and starts a new day at UTC midnight', async () => {
    const clock = new VirtualClock({ startMs: Date.parse('2026-11-29T23:59:59Z') });
    const prefix = `spend-${Math.random().toString(36).slice(2)}:`;
    const { router: r } = router(config({ usdPerDay: 0.5 }, { chains: { default: ['openai:gpt-4o-mini'] } }), clock, redisStore(redis.url, { keyPrefix: prefix }));
    up.script(OPENAI_PATH, { status: 500, body: { error: { message: 'boom', type: 'server_error', param: null, code: null } } });
    await rejectionOf(r.chat(ask()));
    await r.chat(ask());
    expect((await rejectionOf(r.chat(ask()))).kind).toBe('budget_exceeded');
    expect(sent()).toBe(2);
    await clock.advance(1_000);
    await r.chat(ask());
    expect(sent()).toBe(3);
  });
});
