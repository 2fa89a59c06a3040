import { afterEach, describe, expect, it } from 'vitest';
import type { SwitchyardConfig } from '../../src/config/index.js';
import { createRouter } from '../../src/router.js';
import type { StreamEvent } from '../../src/calls/stream.js';
import { startSimulator, type FaultRule, type SimRequestEvent } from '../../src/sim/index.js';
import { captureLogger } from '../support/capture-logger.js';
import { VirtualClock } from '../support/virtual-clock.js';

// A chain across three native providers, gemini -> bedrock -> openai, each speaking its own wire
// (the Gemini API over HTTP, Bedrock through the real AWS SDK's SigV4 and event stream, OpenAI
// through the openai SDK) to the simulator on loopback. Each one's rate limit and server error
// falls through to the next; a stream from each commits at its first token, so a failure after it
// ends the stream interrupted and asks nobody else.

const GEMINI = 'gemini-2.5-flash';
const CLAUDE = 'us.anthropic.claude-sonnet-4-5-20250929-v1:0';
const OPENAI = 'gpt-4o-mini';
const ask = (content = 'Tell me about trains, please.') => ({ messages: [{ role: 'user' as const, content }] });

let cleanup: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const fn of cleanup.reverse()) await fn();
  cleanup = [];
});

type Faults = Partial<Record<'google' | 'aws' | 'openai', FaultRule[]>>;

async function setup(faults: Faults = {}) {
  const clock = new VirtualClock();
  const seen: SimRequestEvent[] = [];
  const sim = await startSimulator({
    clock,
    providers: {
      google: { type: 'gemini', faults: faults.google },
      aws: { type: 'bedrock', faults: faults.aws },
      openai: { type: 'openai', faults: faults.openai },
    },
    onRequest: (e) => seen.push(e),
  });
  cleanup.push(() => sim.stop());
  const config: SwitchyardConfig = {
    providers: {
      google: { type: 'gemini', apiKey: 'AIzaSyTESTnativeChain0123456789abcdefg', baseURL: sim.baseURL('google'), timeoutMs: 60_000 },
      aws: { type: 'bedrock', region: 'us-east-1', baseURL: sim.baseURL('aws'), timeoutMs: 60_000 },
      openai: { type: 'openai', apiKey: 'sk-sim-openai', baseURL: sim.baseURL('openai'), timeoutMs: 60_000 },
    },
    chains: { default: [`google:${GEMINI}`, `aws:${CLAUDE}`, `openai:${OPENAI}`] },
    // One attempt a target: each failure moves the chain on at once, so every request is counted.
    retry: { maxAttempts: 1 },
  };
  const router = createRouter(config, { logger: captureLogger().logger, clock, random: () => 1 });
  cleanup.push(() => router.close());
  const sent = () => (['google', 'aws', 'openai'] as const).map((p) => sim.stats().providers[p]!.requests);
  const collect = async () => {
    const events: StreamEvent[] = [];
    for await (const e of router.stream(ask())) events.push(e);
    return events;
  };
  return { router, sent, seen, collect };
}

const trail = (attempts: ReadonlyArray<{ provider: string; ok: boolean; kind?: string; status?: number }>) =>
  attempts.map((a) => [a.provider, a.ok, a.kind, a.status]);

describe('a gemini -> bedrock -> openai chain', () => {
  it('answers from Gemini when it is healthy, asking nobody else', async () => {
    const { router, sent } = await setup();
    const res = await router.chat(ask());
    expect(res).toMatchObject({ provider: 'google', model: GEMINI, finishReason: 'stop' });
    expect(sent()).toEqual([1, 0, 0]);
  });

  it('falls through on Gemini\'s rate limit (RESOURCE_EXHAUSTED) and then Bedrock\'s (ThrottlingException) to openai', async () => {
    const { router, sent } = await setup({ google: [{ fault: 'rate_limit' }], aws: [{ fault: 'rate_limit' }] });
    const res = await router.chat(ask());
    expect(res.provider).toBe('openai');
    expect(sent()).toEqual([1, 1, 1]);
    expect(trail(res.attempts)).toEqual([
      ['google', false, 'rate_limited', 429], ['aws', false, 'rate_limited', 429], ['openai', true, undefined, undefined],
    ]);
  });

  it('falls through on Gemini\'s 503 UNAVAILABLE and Bedrock\'s 500 to openai', async () => {
    const { router, sent } = await setup({ google: [{ fault: 'unavailable' }], aws: [{ fault: 'server_error' }] });
    const res = await router.chat(ask());
    expect(res.provider).toBe('openai');
    expect(sent()).toEqual([1, 1, 1]);
    expect(trail(res.attempts)).toEqual([
      ['google', false, 'server', 503], ['aws', false, 'server', 500], ['openai', true, undefined, undefined],
    ]);
  });

  it('mixes the two: Gemini\'s 500 and Bedrock\'s throttle each move the chain on', async () => {
    const { router, sent } = await setup({ google: [{ fault: 'server_error' }], aws: [{ fault: 'rate_limit' }] });
    const res = await router.chat(ask());
    expect(res.provider).toBe('openai');
    expect(sent()).toEqual([1, 1, 1]);
    expect(trail(res.attempts).map((a) => a.slice(0, 3))).toEqual([['google', false, 'server'], ['aws', false, 'rate_limited'], ['openai', true, undefined]]);
  });
});

describe('a stream through the gemini -> bedrock -> openai chain commits at its first token', () => {
  const texts = (events: StreamEvent[]) => events.filter((e) => e.type === 'text');

  it('from Gemini: an error after the first token ends the stream interrupted, and nobody else is asked', async () => {
    const { collect, sent } = await setup({ google: [{ fault: 'stream_error', afterChunks: 1 }] });
    const events = await collect();
    expect(events[0]).toMatchObject({ type: 'start', provider: 'google' });
    expect(texts(events)).toHaveLength(1);
    expect(events.at(-1)!.type).toBe('interrupted');
    expect(sent()).toEqual([1, 0, 0]);
  });

  it('from Bedrock: Gemini fails before its first token, Bedrock commits, and its cut ends the stream interrupted', async () => {
    const { collect, sent } = await setup({ google: [{ fault: 'stream_error', afterChunks: 0 }], aws: [{ fault: 'stream_cut', afterChunks: 2 }] });
    const events = await collect();
    expect(events[0]).toMatchObject({ type: 'start', provider: 'aws' });
    expect(texts(events)).toHaveLength(2);
    expect(events.at(-1)!.type).toBe('interrupted');
    expect(sent()).toEqual([1, 1, 0]);
  });

  it('from openai: both native targets fail before their first token, openai commits, and its cut is not retried', async () => {
    const { collect, sent } = await setup({
      google: [{ fault: 'rate_limit' }],
      aws: [{ fault: 'stream_error', afterChunks: 0 }],
      openai: [{ fault: 'stream_cut', afterChunks: 3 }],
    });
    const events = await collect();
    expect(events[0]).toMatchObject({ type: 'start', provider: 'openai' });
    expect(texts(events)).toHaveLength(3);
    expect(events.at(-1)!.type).toBe('interrupted');
    expect(sent()).toEqual([1, 1, 1]);
  });

  it('a healthy stream from the last target ends done, with its text whole', async () => {
    const { collect, sent } = await setup({ google: [{ fault: 'unavailable' }], aws: [{ fault: 'rate_limit' }] });
    const events = await collect();
    expect(events[0]).toMatchObject({ type: 'start', provider: 'openai' });
    const done = events.at(-1) as Extract<StreamEvent, { type: 'done' }>;
    expect(done.type).toBe('done');
    expect(done.result.text).toBe(texts(events).map((e) => (e as { delta: string }).delta).join(''));
    expect(sent()).toEqual([1, 1, 1]);
  });
});
