import { afterEach, describe, expect, it } from 'vitest';
import { mulberry32 } from '../../providers/shared/answers/prng.js';
import type { SwitchyardConfig } from '../../src/config/index.js';
import type { RouterEvents } from '../../src/observe/events.js';
import { createRouter, type RouterOptions } from '../../src/router.js';
import { adapterOf, fakeRequests } from '../../src/testing/index.js';
import { captureLogger } from '../support/capture-logger.js';
import { VirtualClock } from '../support/virtual-clock.js';

// Shadow traffic (docs/routing.md, "Shadow traffic"): time moves only when a test advances it, so
// each test says exactly when a shadow's request is sent, against the caller's answer.

const ask = (content = 'What is the capital of France?') => ({ messages: [{ role: 'user' as const, content }] });
let closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const c of closers.reverse()) await c();
  closers = [];
});

const turns = async (n = 20) => {
  for (let i = 0; i < n; i++) await new Promise<void>((r) => setImmediate(r));
};

async function advance(clock: VirtualClock, ms: number) {
  await turns();
  await clock.advance(ms);
  await turns();
}

function shadowed(providers: SwitchyardConfig['providers'], shadow: Record<string, unknown>, options: RouterOptions = {}, extra: Partial<SwitchyardConfig> = {}) {
  const clock = new VirtualClock({ autoAdvance: false });
  const router = createRouter({
    providers,
    chains: { default: { steps: ['prod:m'], shadow: Object.assign({ targets: ['cand:m'], percent: 100 }, shadow) } } as unknown as SwitchyardConfig['chains'],
    retry: { maxAttempts: 1 },
    ...extra,
  }, Object.assign({ logger: captureLogger().logger, clock }, options));
  closers.push(() => router.close());
  const events: RouterEvents['shadow'][] = [];
  router.on('shadow', (e) => events.push(e));
  const sent = (p: string) => fakeRequests(router, p).length;
  return { router, clock, events, sent };
}

const answers = (text: string, latencyMs: number) => ({ type: 'fake' as const, latencyMs, respond: () => ({ text }) });

describe('shadow traffic', () => {
  it("sends the shadow only after the caller's answer resolved, and scores its agreement into the event", async () => {
    const { router, clock, events, sent } = shadowed({ prod: answers('Paris is the capital.', 50), cand: answers('The capital is Paris.', 120) }, {});
    const pending = router.chat(ask());
    // What the shadow target had been sent at the moment the caller's answer resolved.
    const sentAtAnswer = pending.then(() => sent('cand'));
    await advance(clock, 50);
    const result = await pending;
    expect(result).toMatchObject({ provider: 'prod', text: 'Paris is the capital.', latencyMs: 50 });
    expect(await sentAtAnswer).toBe(0);
    expect([sent('prod'), sent('cand')]).toEqual([1, 1]);
    expect(events).toEqual([]);
    await advance(clock, 120);
    expect(events).toEqual([{
      callId: expect.any(String), tenant: 'default', chain: 'default', operation: 'chat',
      real: { provider: 'prod', model: 'm', latencyMs: 50 },
      provider: 'cand', model: 'm', outcome: 'ok', latencyMs: 120,
      // {paris, is, the, capital} both ways: the same tokens, other words' order.
      agreement: { equal: false, similarity: 1 },
    }]);
    expect(sent('prod')).toBe(1);
  });

  it('never sends a shadow when the caller\'s call failed', async () => {
    const { router, clock, events, sent } = shadowed({ prod: { type: 'fake', script: [{ fail: 'bad_request' }] }, cand: answers('x', 10) }, {});
    await expect(router.chat(ask())).rejects.toMatchObject({ kind: 'bad_request' });
    await advance(clock, 10_000);
    expect([sent('prod'), sent('cand')]).toEqual([1, 0]);
    expect(events).toEqual([]);
  });

  it("keeps a shadow's failure from the caller: the caller's answer is the real one, the event names the error", async () => {
    const { router, clock, events, sent } = shadowed({ prod: answers('fine', 0), cand: { type: 'fake', script: [{ fail: 'server', status: 503 }] } }, {});
    const result = await router.chat(ask());
    expect(result).toMatchObject({ provider: 'prod', text: 'fine', attempts: [expect.objectContaining({ provider: 'prod', ok: true })] });
    expect(result.attempts).toHaveLength(1);
    await advance(clock, 0);
    await advance(clock, 0);
    expect(sent('cand')).toBe(1);
    expect(events).toEqual([expect.objectContaining({ provider: 'cand', outcome: 'error', kind: 'server' })]);
    expect(events[0]!.agreement).toBeUndefined();
  });

  it("drops a shadow whose target's budget is full instead of queueing it", async () => {
    const { router, clock, events, sent } = shadowed({ prod: answers('a', 0), cand: { type: 'fake', latencyMs: 1_000, limits: { concurrency: 1 } } }, {});
    await router.chat(ask());
    await advance(clock, 0);
    expect(sent('cand')).toBe(1);
    // The second copy finds the candidate's one slot taken: dropped, never sent, never waiting.
    await router.chat(ask());
    await advance(clock, 0);
    expect(sent('cand')).toBe(1);
    expect(events).toEqual([expect.objectContaining({ outcome: 'dropped', dropped: 'budget', provider: 'cand' })]);
    await advance(clock, 1_000);
    expect(events.map((e) => e.outcome)).toEqual(['dropped', 'ok']);
    expect(sent('cand')).toBe(1);
  });

  it('drops a shadow beyond maxInFlight first, before its budget is asked', async () => {
    const { router, clock, events, sent } = shadowed({ prod: answers('a', 0), cand: { type: 'fake', latencyMs: 1_000 } }, { maxInFlight: 1 });
    await router.chat(ask());
    await router.chat(ask());
    expect(events).toEqual([expect.objectContaining({ outcome: 'dropped', dropped: 'load' })]);
    await advance(clock, 0);
    expect(sent('cand')).toBe(1);
    await advance(clock, 1_000);
    expect(events.map((e) => e.dropped ?? e.outcome)).toEqual(['load', 'ok']);
  });

  it('sends exactly the sampled share for a seed: one draw of the router\'s random per call', async () => {
    const { router, clock, sent } = shadowed({ prod: answers('a', 0), cand: answers('a', 0) }, { percent: 10, maxInFlight: 1_000 }, { random: mulberry32(7) });
    const replay = mulberry32(7);
    let expected = 0;
    for (let i = 0; i < 200; i++) {
      if (replay() < 0.1) expected++;
      await router.chat(ask());
    }
    await advance(clock, 0);
    await advance(clock, 0);
    expect(sent('prod')).toBe(200);
    expect(expected).toBeGreaterThan(5);
    expect(sent('cand')).toBe(expected);
  });

  it('copies a stream after its done event, as a chat call, and never an unfinished one', async () => {
    const { router, clock, events, sent } = shadowed({ prod: answers('streamed answer', 0), cand: answers('streamed answer', 0) }, {});
    // Counts the candidate's stream requests: the copy must be a chat request.
    const cand = adapterOf(router, 'cand');
    let streamed = 0;
    const stream = cand.stream.bind(cand);
    cand.stream = (...args: Parameters<typeof stream>) => {
      streamed++;
      return stream(...args);
    };
    const seen: string[] = [];
    for await (const e of router.stream(ask())) {
      seen.push(e.type);
      if (e.type === 'done') expect(sent('cand')).toBe(0);
    }
    expect(seen.at(-1)).toBe('done');
    expect(sent('cand')).toBe(0);
    await advance(clock, 0);
    await advance(clock, 0);
    expect(sent('cand')).toBe(1);
    expect(streamed).toBe(0);
    expect(events).toEqual([expect.objectContaining({ operation: 'stream', outcome: 'ok', agreement: { equal: true, similarity: 1 } })]);
  });

  it('close() aborts a shadow in flight, emits its event as dropped, and resolves', async () => {
    const { router, clock, events, sent } = shadowed({ prod: answers('a', 0), cand: answers('b', 60_000) }, {});
    await router.chat(ask());
    await advance(clock, 0);
    expect(sent('cand')).toBe(1);
    await router.close();
    expect(events).toEqual([expect.objectContaining({ outcome: 'dropped', dropped: 'closed' })]);
    await advance(clock, 60_000);
    expect(events).toHaveLength(1);
  });

  it('close() drops a shadow not started yet: nothing is sent', async () => {
    const { router, clock, events, sent } = shadowed({ prod: answers('a', 0), cand: answers('b', 0) }, {});
    await router.chat(ask());
    await router.close();
    await advance(clock, 0);
    expect(sent('cand')).toBe(0);
    expect(events).toEqual([expect.objectContaining({ outcome: 'dropped', dropped: 'closed' })]);
  });
});
