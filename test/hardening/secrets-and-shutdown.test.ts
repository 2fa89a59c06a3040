import { inspect } from 'node:util';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { createRouter, type Router } from '../../src/router.js';
import { VirtualClock } from '../../src/testing/index.js';
import { captureLogger } from '../support/capture-logger.js';
import { ANTHROPIC_PATH, OPENAI_PATH, openaiOk } from '../support/fixtures.js';
import { openaiSse } from '../support/sse.js';
import type { Upstream } from '../support/upstream.js';
import { upstreamPerTest } from '../support/upstream-per-test.js';
import { until } from '../support/until.js';
import { ANTHROPIC_KEY, OPENAI_KEY, ask, rejectionOf, wireRouter } from '../support/wire-router.js';

let up: Upstream;
const closers = upstreamPerTest((u) => (up = u));

function setup(...args: Parameters<typeof wireRouter> extends [unknown, ...infer R] ? R : never) {
  const w = wireRouter(up, ...args);
  closers.push(() => w.router.close());
  return w;
}

/** Everything a developer would print or log of an error, with every cause. */
function printed(err: unknown): string {
  const lines: string[] = [inspect(err, { depth: 10 }), JSON.stringify(err)];
  const log: string[] = [];
  const logger = pino({ level: 'info' }, { write: (line: string) => void log.push(line) });
  logger.error({ err }, 'call failed');
  lines.push(...log);
  for (let c: unknown = err; c; c = (c as { cause?: unknown }).cause) lines.push(String((c as Error).message), String((c as Error).stack));
  return lines.join('\n');
}

describe('an API key echoed by the upstream never reaches a printed error or its cause chain', () => {
  it('hides the key an OpenAI 401 echoes in full, in the error, util.inspect, pino and every cause', async () => {
    const { router } = setup({ chains: { default: ['openai:gpt-4o-mini'] } });
    up.script(OPENAI_PATH, { status: 401, body: { error: { message: `Incorrect API key provided: ${OPENAI_KEY}. You can find your API key at https://platform.openai.com/account/api-keys.`, type: 'invalid_request_error', param: null, code: 'invalid_api_key' } } });
    const err = await rejectionOf(router.chat(ask()));
    expect(err.kind).toBe('auth');
    expect(err.cause).toBeDefined();
    const text = printed(err);
    expect(text).toContain('Incorrect API key provided');
    expect(text).not.toContain(OPENAI_KEY);
  });

  it('hides a key an Anthropic 401 echoes', async () => {
    const { router } = setup({ chains: { default: ['anthropic:claude-sonnet-4-6'] } });
    up.script(ANTHROPIC_PATH, { status: 401, body: { type: 'error', error: { type: 'authentication_error', message: `invalid x-api-key ${ANTHROPIC_KEY}` } } });
    const text = printed(await rejectionOf(router.chat(ask())));
    expect(text).not.toContain(ANTHROPIC_KEY);
  });

  it('hides a key an openai-compatible server echoes in a 500', async () => {
    const key = 'local-secret-token-0123456789';
    const { router } = setup({
      providers: { local: { type: 'openai-compatible', apiKey: key, baseURL: `${up.url}/v1` } },
      chains: { default: ['local:llama3'] }, retry: { maxAttempts: 1 },
    });
    up.script(OPENAI_PATH, { status: 500, body: { error: `upstream refused token ${key}` } });
    const err = await rejectionOf(router.chat(ask()));
    expect(err.kind).toBe('exhausted');
    expect(printed(err)).not.toContain(key);
  });

  it('hides header and query values (where credentials go) that an upstream echoes, and still sends them', async () => {
    const token = 'gw-header-secret-0123';
    const sig = 'query-secret-4567';
    const { router } = setup({
      providers: { local: { type: 'openai-compatible', apiKey: 'local-key-0123456789', baseURL: `${up.url}/v1`, headers: { 'x-gateway-token': token }, query: { sig } } },
      chains: { default: ['local:llama3'] }, retry: { maxAttempts: 1 },
    });
    up.script(OPENAI_PATH, { status: 401, body: { error: { message: `token ${token} with sig=${sig} refused`, type: 'invalid_request_error', param: null, code: null } } });
    const err = await rejectionOf(router.chat(ask()));
    expect(err.kind).toBe('auth');
    expect(up.requests[0]!.headers['x-gateway-token']).toBe(token);
    expect(up.requests[0]!.query).toBe(`sig=${sig}`);
    const text = printed(err);
    expect(text).toContain('refused');
    expect(text).not.toContain(token);
    expect(text).not.toContain(sig);
  });

  it('hides a key echoed in a mid-stream error frame', async () => {
    const { router } = setup({ chains: { default: ['openai:gpt-4o-mini'] } });
    const frame = `data: ${JSON.stringify({ error: { message: `bad key ${OPENAI_KEY}`, type: 'invalid_request_error', param: null, code: null } })}`;
    up.script(OPENAI_PATH, { sse: [...openaiSse(['Hel']).slice(0, 2), frame] });
    const events: unknown[] = [];
    for await (const ev of router.stream(ask())) events.push(ev);
    const last = events.at(-1) as { type: string; error: unknown };
    expect(last.type).toBe('interrupted');
    expect(printed(last.error)).not.toContain(OPENAI_KEY);
  });
});

describe('bad input to stream is a RouterError, never a TypeError', () => {
  it.each([undefined, null, 42, 'hello'])('refuses router.stream(%s) with invalid_request', (input) => {
    const { router } = setup();
    let thrown: unknown;
    try {
      router.stream(input as never);
    } catch (err) {
      thrown = err;
    }
    expect((thrown as { kind?: string }).kind).toBe('invalid_request');
    expect(up.count()).toBe(0);
  });
});

describe('a plain call with timeoutMs and no signal', () => {
  // Only a wall clock lets a plain call hand its timeout to the SDK (whose timer covers connect and
  // headers, and on fetch not the body), so this virtual clock says it is one. The deadline is a
  // minute of virtual time: the SDK's own timer (the same minute, on real time) stays out of reach,
  // so the call ends when the clock reaches its deadline only because a deadline gets the router's
  // own timer, and not at the stall guard's timeout + 1 s.
  it.each(['node-http', 'fetch'] as const)('ends at its deadline when the body trickles after the headers, and aborts the request (%s)', async (transport) => {
    const clock = new VirtualClock({ autoAdvance: false });
    const wallClock = { isWallClock: true, now: () => clock.now(), sleep: clock.sleep.bind(clock), setTimer: clock.setTimer.bind(clock) };
    const { router } = setup({
      providers: { openai: { type: 'openai', apiKey: OPENAI_KEY, baseURL: `${up.url}/v1`, timeoutMs: 120_000, transport } },
      chains: { default: ['openai:gpt-4o-mini'] },
    }, { clock: wallClock });
    up.script(OPENAI_PATH, { sse: ['{"id": "chatcmpl-1", "choices": ['], end: false, headers: { 'content-type': 'application/json' } });
    let settled = false;
    const pending = rejectionOf(router.chat({ ...ask(), timeoutMs: 60_000 })).finally(() => (settled = true));
    await until(() => up.inFlight === 1, 'the request to reach the upstream');
    await clock.advance(59_999);
    expect([settled, up.abandoned]).toEqual([false, 0]);
    await clock.advance(1);
    await until(() => settled, 'the call to end at its deadline', 1_000);
    const err = await pending;
    expect(err.kind).toBe('timeout');
    expect(err.message).toMatch(/deadline of 60000 ms/);
    await until(() => up.abandoned === 1, 'the client to close the request');
  });
});

describe('a plain call on the fetch transport, with no deadline', () => {
  // undici's fetch resolves at the headers, so the SDK's timeout never covers the body: such an
  // attempt runs under the router's own timer and abort, on a clock that says it is the wall clock.
  it('ends at its attempt timeout when the body stalls after the headers, and closes the request', async () => {
    const clock = new VirtualClock({ autoAdvance: false });
    const wallClock = { isWallClock: true, now: () => clock.now(), sleep: clock.sleep.bind(clock), setTimer: clock.setTimer.bind(clock) };
    const { router } = setup({
      providers: { openai: { type: 'openai', apiKey: OPENAI_KEY, baseURL: `${up.url}/v1`, timeoutMs: 10_000, transport: 'fetch' } },
      chains: { default: ['openai:gpt-4o-mini'] },
      retry: { maxAttempts: 1 },
    }, { clock: wallClock });
    up.script(OPENAI_PATH, { sse: ['{"id": "chatcmpl-1", "choices": ['], end: false, headers: { 'content-type': 'application/json' } });
    let settled = false;
    const pending = rejectionOf(router.chat(ask())).finally(() => (settled = true));
    await until(() => up.inFlight === 1, 'the request to reach the upstream');
    await clock.advance(9_999);
    expect([settled, up.abandoned]).toEqual([false, 0]);
    await clock.advance(1);
    await until(() => settled, 'the call to end at its attempt timeout', 1_000);
    const err = await pending;
    expect(err.kind).toBe('exhausted');
    expect(err.attempts.map((a: { kind?: string }) => a.kind)).toEqual(['timeout']);
    await until(() => up.abandoned === 1, 'the client to close the request');
    await router.close();
    expect(up.inFlight).toBe(0);
  });
});

describe('close() with calls in flight', () => {
  it('ends a call waiting out a retry, a queued call and a stream at once with aborted, and leaves nothing running', async () => {
    const clock = new VirtualClock({ autoAdvance: false });
    const { router } = setup({
      providers: {
        openai: { type: 'openai', apiKey: OPENAI_KEY, baseURL: `${up.url}/v1`, limits: { concurrency: 1, maxQueueMs: 60_000 } },
        anthropic: { type: 'anthropic', apiKey: ANTHROPIC_KEY, baseURL: up.url },
      },
      chains: { default: ['openai:gpt-4o-mini'], other: ['anthropic:claude-sonnet-4-6'] },
    }, { clock });
    // A stream holds OpenAI's one slot; a chat queues behind it; another waits out a 429 on Anthropic.
    up.script(OPENAI_PATH, { sse: openaiSse(['Hel', 'lo']).slice(0, 2), end: false });
    up.script(ANTHROPIC_PATH, { status: 429, headers: { 'retry-after': '3' }, body: { type: 'error', error: { type: 'rate_limit_error', message: 'slow down' } } });
    const events: string[] = [];
    const streaming = (async () => {
      for await (const ev of router.stream(ask())) events.push(ev.type === 'interrupted' ? `interrupted:${ev.error.kind}` : ev.type);
    })();
    await until(() => events.includes('text'), 'the stream to start');
    const queued = rejectionOf(router.chat(ask()));
    const retrying = rejectionOf(router.chat({ ...ask(), chain: 'other' }));
    await until(() => up.count(ANTHROPIC_PATH) === 1 && clock.nextTimerInMs() !== undefined, 'the 429 and its retry wait');

    const closed = router.close();
    const [q, r] = await Promise.all([queued, retrying]);
    await streaming;
    await closed;
    expect(q.kind).toBe('aborted');
    expect(r.kind).toBe('aborted');
    expect(events.at(-1)).toBe('interrupted:aborted');
    expect([up.count(OPENAI_PATH), up.count(ANTHROPIC_PATH)]).toEqual([1, 1]);
    expect(clock.pendingTimers).toBe(0);
    await until(() => up.inFlight === 0, 'the stream\'s request to close');
    await expect(router.chat(ask())).rejects.toMatchObject({ kind: 'invalid_request' });
  });

  it('lets a plain call already on the wire get its answer, then resolves, starting no retry or fall-through after it', async () => {
    const { router, openai, anthropic } = setup({ retry: { maxAttempts: 3 } });
    let answer!: () => void;
    const answered = new Promise<void>((resolve) => (answer = resolve));
    up.otherwise(OPENAI_PATH, () => ({ status: 503, body: { error: { message: 'overloaded', type: 'server_error', param: null, code: null } }, delayMs: 1 }));
    const pending = rejectionOf(router.chat(ask()));
    await until(() => openai() === 1, 'the first attempt to reach the upstream');
    const closed = router.close().then(() => answer());
    const err = await pending;
    await answered;
    await closed;
    expect(err.kind).toBe('aborted');
    expect(err.message).toMatch(/router closed/);
    expect([openai(), anthropic()]).toEqual([1, 0]);
  });
});

describe('close() and a stream read to its end', () => {
  it('does not wait for a consumer that stopped asking after done', async () => {
    const { router } = setup();
    up.script(OPENAI_PATH, { sse: openaiSse(['Hi']) });
    const it = router.stream(ask())[Symbol.asyncIterator]();
    let ev = await it.next();
    while (!ev.done && ev.value.type !== 'done') ev = await it.next();
    expect(ev.value.type).toBe('done');
    // The consumer never calls next() or return() again; close() still resolves.
    await router.close();
  });
});
