import { afterEach, describe, expect, it, vi } from 'vitest';
import { RouterError, isRouterError } from '../../src/errors.js';
import { admit } from '../../src/policy/steps/admit.js';
import { decide } from '../../src/policy/steps/decide.js';
import { gate } from '../../src/policy/steps/gate.js';
import { recordOutcome } from '../../src/policy/steps/record-outcome.js';
import { sendAttempt } from '../../src/policy/steps/send-attempt.js';
import type { Router } from '../../src/router.js';
import { fakeRequests } from '../../src/testing/index.js';
import { stepBench, streamStepKind, type StepBench } from './step-harness.js';

// One test group per step of the per-target pipeline (src/policy/steps/run-target.ts): each step is
// called alone on a context built the way runTarget builds it, and what it says and leaves is checked.

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

describe('gate', () => {
  it('lets an open target through (undefined) without touching the call', () => {
    const { context } = bench();
    const a = context();
    expect(gate(a)).toBeUndefined();
    expect(a.call.attempts).toEqual([]);
  });

  it('skips a cooling endpoint without a request, saying when it accepts again', async () => {
    const { context, rt, clock } = bench();
    const a = context();
    await rt.store.setBlock(a.endpoint.coolingKey, { reason: 'cooling', untilMs: clock.now() + 3_000, cause: 'rate_limit_exceeded' }, clock.now());
    const out = await gate(a);
    expect(out).toMatchObject({ ok: false, availableInMs: 3_000, error: { kind: 'rate_limited', code: 'rate_limit_exceeded' } });
    expect(a.call.attempts).toEqual([{ provider: 'p', model: 'm', ok: false, kind: 'rate_limited', skipped: true, latencyMs: 0, code: 'rate_limit_exceeded' }]);
  });

  it('skips a target whose breaker is open', async () => {
    const { context } = bench({ breaker: { consecutiveFailures: 1 } });
    const a = context();
    a.target.breaker.record('closed', 'failure');
    expect(await gate(a)).toMatchObject({ ok: false, error: { kind: 'circuit_open' } });
  });
});

describe('admit', () => {
  it('takes a slot: the endpoint counts one attempt in flight, and the estimate is kept', async () => {
    const { context } = bench();
    const a = context();
    expect(await admit(a)).toBeUndefined();
    expect(a.slot).toBeDefined();
    expect(a.endpoint.load.inflight).toBe(1);
    expect(a.tokens).toMatchObject({ input: expect.any(Number) });
    a.slot!.end({ sent: false });
    expect(a.endpoint.load.inflight).toBe(0);
  });

  it('skips the target when its budget is full and waiting is not allowed', async () => {
    const { context } = bench({ providers: { p: { type: 'fake', limits: { concurrency: 1, maxQueueMs: 0 } } } });
    const first = context();
    await admit(first);
    const second = context();
    expect(await admit(second)).toMatchObject({ ok: false, error: { kind: 'local_limit', code: 'concurrency' } });
    expect(second.slot).toBeUndefined();
    expect(second.endpoint.load.inflight).toBe(1); // only the first
    first.slot!.end({ sent: false });
  });

  it('sends nothing for a call aborted by then, and gives its room back', async () => {
    const { context } = bench({ providers: { p: { type: 'fake', limits: { concurrency: 1 } } } });
    const controller = new AbortController();
    controller.abort();
    const a = context({ request: { signal: controller.signal } });
    await expect(Promise.resolve().then(() => admit(a))).rejects.toMatchObject({ kind: 'aborted' });
    expect(a.endpoint.load.inflight).toBe(0);
    // The concurrency slot it held is free again.
    const b = context();
    expect(await admit(b)).toBeUndefined();
    b.slot!.end({ sent: false });
  });
});

describe('sendAttempt', () => {
  it('sends one request and notes the value; it never throws', async () => {
    const { context, router } = bench();
    const a = context();
    await admit(a);
    expect(await sendAttempt(a)).toBeUndefined();
    expect(a.value).toMatchObject({ text: expect.any(String), requestId: 'fake_p_1' });
    expect(a.error).toBeUndefined();
    expect(fakeRequests(router, 'p')).toHaveLength(1);
    a.slot!.end({ sent: true });
  });

  it('notes a failure as the error, and an attempt cut by its timeout with its cause', async () => {
    const { context, clock } = bench({ providers: { p: { type: 'fake', timeoutMs: 1_000, script: [{ fail: 'server' }, 'hang'] } } });
    const a = context();
    await admit(a);
    await sendAttempt(a);
    expect(a.error).toMatchObject({ kind: 'server', status: 503 });
    expect(a.cause).toBeUndefined();
    const sending = sendAttempt(a);
    await clock.advance(1_000);
    await sending;
    expect(a.error).toMatchObject({ kind: 'timeout', message: 'p:m: attempt timed out after 1000 ms' });
    expect(a.cause).toBe('attempt_timeout');
    a.slot!.end({ sent: true });
  });
});

describe('recordOutcome', () => {
  it('records an answer: the attempt, its verdict, and the slot ended for a chat', async () => {
    const { context } = bench();
    const a = context();
    await admit(a);
    await sendAttempt(a);
    const record = vi.spyOn(a.target.breaker, 'record');
    a.waitedMs = 212.83452;
    expect(await recordOutcome(a)).toBeUndefined();
    expect(a.call.attempts).toEqual([expect.objectContaining({ provider: 'p', ok: true, requestId: 'fake_p_1', waitedMs: 213 })]);
    expect(record).toHaveBeenCalledTimes(1);
    expect(record).toHaveBeenCalledWith('closed', 'success', a.call);
    expect(a.slot!.isEnded).toBe(true);
    expect(a.endpoint.load.inflight).toBe(0);
  });

  it('leaves a committed stream holding its slot, still in flight', async () => {
    const { context } = bench();
    const a = context({ kind: streamStepKind });
    await admit(a);
    await sendAttempt(a);
    await recordOutcome(a);
    expect(a.slot!.isEnded).toBe(false);
    expect(a.endpoint.load.inflight).toBe(1);
    a.value!.scope.dispose();
    await a.value!.events.return?.(undefined);
    a.slot!.end({ sent: true });
    expect(a.endpoint.load.inflight).toBe(0);
  });
});

describe('decide', () => {
  it('ends the target on an answer; only a stream hands its slot on', async () => {
    const { context } = bench();
    const a = context();
    a.value = { text: 'hi', toolCalls: [], finishReason: 'stop', model: 'm' };
    expect(decide(a)).toEqual({ ok: true, value: a.value, slot: undefined });
  });

  it('waits out a retryable failure on the router clock and asks for a retry', async () => {
    // The bench's random() is 0: the first retry waits half of baseDelayMs.
    const { context, clock } = bench({ retry: { maxAttempts: 2, baseDelayMs: 500, maxDelayMs: 500 } });
    const a = context();
    a.error = new RouterError('server', 'p 503 server', { status: 503 });
    const t0 = clock.now();
    expect(await decide(a)).toBe('retry');
    expect(clock.now() - t0).toBe(250);
    expect(a.waitedMs).toBe(250);
  });

  it('throws a caller fault at once, and falls through after the last attempt', async () => {
    const { context } = bench();
    const a = context();
    a.error = new RouterError('bad_request', 'p 400 bad_request', { status: 400 });
    const thrown = await Promise.resolve(decide(a)).catch((err: unknown) => err);
    expect(isRouterError(thrown) && thrown.kind).toBe('bad_request');
    const b = context();
    b.attempt = 2;
    b.error = new RouterError('server', 'p 503 server', { status: 503 });
    expect(await decide(b)).toMatchObject({ ok: false, error: { kind: 'server' } });
  });
});
