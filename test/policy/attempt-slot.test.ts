import { afterEach, describe, expect, it, vi } from 'vitest';
import { admit } from '../../src/policy/steps/admit.js';
import type { Router } from '../../src/router.js';
import { stepBench, type StepBench } from './step-harness.js';

// One owner per attempt: the lease, the in-flight count and the breaker's pass are given back by
// one `end`, which acts once however many paths call it.

let routers: Router[] = [];
afterEach(async () => {
  for (const r of routers) await r.close();
  routers = [];
});
function bench(config?: Parameters<typeof stepBench>[0]): StepBench {
  const b = stepBench(config);
  routers.push(b.router);
  return b;
}

describe('an attempt slot', () => {
  it('ends exactly once: a second end settles nothing and counts nothing down', async () => {
    const { context } = bench({ providers: { p: { type: 'fake', limits: { concurrency: 1, maxQueueMs: 0 } } } });
    const a = context();
    await admit(a);
    const slot = a.slot!;
    const settle = vi.spyOn((slot as unknown as { lease: { settle(o: unknown): unknown } }).lease, 'settle');
    expect(a.endpoint.load.inflight).toBe(1);
    expect(slot.end({ sent: true })).toBeUndefined();
    expect(slot.end({ sent: true })).toBeUndefined();
    slot.end({ sent: false });
    expect(settle).toHaveBeenCalledTimes(1);
    expect(settle).toHaveBeenCalledWith({ sent: true });
    expect(a.endpoint.load.inflight).toBe(0);
    expect(slot.isEnded).toBe(true);
    // Its concurrency slot was freed once: one more attempt fits, a second does not.
    const b = context();
    expect(await admit(b)).toBeUndefined();
    expect(await admit(context())).toMatchObject({ ok: false, error: { kind: 'local_limit' } });
    b.slot!.end({ sent: false });
  });

  it('spends its permit on the first verdict only', async () => {
    const { context, clock } = bench();
    const a = context();
    await admit(a);
    const record = vi.spyOn(a.target.breaker, 'record');
    const throttle = vi.spyOn(a.target.throttle, 'record');
    a.slot!.judge('success', clock.now());
    a.slot!.judge('failure', clock.now());
    a.slot!.end({ sent: true });
    expect(record.mock.calls).toEqual([['closed', 'success', a.call]]);
    expect(throttle).toHaveBeenCalledTimes(1);
  });

  it('judges a committed stream that broke off once more, through the same verdict, as a pass from a closed breaker', async () => {
    const { context, clock } = bench();
    const a = context();
    await admit(a);
    const record = vi.spyOn(a.target.breaker, 'record');
    const throttle = vi.spyOn(a.target.throttle, 'record');
    a.slot!.judge('success', clock.now()); // the commit point
    a.slot!.end({ sent: true });
    a.slot!.judgeAfterCommit('failure', clock.now());
    a.slot!.judgeAfterCommit('failure', clock.now());
    expect(record.mock.calls).toEqual([['closed', 'success', a.call], ['closed', 'failure', a.call]]);
    expect(throttle.mock.calls.map(([ok]) => ok)).toEqual([true, false]);
  });

  it('hands an unjudged probe back as no verdict when it ends, so the next call may probe', async () => {
    const { context, clock } = bench({ breaker: { consecutiveFailures: 1, resetTimeoutMs: 1_000 } });
    const a = context();
    a.target.breaker.record('closed', 'failure');
    await clock.advance(1_000);
    expect(a.target.breaker.state).toBe('halfOpen');
    await admit(a); // takes the half-open probe
    expect(a.target.breaker.admits()).toBe(false);
    a.slot!.end({ sent: false });
    expect(a.target.breaker.admits()).toBe(true);
  });
});
