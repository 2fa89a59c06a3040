import { describe, expect, it } from 'vitest';
import { FairQueue, type Waiter } from '../src/policy/admission/fair-queue.js';
import type { BudgetGrant } from '../src/store/state-store.js';
import { VirtualClock } from './support/virtual-clock.js';

/** A budget of `free` slots the queue hands out; `release()` frees one and notifies. */
function harness(free: number, pollMs?: number) {
  const queue = new FairQueue(new VirtualClock(), pollMs);
  const served: string[] = [];
  let slots = free;
  const waiter = (tenant: string, share = 1): Waiter & { result?: BudgetGrant } => {
    const w: Waiter & { result?: BudgetGrant } = {
      tenant, share, done: false,
      attempt: () => (slots > 0 ? (slots--, { ok: true }) : { ok: false, reason: 'concurrency' }),
      settle: (grant) => {
        w.done = true;
        w.result = grant;
        served.push(tenant);
      },
      undo: () => {
        slots++;
      },
    };
    return w;
  };
  const release = async () => {
    slots++;
    queue.notify();
    await new Promise((r) => setImmediate(r));
  };
  return { queue, served, waiter, release };
}

describe('FairQueue', () => {
  it('serves one tenant first come, first served', async () => {
    const { queue, waiter, release } = harness(0);
    const ws = [waiter('a'), waiter('a'), waiter('a')];
    ws.forEach((w) => queue.enqueue(w));
    await release();
    expect(ws.map((w) => Boolean(w.result))).toEqual([true, false, false]);
    await release();
    expect(ws.map((w) => Boolean(w.result))).toEqual([true, true, false]);
  });

  it('alternates between two tenants with equal shares, however many one of them queued', async () => {
    const { queue, served, waiter, release } = harness(0);
    for (let i = 0; i < 10; i++) queue.enqueue(waiter('flood'));
    for (let i = 0; i < 3; i++) queue.enqueue(waiter('quiet'));
    for (let i = 0; i < 6; i++) await release();
    expect(served).toEqual(['flood', 'quiet', 'flood', 'quiet', 'flood', 'quiet']);
  });

  it('serves tenants in proportion to their shares', async () => {
    const { queue, served, waiter, release } = harness(0);
    for (let i = 0; i < 20; i++) queue.enqueue(waiter('one', 1));
    for (let i = 0; i < 20; i++) queue.enqueue(waiter('three', 3));
    for (let i = 0; i < 16; i++) await release();
    expect(served.filter((t) => t === 'three')).toHaveLength(12);
  });

  it('gives a tenant that arrives later no credit for the time it was idle', async () => {
    const { queue, served, waiter, release } = harness(0);
    for (let i = 0; i < 6; i++) queue.enqueue(waiter('steady'));
    for (let i = 0; i < 4; i++) await release();
    for (let i = 0; i < 6; i++) queue.enqueue(waiter('late'));
    for (let i = 0; i < 4; i++) await release();
    expect(served.slice(4)).toEqual(['late', 'steady', 'late', 'steady']);
  });

  it('forgets a removed waiter and serves the next', async () => {
    const { queue, waiter, release } = harness(0);
    const [a, b] = [waiter('a'), waiter('a')];
    queue.enqueue(a);
    queue.enqueue(b);
    a.done = true;
    queue.remove(a);
    expect(queue.size).toBe(1);
    await release();
    expect(b.result).toEqual({ ok: true });
  });

  it('gives back room granted to a waiter that left while its attempt was in flight', async () => {
    const queue = new FairQueue(new VirtualClock(), undefined);
    let slots = 1;
    let undone = 0;
    let resolveAttempt!: (g: BudgetGrant) => void;
    const w: Waiter = {
      tenant: 't', share: 1, done: false,
      attempt: () => new Promise<BudgetGrant>((r) => (resolveAttempt = r)),
      settle: () => {
        throw new Error('must not be settled');
      },
      undo: () => undone++,
    };
    queue.enqueue(w);
    w.done = true;
    queue.remove(w);
    slots--;
    resolveAttempt({ ok: true });
    await new Promise((r) => setImmediate(r));
    expect(undone).toBe(1);
    expect(slots).toBe(0);
  });

  it('retries by itself when the store says when room returns', async () => {
    const clock = new VirtualClock({ autoAdvance: false });
    const queue = new FairQueue(clock, undefined);
    let now = 0;
    const w: Waiter & { result?: BudgetGrant } = {
      tenant: 't', share: 1, done: false,
      attempt: () => (now++ < 1 ? { ok: false, reason: 'rpm', retryInMs: 20 } : { ok: true }),
      settle: (g) => {
        w.done = true;
        w.result = g;
      },
      undo: () => {},
    };
    queue.enqueue(w);
    await new Promise((r) => setImmediate(r));
    expect(clock.nextTimerInMs()).toBe(20); // one wake-up, on the queue's clock
    await clock.advance(19);
    expect(w.result).toBeUndefined();
    await clock.advance(1);
    expect(w.result).toEqual({ ok: true });
    expect(clock.pendingTimers).toBe(0);
  });

  it('clears its wake-up when the last waiter leaves', async () => {
    const clock = new VirtualClock({ autoAdvance: false });
    const queue = new FairQueue(clock, 25);
    const w: Waiter = { tenant: 't', share: 1, done: false, attempt: () => ({ ok: false, reason: 'concurrency' }), settle: () => {}, undo: () => {} };
    queue.enqueue(w);
    await new Promise((r) => setImmediate(r));
    expect(clock.nextTimerInMs()).toBe(25); // a shared store is polled
    w.done = true;
    queue.remove(w);
    expect(clock.pendingTimers).toBe(0);
  });
});
