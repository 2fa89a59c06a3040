import { describe, expect, it } from 'vitest';
import { RouterError } from '../../src/errors.js';
import { FallbackStore } from '../../src/store/fallback-store.js';
import { MemoryStore } from '../../src/store/memory-store.js';
import { redisStore } from '../../src/store/redis-store.js';
import type { SpendReservation, SpendStore, SpendWindowLimit, StateStore } from '../../src/store/state-store.js';
import { roleOf } from '../../src/store/store-roles.js';
import { captureLogger } from '../support/capture-logger.js';
import { redisPerFile } from '../support/redis-per-file.js';
import { VirtualClock } from '../support/virtual-clock.js';

const NOW = Date.parse('2026-11-29T12:00:00Z');
const DAY: SpendWindowLimit = { window: 'day:2026-11-29', limitUsd: 1, endsAtMs: Date.parse('2026-11-30T00:00:00Z') };
const MONTH: SpendWindowLimit = { window: 'month:2026-11', limitUsd: 3, endsAtMs: Date.parse('2026-12-01T00:00:00Z') };
let seq = 0;
const hold = (usd: number, windows = [DAY, MONTH], budget = 'tenant:acme'): SpendReservation => ({ budget, holdId: `h${++seq}`, usd, windows, holdTtlMs: 10_000 });
const settle = (store: SpendStore, r: SpendReservation, actualUsd: number, nowMs = NOW, alertAt: number[] = []) =>
  store.settleSpend({ budget: r.budget, holdId: r.holdId, windows: r.windows, actualUsd, model: 'openai:gpt-4o-mini', alertAt }, nowMs);

const redis = redisPerFile();

// The same behaviour from the memory store and from Redis (its scripts mirror memory-spend.ts).
const stores: Array<[string, () => { a: SpendStore; b: SpendStore; close: () => Promise<void> }]> = [
  ['MemoryStore', () => {
    const m = new MemoryStore();
    return { a: m, b: m, close: async () => m.close() };
  }],
  ['RedisStore', () => {
    const keyPrefix = `spend-store-${++seq}:`;
    const a = redisStore(redis.url, { keyPrefix });
    const b = redisStore(redis.url, { keyPrefix });
    return { a, b, close: async () => void (await Promise.all([a.close(), b.close()])) };
  }],
];

describe.each(stores)('%s: the spend role', (_name, make) => {
  it('reserves all windows or none, counts holds and spend, and gives back what a settle does not spend', async () => {
    const { a, b, close } = make();
    const first = hold(0.6);
    expect(await a.reserveSpend(first, NOW)).toEqual({ ok: true, totalsUsd: [0.6, 0.6] });
    // A second hold does not fit the day (0.6 + 0.5 > 1): nothing is taken from the month either.
    const second = hold(0.5);
    expect(await b.reserveSpend(second, NOW)).toEqual({ ok: false, window: 'day:2026-11-29', totalUsd: 0.6, limitUsd: 1 });
    // The first spends 0.25 of its 0.6: now 0.5 fits.
    await settle(a, first, 0.25);
    expect(await b.reserveSpend(second, NOW)).toMatchObject({ ok: true, totalsUsd: [0.75, 0.75] });
    await settle(b, second, 0);
    expect(await a.readSpend(['day:2026-11-29', 'month:2026-11'])).toEqual([
      { budget: 'tenant:acme', window: 'day:2026-11-29', model: 'openai:gpt-4o-mini', usd: 0.25 },
      { budget: 'tenant:acme', window: 'month:2026-11', model: 'openai:gpt-4o-mini', usd: 0.25 },
    ]);
    expect(await a.readSpend(['day:2026-11-29'], 'tenant:other')).toEqual([]);
    await close();
  });

  it('drops the hold of a process that died once its TTL passes', async () => {
    const { a, b, close } = make();
    expect(await a.reserveSpend(hold(0.9), NOW)).toMatchObject({ ok: true });
    expect(await b.reserveSpend(hold(0.9), NOW + 9_999)).toMatchObject({ ok: false, totalUsd: 0.9 });
    expect(await b.reserveSpend(hold(0.9), NOW + 10_000)).toMatchObject({ ok: true, totalsUsd: [0.9, 0.9] });
    await close();
  });

  it('fires each threshold once per window, to the first process whose settle crosses it', async () => {
    const { a, b, close } = make();
    const r1 = hold(0.5);
    const r2 = hold(0.4);
    await a.reserveSpend(r1, NOW);
    await b.reserveSpend(r2, NOW);
    expect(await settle(a, r1, 0.5, NOW, [0.5, 0.8])).toEqual([{ window: 'day:2026-11-29', threshold: 0.5, spentUsd: 0.5, limitUsd: 1 }]);
    expect(await settle(b, r2, 0.4, NOW, [0.5, 0.8])).toEqual([{ window: 'day:2026-11-29', threshold: 0.8, spentUsd: 0.9, limitUsd: 1 }]);
    const r3 = hold(0.05);
    await a.reserveSpend(r3, NOW);
    expect(await settle(a, r3, 0.05, NOW, [0.5, 0.8])).toEqual([]);
    await close();
  });
});

describe('FallbackStore: spend while the shared store is down', () => {
  it("spends its local share of what the fleet had left, says so on the grant, and ends each hold where it was taken", async () => {
    const inner = new MemoryStore();
    const control = { down: false };
    const shared = new Proxy(inner, {
      get(target, prop, receiver) {
        if (prop === 'shared') return true;
        if (prop === 'close') return () => {};
        if (prop === 'ping') return () => (control.down ? Promise.reject(new RouterError('transport', 'down')) : Promise.resolve());
        const value = Reflect.get(target, prop, receiver);
        if (typeof value !== 'function') return value;
        return (...args: unknown[]) => (control.down ? Promise.reject(new RouterError('transport', 'Redis is unreachable', { code: 'redis' })) : Promise.resolve().then(() => value.apply(target, args)));
      },
    }) as unknown as StateStore;
    const clock = new VirtualClock({ autoAdvance: false });
    const fallback = new FallbackStore(shared, { clock, logger: captureLogger().logger, onUnavailable: 'local' });
    const spend = roleOf(fallback, 'spend')!;
    const day = [{ ...DAY, limitUsd: 10 }];
    // The fleet has spent 6 of 10 when this process last hears from the store.
    const shared1 = { ...hold(6, day), localShare: 0.5 };
    expect(await spend.reserveSpend(shared1, NOW)).toEqual({ ok: true, totalsUsd: [6] });
    control.down = true;
    // Half of the 4 left is this process's: 1.5 fits, another 1 does not.
    const local1 = { ...hold(1.5, day), localShare: 0.5 };
    expect(await spend.reserveSpend(local1, NOW)).toEqual({ ok: true, totalsUsd: [1.5], local: true });
    expect(await spend.reserveSpend({ ...hold(1, day), localShare: 0.5 }, NOW)).toMatchObject({ ok: false, local: true, limitUsd: 2 });
    // The local hold settles locally; the shared one is dropped while the store is down (its hold expires there).
    await spend.settleSpend({ budget: 'tenant:acme', holdId: local1.holdId, windows: day, actualUsd: 0.5, model: 'm', alertAt: [] }, NOW);
    expect(await spend.settleSpend({ budget: 'tenant:acme', holdId: shared1.holdId, windows: day, actualUsd: 6, model: 'm', alertAt: [] }, NOW)).toEqual([]);
    expect(fallback.local.readSpend(['day:2026-11-29'])).toEqual([{ budget: 'tenant:acme', window: 'day:2026-11-29', model: 'm', usd: 0.5 }]);
    expect(inner.readSpend(['day:2026-11-29'])).toEqual([]);
    await fallback.close();
  });
});
