import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../src/testing/virtual-clock.js';
import { waitWithin } from '../src/time/wait-within.js';

const errors = { aborted: (reason: unknown) => new Error(`aborted: ${String(reason)}`), timedOut: () => new Error('timed out') };

describe('waiting for work on behalf of a caller who did not start it', () => {
  it('resolves with the work and leaves no timer behind', async () => {
    const clock = new VirtualClock({ autoAdvance: false });
    const value = await waitWithin(Promise.resolve(42), { clock, inMs: 1_000, ...errors });
    expect(value).toBe(42);
    expect(clock.pendingTimers).toBe(0);
  });

  it('rejects with the caller\'s timeout when its deadline passes first, while the work goes on', async () => {
    const clock = new VirtualClock({ autoAdvance: false });
    let finish!: (v: number) => void;
    const work = new Promise<number>((resolve) => (finish = resolve));
    const waiting = waitWithin(work, { clock, inMs: 500, ...errors }).catch((err: Error) => err.message);
    await clock.advance(499);
    await clock.advance(1);
    expect(await waiting).toBe('timed out');
    finish(1);
    expect(await work).toBe(1);
  });

  it('rejects at once when the caller aborts, and removes its listener and timer', async () => {
    const clock = new VirtualClock({ autoAdvance: false });
    const controller = new AbortController();
    const waiting = waitWithin(new Promise(() => {}), { clock, signal: controller.signal, inMs: 10_000, ...errors }).catch((err: Error) => err.message);
    controller.abort('bye');
    expect(await waiting).toBe('aborted: bye');
    expect(clock.pendingTimers).toBe(0);
  });

  it('refuses to wait with a signal already aborted or no time left', async () => {
    const clock = new VirtualClock({ autoAdvance: false });
    await expect(waitWithin(Promise.resolve(1), { clock, signal: AbortSignal.abort('gone'), inMs: 10, ...errors })).rejects.toThrow('aborted: gone');
    await expect(waitWithin(Promise.resolve(1), { clock, inMs: 0, ...errors })).rejects.toThrow('timed out');
  });

  it('passes the work\'s own failure through', async () => {
    const clock = new VirtualClock({ autoAdvance: false });
    await expect(waitWithin(Promise.reject(new Error('upstream said no')), { clock, inMs: Infinity, ...errors })).rejects.toThrow('upstream said no');
  });
});
