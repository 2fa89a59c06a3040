import { afterEach, describe, expect, it, vi } from 'vitest';
import * as refs from '../../src/observe/event-refs.js';
import { EventHub } from '../../src/observe/events.js';
import { createRouter, type Router } from '../../src/router.js';
import { captureLogger } from '../support/capture-logger.js';
import { VirtualClock } from '../support/virtual-clock.js';

// Events nobody listens to cost nothing: no payload object, no ref object, no emit call. With a
// listener, the same call yields the events it always did. The spies wrap the real builders, so the
// payloads stay real; they count how often a call builds one.
vi.mock('../../src/observe/event-refs.js', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../src/observe/event-refs.js')>();
  return { callRef: vi.fn(real.callRef), targetRef: vi.fn(real.targetRef), callEvent: vi.fn(real.callEvent), targetEvent: vi.fn(real.targetEvent) };
});

/** Payloads built for a target's event: a ref alone, or a ref with its fields (targetEvent). */
const targetPayloads = () => vi.mocked(refs.targetRef).mock.calls.length + vi.mocked(refs.targetEvent).mock.calls.length;
const callPayloads = () => vi.mocked(refs.callRef).mock.calls.length + vi.mocked(refs.callEvent).mock.calls.length;

let routers: Router[] = [];
afterEach(async () => {
  for (const r of routers) await r.close();
  routers = [];
  vi.clearAllMocks();
  vi.restoreAllMocks();
});

const ask = { messages: [{ role: 'user' as const, content: 'Say hello' }] };

/** A chain whose first target fails once with a server error: an attempt, a fallback, a second attempt and the call's end. */
function router() {
  const clock = new VirtualClock({ autoAdvance: false });
  const r = createRouter({
    providers: { first: { type: 'fake', script: [{ fail: 'server' }] }, second: { type: 'fake' } },
    chains: { default: ['first:m', 'second:m'] },
    retry: { maxAttempts: 1 },
  }, { logger: captureLogger().logger, clock });
  routers.push(r);
  return r;
}

async function callOnce(r: Router) {
  const res = await r.chat(ask);
  expect(res.provider).toBe('second');
  const parts: string[] = [];
  for await (const ev of r.stream(ask)) parts.push(ev.type);
  expect(parts[0]).toBe('start');
  expect(parts.at(-1)).toBe('done');
}

describe('events with no listener', () => {
  it('builds no event, no ref and emits nothing for a call that falls through, nor for a stream', async () => {
    const emit = vi.spyOn(EventHub.prototype, 'emit');
    const r = router();
    await callOnce(r);
    expect(emit).not.toHaveBeenCalled();
    expect(targetPayloads()).toBe(0);
    expect(callPayloads()).toBe(0);
  });

  it('builds only the events listened to, and a removed listener turns them off again', async () => {
    const emit = vi.spyOn(EventHub.prototype, 'emit');
    const r = router();
    const seen: unknown[] = [];
    const off = r.on('fallback', (e) => seen.push(e));
    await callOnce(r);
    expect(emit.mock.calls.map((c) => c[0])).toEqual(['fallback']);
    expect(targetPayloads()).toBe(1);
    expect(seen).toHaveLength(1);
    off();
    emit.mockClear();
    await r.chat(ask);
    expect(emit).not.toHaveBeenCalled();
  });

  it('with listeners, reports the same events as always, field for field', async () => {
    const r = router();
    const seen: Array<[string, unknown]> = [];
    for (const name of ['attempt', 'fallback', 'call'] as const) r.on(name, (e) => seen.push([name, e]));
    const res = await r.chat(ask);
    const ref = { callId: expect.any(String), tenant: 'default', chain: 'default', operation: 'chat' };
    expect(seen).toEqual([
      ['attempt', { ...ref, provider: 'first', model: 'm', attempt: 1, ok: false, kind: 'server', status: 503, code: undefined, latencyMs: 0, requestId: 'fake_first_1', startedAtMs: expect.any(Number), usage: undefined, costUsd: undefined, responseModel: undefined }],
      ['fallback', { ...ref, provider: 'first', model: 'm', kind: 'server', to: { provider: 'second', model: 'm' }, coolingMs: undefined }],
      ['attempt', { ...ref, provider: 'second', model: 'm', attempt: 1, ok: true, kind: undefined, status: undefined, code: undefined, latencyMs: 0, requestId: expect.any(String), startedAtMs: expect.any(Number), usage: res.usage, costUsd: undefined, responseModel: 'm' }],
      ['call', { ...ref, outcome: 'ok', provider: 'second', model: 'm', responseModel: 'm', usage: res.usage, startedAtMs: expect.any(Number), latencyMs: 0, attempts: res.attempts }],
    ]);
    const ids = new Set(seen.map(([, e]) => (e as { callId: string }).callId));
    expect(ids.size).toBe(1);
  });
});
