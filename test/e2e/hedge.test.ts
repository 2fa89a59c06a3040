import { afterEach, describe, expect, it } from 'vitest';
import type { SwitchyardConfig } from '../../src/config/index.js';
import type { RouterEvents } from '../../src/observe/events.js';
import { createRouter, type Router } from '../../src/router.js';
import type { StreamEvent } from '../../src/calls/stream.js';
import { fakeRequests } from '../../src/testing/index.js';
import { ChainError } from '../../src/policy/chain/chain-error.js';
import { captureLogger } from '../support/capture-logger.js';
import { VirtualClock } from '../support/virtual-clock.js';

// Hedged requests (a chain's `hedge`): time moves only when a test advances it, so each test says
// exactly when the hedge goes out, which answer wins, and what the loser gave back.

const ask = (content = 'Hello') => ({ messages: [{ role: 'user' as const, content }] });
let closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const c of closers.reverse()) await c();
  closers = [];
});

/** Lets the router's promise reactions run after the clock moved. */
const turns = async (n = 20) => {
  for (let i = 0; i < n; i++) await new Promise<void>((r) => setImmediate(r));
};

function hedged(providers: SwitchyardConfig['providers'], hedge: Record<string, unknown> = { afterMs: 200, maxExtraPercent: 100 }, extra: Partial<SwitchyardConfig> = {}) {
  const clock = new VirtualClock({ autoAdvance: false });
  const router = createRouter({
    providers,
    chains: { default: { steps: ['slow:m', 'fast:m'], hedge } } as unknown as SwitchyardConfig['chains'],
    retry: { maxAttempts: 1 },
    ...extra,
  }, { logger: captureLogger().logger, clock });
  closers.push(() => router.close());
  const events: { hedge: RouterEvents['hedge'][]; call: RouterEvents['call'][] } = { hedge: [], call: [] };
  router.on('hedge', (e) => events.hedge.push(e));
  router.on('call', (e) => events.call.push(e));
  const sent = (p: string) => fakeRequests(router, p).length;
  return { router, clock, events, sent };
}

/** Advances the clock `ms` at a time, letting the router react between steps. */
async function advance(clock: VirtualClock, ms: number) {
  await turns();
  await clock.advance(ms);
  await turns();
}

const trail = (r: { attempts: ReadonlyArray<{ provider: string; ok: boolean; kind?: string; hedge?: true }> }) => r.attempts.map((a) => [a.provider, a.ok, a.kind, a.hedge ?? false]);

describe('a hedged chain', () => {
  it('sends the next step after afterMs without an answer; the hedge answers first, wins, and the slow attempt is aborted', async () => {
    const { router, clock, events, sent } = hedged({ slow: { type: 'fake', latencyMs: 1_500 }, fast: { type: 'fake', latencyMs: 50 } });
    const pending = router.chat(ask());
    await advance(clock, 199);
    expect([sent('slow'), sent('fast')]).toEqual([1, 0]);
    await advance(clock, 1);
    expect([sent('slow'), sent('fast')]).toEqual([1, 1]);
    expect(events.hedge).toEqual([expect.objectContaining({ chain: 'default', provider: 'slow', model: 'm', afterMs: 200, to: { provider: 'fast', model: 'm' } })]);
    await advance(clock, 50);
    const result = await pending;
    expect(result).toMatchObject({ provider: 'fast', hedged: true, latencyMs: 250 });
    expect(trail(result)).toEqual([['fast', true, undefined, true], ['slow', false, 'aborted', false]]);
    expect(events.call.at(-1)).toMatchObject({ outcome: 'ok', provider: 'fast', hedged: true });
  });

  it('answers from the first step when it answers within afterMs: no hedge is sent', async () => {
    const { router, clock, events, sent } = hedged({ slow: { type: 'fake', latencyMs: 150 }, fast: { type: 'fake', latencyMs: 50 } });
    const pending = router.chat(ask());
    await advance(clock, 150);
    const result = await pending;
    expect(result.provider).toBe('slow');
    expect(result.hedged).toBeUndefined();
    expect([sent('slow'), sent('fast')]).toEqual([1, 0]);
    expect(events.hedge).toEqual([]);
    // The timer went with the answer: time passing sends nothing more.
    await advance(clock, 10_000);
    expect(sent('fast')).toBe(0);
  });

  it('lets the first step win when it answers after the hedge went out, and aborts the hedge', async () => {
    const { router, clock, sent } = hedged({ slow: { type: 'fake', latencyMs: 300 }, fast: { type: 'fake', latencyMs: 1_000 } });
    const pending = router.chat(ask());
    await advance(clock, 200);
    expect(sent('fast')).toBe(1);
    await advance(clock, 100);
    const result = await pending;
    expect(result).toMatchObject({ provider: 'slow', hedged: true });
    await turns();
    expect(trail(result)).toEqual([['slow', true, undefined, false], ['fast', false, 'aborted', true]]);
  });

  it('gives the loser\'s concurrency slot back at once; the tokens it was sent with stay counted, as the provider counted them', async () => {
    const { router, clock } = hedged({
      slow: { type: 'fake', latencyMs: 1_500, limits: { concurrency: 1, maxQueueMs: 0 } },
      fast: { type: 'fake', latencyMs: 50 },
    });
    const first = router.chat(ask());
    await advance(clock, 250);
    expect((await first).provider).toBe('fast');
    // The aborted attempt held slow's only slot: it is free again, so the next call goes to slow
    // without waiting (with the slot still held it would be skipped as local_limit concurrency).
    const second = router.chat(ask('Again'));
    await advance(clock, 1);
    expect(fakeRequests(router, 'slow')).toHaveLength(2);
    await advance(clock, 249);
    const result = await second;
    // It hedged too (the budget allows every call here); slow's attempt had waited for nothing.
    expect(trail(result)).toEqual([['fast', true, undefined, true], ['slow', false, 'aborted', false]]);
    expect(result.attempts[1]!.waitedMs).toBeUndefined();
  });

  it('keeps the tokens the aborted attempt was sent with counted against TPM (the provider counted them on arrival)', async () => {
    const { router, clock } = hedged({
      slow: { type: 'fake', latencyMs: 1_500, limits: { tpm: 1_100, maxQueueMs: 0 } },
      fast: { type: 'fake', latencyMs: 50 },
    });
    const first = router.chat({ ...ask(), maxTokens: 1_000 });
    await advance(clock, 250);
    expect((await first).provider).toBe('fast');
    const second = router.chat({ ...ask('Again'), maxTokens: 1_000 });
    await advance(clock, 50);
    const result = await second;
    expect(result.provider).toBe('fast');
    expect(result.attempts[0]).toMatchObject({ provider: 'slow', skipped: true, kind: 'local_limit', code: 'tpm' });
    expect(fakeRequests(router, 'slow')).toHaveLength(1);
  });

  it('falls through at once when the first step fails before afterMs, as without hedging (no hedge is counted)', async () => {
    const { router, clock, events, sent } = hedged({ slow: { type: 'fake', script: [{ fail: 'server', latencyMs: 20 }] }, fast: { type: 'fake', latencyMs: 50 } });
    const pending = router.chat(ask());
    await advance(clock, 20);
    expect(sent('fast')).toBe(1);
    await advance(clock, 50);
    const result = await pending;
    expect(result.provider).toBe('fast');
    expect(result.hedged).toBeUndefined();
    expect(trail(result)).toEqual([['slow', false, 'server', false], ['fast', true, undefined, false]]);
    expect(events.hedge).toEqual([]);
  });

  it('fails at once on a caller\'s error from the first step while the hedge is in flight, aborting the hedge', async () => {
    const { router, clock } = hedged({ slow: { type: 'fake', script: [{ fail: 'bad_request', latencyMs: 300 }] }, fast: { type: 'fake', latencyMs: 1_000 } });
    const pending = router.chat(ask());
    const outcome = pending.then(() => undefined, (e: unknown) => e);
    await advance(clock, 300);
    const err = await outcome;
    expect(err).toMatchObject({ kind: 'bad_request', provider: 'slow', status: 400 });
    await turns();
    expect((err as { attempts: unknown[] }).attempts).toEqual(expect.arrayContaining([expect.objectContaining({ provider: 'fast', kind: 'aborted', hedge: true })]));
  });

  it('throws one exhausted error naming every target when the first fails after the hedge went out and the hedge fails too', async () => {
    // A queue limit (0.5 s) shorter than `fast`'s 1 s cooling: the chain throws instead of waiting it out.
    const { router, clock } = hedged({ slow: { type: 'fake', script: [{ fail: 'server', status: 503, latencyMs: 300 }] }, fast: { type: 'fake', script: [{ fail: 'rate_limited', latencyMs: 400 }], limits: { maxQueueMs: 500 } } });
    const outcome = router.chat(ask()).then(() => undefined, (e: unknown) => e);
    await advance(clock, 300);
    await advance(clock, 300);
    const err = await outcome;
    expect(err).toMatchObject({ kind: 'exhausted' });
    expect((err as Error).message).toMatch(/^every target of chain "default" failed or was skipped: slow:m server 503; fast:m rate_limited 429 \(back in 1\.0 s\)/);
    expect(err).toMatchObject({ retryAfterMs: 1_000 });
    // Both legs' failures as data: the walk's reasons list and one attempt each.
    expect(err).toBeInstanceOf(ChainError);
    expect((err as ChainError).failures).toEqual(['slow:m server 503', 'fast:m rate_limited 429 (back in 1.0 s)']);
    expect(trail(err as ChainError)).toEqual(expect.arrayContaining([['slow', false, 'server', false], ['fast', false, 'rate_limited', true]]));
    expect((err as ChainError).attempts).toHaveLength(2);
  });

  it('combines the failures of both legs when each leg walked several targets', async () => {
    const clock = new VirtualClock({ autoAdvance: false });
    const router = createRouter({
      providers: {
        slow: { type: 'fake', script: [{ fail: 'server', status: 503, latencyMs: 300 }] },
        fast: { type: 'fake', script: [{ fail: 'server', status: 502, latencyMs: 400 }] },
        last: { type: 'fake', script: [{ fail: 'timeout', latencyMs: 10 }] },
      },
      chains: { default: { steps: ['slow:m', 'fast:m', 'last:m'], hedge: { afterMs: 200, maxExtraPercent: 100 } } } as unknown as SwitchyardConfig['chains'],
      retry: { maxAttempts: 1 },
    }, { logger: captureLogger().logger, clock });
    closers.push(() => router.close());
    const outcome = router.chat(ask()).then(() => undefined, (e: unknown) => e);
    await advance(clock, 300);
    await advance(clock, 300);
    await advance(clock, 100);
    const err = await outcome as ChainError;
    expect(err).toBeInstanceOf(ChainError);
    expect(err.kind).toBe('exhausted');
    expect(err.failures.map((f) => f.split(' ').slice(0, 2).join(' '))).toEqual(['slow:m server', 'fast:m server', 'last:m timeout']);
    expect(err.message).toBe(`every target of chain "default" failed or was skipped: ${err.failures.join('; ')}`);
    expect(trail(err).map(([p, ok, kind]) => [p, ok, kind])).toEqual(expect.arrayContaining([['slow', false, 'server'], ['fast', false, 'server'], ['last', false, 'timeout']]));
  });

  it('sends at most maxExtraPercent of the chain\'s calls as hedges over a rolling 10 s', async () => {
    const { router, clock, events } = hedged({ slow: { type: 'fake', latencyMs: 1_000 }, fast: { type: 'fake', latencyMs: 2_000 } }, { afterMs: 200, maxExtraPercent: 10 });
    const results = [];
    for (let i = 0; i < 20; i++) {
      const pending = router.chat(ask(`call ${i}`));
      await advance(clock, 200);
      await advance(clock, 800);
      results.push(await pending);
    }
    // 10% of calls, this one counted: the 10th call is the first that may hedge, the 20th the second.
    expect(results.map((r, i) => (r.hedged ? i + 1 : 0)).filter(Boolean)).toEqual([10, 20]);
    expect(events.hedge).toHaveLength(2);
    // Older than 10 s, the counts are forgotten: the budget starts again.
    expect(results.every((r) => r.provider === 'slow')).toBe(true);
  });

  it('hedges after the first step\'s recent p95 once it has 20 answers, before that after afterMs', async () => {
    const latencies = [...Array.from({ length: 19 }, () => 100), 120];
    const { router, clock, events } = hedged({
      slow: { type: 'fake', script: [...latencies.map((latencyMs) => ({ latencyMs })), { latencyMs: 1_000 }] },
      fast: { type: 'fake', latencyMs: 10 },
    }, { percentile: 95, afterMs: 500, maxExtraPercent: 100 });
    for (const ms of latencies) {
      const pending = router.chat(ask());
      await advance(clock, ms);
      expect((await pending).provider).toBe('slow');
    }
    expect(events.hedge).toEqual([]);
    const pending = router.chat(ask());
    await advance(clock, 100);
    expect(events.hedge).toEqual([expect.objectContaining({ afterMs: 100 })]);
    await advance(clock, 10);
    expect(await pending).toMatchObject({ provider: 'fast', hedged: true });
  });
});

describe('a hedged stream', () => {
  async function collect(router: Router): Promise<StreamEvent[]> {
    const out: StreamEvent[] = [];
    for await (const e of router.stream(ask())) out.push(e);
    return out;
  }

  it('hedges before its first token: the hedge streams, and the slow stream is aborted before it showed anything', async () => {
    const { router, clock, sent } = hedged({ slow: { type: 'fake', latencyMs: 1_500 }, fast: { type: 'fake', latencyMs: 50 } });
    const pending = collect(router);
    await advance(clock, 200);
    await advance(clock, 50);
    const events = await pending;
    expect(events[0]).toMatchObject({ type: 'start', provider: 'fast' });
    const done = events.at(-1) as Extract<StreamEvent, { type: 'done' }>;
    expect(done.type).toBe('done');
    expect(done.result).toMatchObject({ provider: 'fast', hedged: true });
    expect(trail(done.result)).toEqual([['fast', true, undefined, true], ['slow', false, 'aborted', false]]);
    expect([sent('slow'), sent('fast')]).toEqual([1, 1]);
  });

  it('never hedges once the first token is shown: a stream that committed and then stalls is not raced', async () => {
    const { router, clock, sent, events } = hedged({ slow: { type: 'fake', latencyMs: 10 }, fast: { type: 'fake', latencyMs: 10 } });
    const out = await (async () => {
      const pending = collect(router);
      await advance(clock, 10);
      await advance(clock, 1_000);
      return pending;
    })();
    expect(out[0]).toMatchObject({ type: 'start', provider: 'slow' });
    expect(sent('fast')).toBe(0);
    expect(events.hedge).toEqual([]);
  });
});

describe('hedge config', () => {
  it('refuses a hedge on a chain with one target, and a hedge with neither afterMs nor percentile, naming the field', () => {
    const providers = { a: { type: 'fake' as const } };
    expect(() => createRouter({ providers, chains: { default: { steps: ['a:m'], hedge: { afterMs: 100 } } } })).toThrow(/chains\.default\.hedge: a hedge needs a second step or pool member/);
    expect(() => createRouter({ providers, chains: { default: { steps: ['a:m', 'a:n'], hedge: {} } } })).toThrow(/chains\.default\.hedge: a hedge needs afterMs, percentile or both/);
    expect(() => createRouter({ providers, chains: { default: { steps: ['a:m', 'a:n'], hedge: { afterMs: 100, maxExtraPercent: 0 } } } })).toThrow(/chains\.default\.hedge\.maxExtraPercent/);
  });

  it('takes a hedge to the next member of a pool', async () => {
    const clock = new VirtualClock({ autoAdvance: false });
    const router = createRouter({
      providers: { one: { type: 'fake', latencyMs: 1_000 }, two: { type: 'fake', latencyMs: 10 } },
      chains: { default: { steps: [{ pool: ['one:m', 'two:m'], pick: 'round_robin' }], hedge: { afterMs: 100, maxExtraPercent: 100 } } },
    }, { logger: captureLogger().logger, clock });
    closers.push(() => router.close());
    const pending = router.chat(ask());
    await advance(clock, 100);
    await advance(clock, 10);
    expect(await pending).toMatchObject({ provider: 'two', hedged: true });
  });
});
