import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import type { ChatRequest } from '../../src/types.js';
import { adapterOf } from '../../src/testing/index.js';
import { startUpstream, type Upstream } from '../support/upstream.js';
import { rejectionOf, wireRouter } from '../support/wire-router.js';

// Whatever fails before a request leaves the process is the caller's error: `invalid_request`
// naming the parameter, nothing sent, no breaker verdict, no cooling, no fall-through. One failure
// is injected at each step before the wire; the breaker opens on one counted failure, so a
// miscounted one would show.

let up: Upstream;
let close: (() => Promise<void>) | undefined;
beforeEach(async () => {
  up = await startUpstream();
});
afterEach(async () => {
  await close?.();
  close = undefined;
  await up.close();
});

// Validation refuses a body this deep first (input.maxDepth, docs/limits-on-input.md); with the bound
// raised past it, these tests reach the steps below validation that must still blame the caller.
const UNBOUNDED = { maxDepth: 1_000_000, maxChars: 1_000_000_000 };

function setup() {
  const r = wireRouter(up, { breaker: { consecutiveFailures: 1 }, retry: { maxAttempts: 2, baseDelayMs: 1, maxDelayMs: 2 }, input: UNBOUNDED });
  close = () => r.router.close();
  return r;
}

const hello = [{ role: 'user' as const, content: 'Say hello' }];
/** A value whose JSON encoding throws, as a body nested too deep does inside the SDK. */
const unencodable = () => ({ toJSON() {
  throw new RangeError('Maximum call stack size exceeded');
} });
function nested(depth: number): Record<string, unknown> {
  let v: Record<string, unknown> = { leaf: true };
  for (let i = 0; i < depth; i++) v = { a: v };
  return v;
}

/** The call failed as the caller's, sent nothing, and left the target closed and cool: the next call answers from it. */
async function expectCallerFault(r: ReturnType<typeof setup>, err: any, param: string | undefined, step: RegExp) {
  expect(err).toMatchObject({ kind: 'invalid_request', provider: 'openai', model: 'gpt-4o-mini' });
  expect(err.param).toBe(param);
  expect(err.message).toMatch(step);
  expect(err.message).toMatch(/nothing was sent/);
  expect([r.openai(), r.anthropic()]).toEqual([0, 0]);
  expect(r.router.breakerStates()).toEqual({ openai: 'closed', anthropic: 'closed' });
  expect(err.attempts).toEqual([{ provider: 'openai', model: 'gpt-4o-mini', ok: false, kind: 'invalid_request', skipped: true, latencyMs: 0 }]);
  const next = await r.router.chat({ messages: hello });
  expect(next.provider).toBe('openai');
  expect(next.attempts).toHaveLength(1);
  expect(r.openai()).toBe(1);
}

describe('a failure before the request leaves the process', () => {
  it('serialising the body (the SDK\'s JSON.stringify throws): invalid_request naming the field', async () => {
    const r = setup();
    const err = await rejectionOf(r.router.chat({ messages: hello, providerOptions: { openai: { metadata: unencodable() } } }));
    await expectCallerFault(r, err, 'providerOptions.openai.metadata', /could not be encoded/);
  });

  it('serialising a body nested 100,000 levels deep', async () => {
    const r = setup();
    const err = await rejectionOf(r.router.chat({ messages: hello, providerOptions: { openai: { metadata: nested(100_000) } } }));
    await expectCallerFault(r, err, 'providerOptions.openai.metadata', /could not be encoded/);
    expect(err.cause).toBeDefined();
  });

  it('converting a schema (the zod converter throws)', async () => {
    const r = setup();
    const parameters = z.object({ city: z.string() }).meta({ get examples(): never {
      throw new Error('examples unavailable');
    } } as Record<string, unknown>);
    const err = await rejectionOf(r.router.chat({ messages: hello, tools: [{ name: 'weather', parameters }] }));
    await expectCallerFault(r, err, 'tools[0].parameters', /could not be built/);
  });

  it('estimating its tokens (a tool schema that cannot be encoded)', async () => {
    const r = setup();
    const parameters = { type: 'object', properties: { city: unencodable() } } as unknown as Record<string, unknown>;
    const err = await rejectionOf(r.router.chat({ messages: hello, tools: [{ name: 'weather', parameters }] }));
    await expectCallerFault(r, err, 'tools[0].parameters', /could not be measured/);
  });

  it('mapping the request in the adapter (a raw error before the SDK is called)', async () => {
    const r = setup();
    const adapter = adapterOf(r.router, 'openai');
    const original = adapter.chat.bind(adapter);
    const chat = vi.spyOn(adapter, 'chat').mockImplementationOnce(() => {
      throw new TypeError("Cannot read properties of undefined (reading 'url')");
    });
    const err = await rejectionOf(r.router.chat({ messages: hello }));
    chat.mockImplementation(original);
    await expectCallerFault(r, err, undefined, /could not be encoded/);
  });

  it('on a stream too: the first step throws it, before any event', async () => {
    const r = setup();
    const request: ChatRequest = { messages: hello, providerOptions: { openai: { metadata: unencodable() } } };
    const it = r.router.stream(request)[Symbol.asyncIterator]();
    const err = await rejectionOf(it.next());
    await expectCallerFault(r, err, 'providerOptions.openai.metadata', /could not be encoded/);
  });

  it('serialising through the anthropic SDK too', async () => {
    const r = wireRouter(up, { breaker: { consecutiveFailures: 1 }, chains: { default: ['anthropic:claude-sonnet-4-6', 'openai:gpt-4o-mini'] }, input: UNBOUNDED });
    close = () => r.router.close();
    const err = await rejectionOf(r.router.chat({ messages: hello, providerOptions: { anthropic: { metadata: nested(100_000) } } }));
    expect(err).toMatchObject({ kind: 'invalid_request', provider: 'anthropic', param: 'providerOptions.anthropic.metadata' });
    expect([r.openai(), r.anthropic()]).toEqual([0, 0]);
    expect(r.router.breakerStates()).toEqual({ openai: 'closed', anthropic: 'closed' });
    expect((await r.router.chat({ messages: hello })).provider).toBe('anthropic');
  });

  it('keeps an adapter\'s own verdict on the request as it is (a RouterError that blames the request)', async () => {
    const r = setup();
    // An image the adapter's mapping refuses as the caller's: bad_request, thrown before the SDK.
    const adapter = adapterOf(r.router, 'openai');
    vi.spyOn(adapter, 'chat').mockImplementationOnce(async () => {
      const { RouterError } = await import('../../src/errors.js');
      throw new RouterError('bad_request', 'openai: that image cannot be sent', { provider: 'openai', model: 'gpt-4o-mini', param: 'messages[0].content[1]' });
    });
    const err = await rejectionOf(r.router.chat({ messages: hello }));
    expect(err).toMatchObject({ kind: 'bad_request', param: 'messages[0].content[1]' });
    expect(r.router.breakerStates()).toEqual({ openai: 'closed', anthropic: 'closed' });
    expect([r.openai(), r.anthropic()]).toEqual([0, 0]);
  });
});
