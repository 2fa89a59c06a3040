import { afterEach, describe, expect, it } from 'vitest';
import { createRouter, type Router } from '../../src/router.js';
import { fakeRequests, queuedCalls } from '../../src/testing/index.js';
import { captureLogger } from '../support/capture-logger.js';
import { VirtualClock } from '../support/virtual-clock.js';

// A pool picks by headroom, and a member's concurrency headroom is `concurrency - inflight`. A
// stream holds its budget slot until its last chunk, so it must count as in flight until then too.

let routers: Router[] = [];
afterEach(async () => {
  for (const r of routers) await r.close();
  routers = [];
});

const ask = { messages: [{ role: 'user' as const, content: 'Say hello' }] };

function pool() {
  const clock = new VirtualClock({ autoAdvance: false });
  const router = createRouter({
    providers: {
      east: { type: 'fake', limits: { concurrency: 1, maxQueueMs: 5_000 } },
      west: { type: 'fake', limits: { concurrency: 1, maxQueueMs: 5_000 } },
    },
    chains: { default: [{ pool: ['east:m', 'west:m'] }] },
  }, { logger: captureLogger().logger, clock });
  routers.push(router);
  return { router, clock };
}

describe('a committed stream in a pool', () => {
  it('counts as in flight while it lives: the next call goes to the member with a free slot, without queueing', async () => {
    const { router, clock } = pool();
    const held = router.stream(ask)[Symbol.asyncIterator]();
    const start = await held.next();
    expect(start.value).toMatchObject({ type: 'start', provider: 'east' });

    const t0 = clock.now();
    const pending = router.chat(ask);
    // Nothing waits in east's queue behind the live stream, and no virtual time is needed.
    expect(queuedCalls(router)).toBe(0);
    const result = await pending;
    expect(result.provider).toBe('west');
    expect(result.attempts).toEqual([expect.objectContaining({ provider: 'west', ok: true })]);
    expect(clock.now()).toBe(t0);
    expect([fakeRequests(router, 'east').length, fakeRequests(router, 'west').length]).toEqual([1, 1]);
    await held.return?.(undefined);
  });

  it('stops counting once it ended: the next call goes to the first member again', async () => {
    const { router } = pool();
    for await (const _ of router.stream(ask)) { /* read to the end */ }
    const result = await router.chat(ask);
    expect(result.provider).toBe('east');
  });
});
