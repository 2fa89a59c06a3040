import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SwitchyardConfig } from '../../src/config/index.js';
import type { RouterEvents } from '../../src/observe/events.js';
import { ANTHROPIC_PATH, OPENAI_PATH, anthropicOk, openaiOk } from '../support/fixtures.js';
import { gate, until } from '../support/until.js';
import { startUpstream, type Upstream } from '../support/upstream.js';
import { VirtualClock } from '../support/virtual-clock.js';
import { ANTHROPIC_KEY, OPENAI_KEY, ask, wireRouter } from '../support/wire-router.js';

// Hedging over the wire: the real SDKs against a loopback upstream, the hedge delay on a virtual
// clock. The loser's request must be aborted at the upstream (its connection closed before the
// answer), and what it held in the router given back (its concurrency slot, the router's in-flight count).

let up: Upstream;
let gates: Array<() => void> = [];
let closers: Array<() => Promise<void>> = [];
beforeEach(async () => {
  up = await startUpstream();
});
afterEach(async () => {
  for (const open of gates) open();
  for (const c of closers) await c();
  gates = [];
  closers = [];
  await up.close();
});

function hedgedRouter() {
  const clock = new VirtualClock({ autoAdvance: false });
  const limits = { concurrency: 1, maxQueueMs: 0 };
  const { router } = wireRouter(up, {
    providers: {
      openai: { type: 'openai', apiKey: OPENAI_KEY, baseURL: `${up.url}/v1`, timeoutMs: 60_000, limits },
      anthropic: { type: 'anthropic', apiKey: ANTHROPIC_KEY, baseURL: up.url, timeoutMs: 60_000, limits },
    },
    chains: { default: { steps: ['openai:gpt-4o-mini', 'anthropic:claude-sonnet-4-6'], hedge: { afterMs: 200, maxExtraPercent: 100 } }, 'anthropic-only': ['anthropic:claude-sonnet-4-6'] } as unknown as SwitchyardConfig['chains'],
    retry: { maxAttempts: 1 },
  }, { clock, timeoutMs: 60_000 });
  closers.push(() => router.close());
  const hedges: Array<RouterEvents['hedge']> = [];
  router.on('hedge', (e) => hedges.push(e));
  const held = () => {
    const g = gate();
    gates.push(g.open);
    return g;
  };
  return { router, clock, hedges, held };
}

const trail = (r: { attempts: ReadonlyArray<{ provider: string; ok: boolean; kind?: string; hedge?: true }> }) => r.attempts.map((a) => [a.provider, a.ok, a.kind, a.hedge ?? false]);

describe('a hedged chain over the wire (virtual clock)', () => {
  it('aborts the slow first attempt at the upstream when the hedge wins, and gives its concurrency slot back', async () => {
    const { router, clock, hedges, held } = hedgedRouter();
    const slow = held();
    up.script(OPENAI_PATH, { ...openaiOk(), heldUntil: slow.promise } as never);
    const pending = router.chat(ask());
    await until(() => up.count(OPENAI_PATH) === 1, 'the first attempt at the upstream');
    // Before the hedge delay nothing else is sent, however long the upstream takes.
    await clock.advance(199);
    expect(up.count(ANTHROPIC_PATH)).toBe(0);
    await clock.advance(1);
    const result = await pending;
    expect(result).toMatchObject({ provider: 'anthropic', hedged: true });
    expect(hedges).toHaveLength(1);
    // The loser: its request was sent once, and its connection closed before the answer was written.
    await until(() => up.inFlight === 0, 'the aborted request to close at the upstream');
    expect([up.count(OPENAI_PATH), up.count(ANTHROPIC_PATH)]).toEqual([1, 1]);
    expect(up.abandoned).toBe(1);
    expect(trail(result)).toEqual([['anthropic', true, undefined, true], ['openai', false, 'aborted', false]]);
    // Its only concurrency slot came back: the next call goes to openai at once (a held slot would
    // skip it as local_limit with maxQueueMs 0), answers before the delay, and sends no hedge.
    const next = router.chat(ask('again'));
    expect((await next).provider).toBe('openai');
    expect(up.count(OPENAI_PATH)).toBe(2);
    expect(hedges).toHaveLength(1);
    expect(router.breakerStates().openai).toBe('closed');
  });

  it('aborts the hedge at the upstream when the first attempt answers first, and gives the hedge target\'s slot back', async () => {
    const { router, clock, held } = hedgedRouter();
    const first = held();
    const second = held();
    up.script(OPENAI_PATH, { ...openaiOk(), heldUntil: first.promise } as never);
    up.script(ANTHROPIC_PATH, { ...anthropicOk(), heldUntil: second.promise } as never);
    const pending = router.chat(ask());
    await until(() => up.count(OPENAI_PATH) === 1, 'the first attempt at the upstream');
    await clock.advance(200);
    await until(() => up.count(ANTHROPIC_PATH) === 1, 'the hedge at the upstream');
    expect(up.inFlight).toBe(2);
    first.open();
    const result = await pending;
    expect(result).toMatchObject({ provider: 'openai', hedged: true });
    await until(() => up.inFlight === 0, 'the aborted hedge to close at the upstream');
    expect(up.abandoned).toBe(1);
    await until(() => result.attempts.length === 2, 'the hedge\'s aborted attempt in the result');
    expect(trail(result)).toEqual([['openai', true, undefined, false], ['anthropic', false, 'aborted', true]]);
    // Anthropic's only slot is free again: a call that starts there (its own chain) is not refused.
    const direct = await router.chat({ ...ask('direct'), chain: 'anthropic-only' }).catch((e: unknown) => e);
    expect(direct).toMatchObject({ provider: 'anthropic' });
    expect(up.count(ANTHROPIC_PATH)).toBe(2);
  });
});
