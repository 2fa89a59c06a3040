import { inspect } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import type { SwitchyardConfig } from '../../src/config/index.js';
import { createRouter, type Router } from '../../src/router.js';
import { startSimulator, type SimProviderOptions, type SimRequestEvent, type Simulator } from '../../src/sim/index.js';
import type { StreamEvent } from '../../src/calls/stream.js';
import type { Message } from '../../src/types.js';
import { captureLogger } from '../support/capture-logger.js';
import { VirtualClock } from '../support/virtual-clock.js';

// Bedrock in a chain, end to end: the router, the bedrock adapter through the real AWS SDK (SigV4,
// event-stream decoding), and the simulator speaking Converse, ConverseStream and InvokeModel on
// loopback, with the OpenAI simulator behind it. One VirtualClock for the router's waits and the
// simulator's windows.

const CLAUDE = 'us.anthropic.claude-sonnet-4-5-20250929-v1:0';
const OPENAI = 'gpt-4o-mini';
const ask = (content = 'Say hello', extra: Record<string, unknown> = {}) => ({ messages: [{ role: 'user' as const, content }], ...extra });

let cleanup: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const fn of cleanup.reverse()) await fn();
  cleanup = [];
});

interface Setup {
  bedrock?: Omit<SimProviderOptions, 'type'>;
  config?: Partial<SwitchyardConfig>;
}

async function setup(s: Setup = {}) {
  const clock = new VirtualClock();
  const seen: SimRequestEvent[] = [];
  const sim = await startSimulator({ clock, providers: { aws: { type: 'bedrock', ...s.bedrock }, openai: { type: 'openai' } }, onRequest: (e) => seen.push(e) });
  cleanup.push(() => sim.stop());
  const log = captureLogger();
  const config: SwitchyardConfig = {
    providers: {
      aws: { type: 'bedrock', region: 'us-east-1', baseURL: sim.baseURL('aws'), timeoutMs: 60_000 },
      openai: { type: 'openai', apiKey: 'sk-sim-openai', baseURL: sim.baseURL('openai'), timeoutMs: 60_000 },
    },
    chains: {
      default: [`aws:${CLAUDE}`, `openai:${OPENAI}`],
      titan: ['aws:amazon.titan-embed-text-v2:0'],
      cohere: ['aws:cohere.embed-english-v3'],
    },
    retry: { maxAttempts: 3, baseDelayMs: 100, maxDelayMs: 1_000 },
    ...s.config,
  };
  const router = createRouter(config, { logger: log.logger, clock, random: () => 1 });
  cleanup.push(() => router.close());
  const sent = (provider: string) => sim.stats().providers[provider]!.requests;
  return { sim, router, clock, log, seen, sent };
}

async function collect(router: Router, request: Parameters<Router['stream']>[0] = ask('Tell me about trains, please.')): Promise<StreamEvent[]> {
  const events: StreamEvent[] = [];
  for await (const e of router.stream(request)) events.push(e);
  return events;
}

describe('a bedrock -> openai chain', () => {
  it('answers from Bedrock when it is healthy, with its request id and usage', async () => {
    const { router, sent, sim } = await setup();
    const res = await router.chat(ask());
    expect(res).toMatchObject({ provider: 'aws', model: CLAUDE, finishReason: 'stop', requestId: expect.stringMatching(/^[0-9a-f-]{36}$/) });
    expect(res.usage?.inputTokens).toBe(sim.stats().providers.aws!.tokens.input);
    expect([sent('aws'), sent('openai')]).toEqual([1, 0]);
  });

  it('takes an inference-profile ARN as the model name: the SDK encodes it into the path and Bedrock answers for it', async () => {
    const arn = 'arn:aws:bedrock:us-east-1:123456789012:inference-profile/us.anthropic.claude-haiku-4-5-20251001-v1:0';
    const { router, seen } = await setup({ config: { chains: { default: [`aws:${arn}`] } } });
    const res = await router.chat(ask());
    expect(res).toMatchObject({ provider: 'aws', model: arn, finishReason: 'stop' });
    expect(seen).toEqual([expect.objectContaining({ provider: 'aws', model: arn, status: 200 })]);
  });

  it('retries a ThrottlingException with backoff (Bedrock sends no hint), then falls through to openai and cools the target', async () => {
    const { router, sent, clock } = await setup({ bedrock: { faults: [{ fault: 'rate_limit' }] } });
    const res = await router.chat(ask());
    expect(res.provider).toBe('openai');
    expect([sent('aws'), sent('openai')]).toEqual([3, 1]);
    expect(clock.sleeps).toEqual([100, 200]);
    expect(res.attempts.map((a) => [a.provider, a.ok, a.kind, a.status])).toEqual([
      ['aws', false, 'rate_limited', 429], ['aws', false, 'rate_limited', 429], ['aws', false, 'rate_limited', 429], ['openai', true, undefined, undefined],
    ]);
    // Cooling: the next call skips Bedrock without a request.
    const next = await router.chat(ask('Again'));
    expect(next.provider).toBe('openai');
    expect(sent('aws')).toBe(3);
    expect(next.attempts[0]).toMatchObject({ provider: 'aws', skipped: true });
  });

  it.each([
    ['server_error', 500],
    ['unavailable', 503],
  ] as const)('retries a Bedrock %s (%i) with backoff, then falls through to openai', async (fault, status) => {
    const { router, sent, clock } = await setup({ bedrock: { faults: [{ fault }] } });
    const res = await router.chat(ask());
    expect(res.provider).toBe('openai');
    expect([sent('aws'), sent('openai')]).toEqual([3, 1]);
    expect(clock.sleeps).toEqual([100, 200]);
    expect(res.attempts[0]).toMatchObject({ provider: 'aws', ok: false, kind: 'server', status });
  });

  it('parks Bedrock after one request on the daily token quota and answers from openai', async () => {
    const { router, sent } = await setup({ bedrock: { faults: [{ fault: 'insufficient_quota' }] } });
    const res = await router.chat(ask());
    expect(res.provider).toBe('openai');
    expect([sent('aws'), sent('openai')]).toEqual([1, 1]);
    expect(res.attempts[0]).toMatchObject({ provider: 'aws', kind: 'quota_exhausted', status: 429 });
  });

  it('throws a ValidationException at once, without retrying or asking openai', async () => {
    const { router, sent } = await setup({ bedrock: { contextTokens: 5 } });
    await expect(router.chat(ask('This prompt is certainly longer than five tokens.'))).rejects.toMatchObject({ kind: 'context_length', provider: 'aws', status: 400 });
    expect([sent('aws'), sent('openai')]).toEqual([1, 0]);
  });
});

describe('a stream from Bedrock', () => {
  it('streams ConverseStream text to done, with the usage of its metadata event', async () => {
    const { router, sim } = await setup();
    const events = await collect(router);
    expect(events[0]).toMatchObject({ type: 'start', provider: 'aws', model: CLAUDE });
    const done = events.at(-1) as Extract<StreamEvent, { type: 'done' }>;
    expect(done.type).toBe('done');
    expect(done.result.text).toBe(events.filter((e) => e.type === 'text').map((e) => (e as { delta: string }).delta).join(''));
    expect(done.result.usage).toEqual({ inputTokens: sim.stats().providers.aws!.tokens.input, outputTokens: sim.stats().providers.aws!.tokens.output });
  });

  it('falls through to openai on an exception frame before the first token', async () => {
    const { router, sent } = await setup({ bedrock: { faults: [{ fault: 'stream_error', afterChunks: 0 }] }, config: { retry: { maxAttempts: 1 } } });
    const events = await collect(router);
    expect(events[0]).toMatchObject({ type: 'start', provider: 'openai', model: OPENAI });
    expect(events.at(-1)!.type).toBe('done');
    expect([sent('aws'), sent('openai')]).toEqual([1, 1]);
  });

  it('commits at its first token: an exception frame after it ends the stream interrupted, and openai is never asked', async () => {
    const { router, sent } = await setup({ bedrock: { faults: [{ fault: 'stream_error', afterChunks: 2 }] } });
    const events = await collect(router);
    const texts = events.filter((e) => e.type === 'text');
    expect(texts).toHaveLength(2);
    const last = events.at(-1) as Extract<StreamEvent, { type: 'interrupted' }>;
    expect(last.type).toBe('interrupted');
    expect(last.text).toBe(texts.map((e) => (e as { delta: string }).delta).join(''));
    expect(last.error).toMatchObject({ kind: 'server', code: 'ModelStreamErrorException' });
    expect([sent('aws'), sent('openai')]).toEqual([1, 0]);
  });

  it('ends a stream cut mid-answer as interrupted, asking no other target', async () => {
    const { router, sent } = await setup({ bedrock: { faults: [{ fault: 'stream_cut', afterChunks: 3 }] } });
    const events = await collect(router);
    expect(events.filter((e) => e.type === 'text')).toHaveLength(3);
    expect(events.at(-1)!.type).toBe('interrupted');
    expect([sent('aws'), sent('openai')]).toEqual([1, 0]);
  });
});

describe('tools through Bedrock', () => {
  const weather = { name: 'get_weather', description: 'The weather in a city.', parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } };

  it('round-trips a tool loop: toolUse out, toolResult back, the answer uses it', async () => {
    const { router, seen } = await setup();
    const first = await router.chat({ ...ask('What is the weather in Paris?'), tools: [weather], toolChoice: 'required' });
    expect(first).toMatchObject({ provider: 'aws', finishReason: 'tool_calls', text: '' });
    expect(first.toolCalls).toEqual([{ id: expect.stringMatching(/^tooluse_/), name: 'get_weather', arguments: { city: expect.any(String) } }]);
    const history: Message[] = [...ask('What is the weather in Paris?').messages, first.message, { role: 'tool', toolCallId: first.toolCalls[0]!.id, content: '21°C and sunny' }];
    const second = await router.chat({ messages: history, tools: [weather] });
    expect(second).toMatchObject({ provider: 'aws', finishReason: 'stop', toolCalls: [] });
    expect(second.text).toContain('21°C and sunny');
    expect(seen.map((e) => [e.provider, e.status])).toEqual([['aws', 200], ['aws', 200]]);
  });

  it('streams a tool call as deltas and one complete tool_call event', async () => {
    const { router } = await setup();
    const events = await collect(router, { ...ask('Weather in Oslo?'), tools: [weather], toolChoice: { name: 'get_weather' } });
    const calls = events.filter((e) => e.type === 'tool_call');
    expect(calls).toHaveLength(1);
    expect(events.some((e) => e.type === 'tool_call_delta')).toBe(true);
    const done = events.at(-1) as Extract<StreamEvent, { type: 'done' }>;
    expect(done.result.finishReason).toBe('tool_calls');
    expect(done.result.toolCalls).toEqual([(calls[0] as Extract<StreamEvent, { type: 'tool_call' }>).toolCall]);
  });

  it('answers a JSON schema through outputConfig.textFormat as a parsed object', async () => {
    const { router } = await setup();
    const schema = { type: 'object', properties: { city: { type: 'string' }, tempC: { type: 'number' } }, required: ['city', 'tempC'] };
    const res = await router.chat({ ...ask('Paris weather as JSON'), responseFormat: { type: 'json_schema', schema, name: 'weather' } });
    expect(res.object).toMatchObject({ city: expect.any(String), tempC: expect.any(Number) });
  });
});

describe('embeddings through Bedrock InvokeModel', () => {
  it('sends Titan one input a request, in parallel, and returns the vectors in input order', async () => {
    const { router, seen } = await setup();
    const res = await router.embed({ chain: 'titan', input: ['alpha', 'beta', 'gamma'], dimensions: 256 });
    expect(res.embeddings).toHaveLength(3);
    for (const v of res.embeddings) expect(v).toHaveLength(256);
    expect(new Set(res.embeddings.map((v) => v[0])).size).toBe(3);
    expect(seen.filter((e) => e.endpoint === 'embeddings')).toHaveLength(3);
    expect(res.usage.inputTokens).toBeGreaterThanOrEqual(3);
    // Same text, same vector: the order is the input's, whichever request finished first.
    const again = await router.embed({ chain: 'titan', input: ['gamma'], dimensions: 256 });
    expect(again.embeddings[0]).toEqual(res.embeddings[2]);
  });

  it('sends Cohere up to 96 texts a request', async () => {
    const { router, seen } = await setup();
    const input = Array.from({ length: 100 }, (_, i) => `text ${i}`);
    const res = await router.embed({ chain: 'cohere', input });
    expect(res.embeddings).toHaveLength(100);
    expect(res.embeddings[0]).toHaveLength(1024);
    expect(seen.filter((e) => e.endpoint === 'embeddings')).toHaveLength(2);
    const single = await router.embed({ chain: 'cohere', input: ['text 99'] });
    expect(single.embeddings[0]).toEqual(res.embeddings[99]);
  });
});

describe('Bedrock credentials', () => {
  /** Everything a caller or an operator can see of a failure: the error, its whole cause chain (hidden fields too), and every log line. */
  function everything(err: unknown, lines: string[]): string {
    return [inspect(err, { depth: 12, showHidden: true }), JSON.stringify(err), String((err as Error)?.stack), ...lines].join('\n');
  }

  it('calls wrong credentials auth, with one request and no retry, and the secret nowhere in the error chain or the logs', async () => {
    const secret = 'wrongSecretKeyForBedrockTest/ZZZZ9999xxxx';
    const saved = { id: process.env.AWS_ACCESS_KEY_ID, secret: process.env.AWS_SECRET_ACCESS_KEY };
    process.env.AWS_ACCESS_KEY_ID = 'AKIDWRONGWRONGWRONG1';
    process.env.AWS_SECRET_ACCESS_KEY = secret;
    cleanup.push(async () => {
      process.env.AWS_ACCESS_KEY_ID = saved.id;
      process.env.AWS_SECRET_ACCESS_KEY = saved.secret;
    });
    const { router, sent, log } = await setup({ bedrock: { faults: [{ fault: 'unauthorized', echoKey: true }] } });
    let caught: unknown;
    try {
      await router.chat(ask());
    } catch (err) {
      caught = err;
    }
    expect(caught).toMatchObject({ kind: 'auth', provider: 'aws', status: 403, code: 'UnrecognizedClientException' });
    expect([sent('aws'), sent('openai')]).toEqual([1, 0]);
    const seen = everything(caught, log.lines);
    // The request was signed with that key pair (the access key id is public and may be shown).
    expect(seen).toContain('AKIDWRONGWRONGWRONG1');
    expect(seen).not.toContain(secret);
  });

  it('calls a credential chain that finds nothing auth, naming the provider, without a request or a retry', async () => {
    const saved = { id: process.env.AWS_ACCESS_KEY_ID, secret: process.env.AWS_SECRET_ACCESS_KEY };
    delete process.env.AWS_ACCESS_KEY_ID;
    delete process.env.AWS_SECRET_ACCESS_KEY;
    cleanup.push(async () => {
      process.env.AWS_ACCESS_KEY_ID = saved.id;
      process.env.AWS_SECRET_ACCESS_KEY = saved.secret;
    });
    const { router, sent } = await setup();
    const err = await router.chat(ask()).catch((e: unknown) => e);
    expect(err).toMatchObject({ kind: 'auth', provider: 'aws', code: 'credentials_missing' });
    expect((err as Error).message).toMatch(/^aws: no usable AWS credentials/);
    expect((err as { attempts: unknown[] }).attempts).toHaveLength(1);
    expect([sent('aws'), sent('openai')]).toEqual([0, 0]);
  });

  it('refuses a missing region as a config error naming the setting, without a request', async () => {
    const saved = process.env.AWS_REGION;
    delete process.env.AWS_REGION;
    cleanup.push(async () => {
      process.env.AWS_REGION = saved;
    });
    const clock = new VirtualClock();
    const sim = await startSimulator({ clock, providers: { aws: { type: 'bedrock' } } });
    cleanup.push(() => sim.stop());
    const router = createRouter({ providers: { aws: { type: 'bedrock', baseURL: sim.baseURL('aws') } }, chains: { default: [`aws:${CLAUDE}`] } }, { logger: captureLogger().logger, clock });
    cleanup.push(() => router.close());
    await expect(router.chat(ask())).rejects.toMatchObject({ kind: 'config', code: 'region_missing', message: expect.stringContaining('providers.aws.region') });
    expect(sim.stats().providers.aws!.requests).toBe(0);
  });
});
