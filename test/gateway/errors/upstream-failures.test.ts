import Anthropic from '@anthropic-ai/sdk';
import OpenAI, { APIError } from 'openai';
import { describe, expect, it } from 'vitest';
import { RESPONSES_PATH, responsesTextSse } from '../../../providers/test-support/responses-wire.js';
import { ANTHROPIC_PATH, OPENAI_PATH, anthropicBodies, openaiBodies } from '../../support/fixtures.js';
import { anthropicDelta, anthropicOverloadedEvent, anthropicSseHead, openaiErrorFrame, openaiSse } from '../../support/sse.js';
import type { Reply, Upstream } from '../../support/upstream.js';
import { upstreamPerTest } from '../../support/upstream-per-test.js';
import { EMBED_PATH, GATEWAY_PATHS, startHarness, type Harness } from '../gateway-harness.js';
import { thrown } from './thrown.js';

// The failures an upstream really sends, through the real router, a real gateway and the real
// SDKs, and the words each wire answers them with: the ways that reach a client (a chain that is
// down, throttled or refused the request before its commit point; a stream cut, or ended by the
// upstream's own error, after it). test/gateway/errors/every-kind.test.ts holds every kind; this
// file holds that the failures of a real upstream arrive as those kinds, on each gateway path.

let up: Upstream;
let h: Harness;
upstreamPerTest((u) => (up = u), () => h?.close());

const RETRY_ONCE = { retry: { baseDelayMs: 1, maxDelayMs: 2, maxAttempts: 1 } };
const hi = [{ role: 'user' as const, content: 'hi' }];
const anthropic = () => new Anthropic({ apiKey: 'sk-anything-0000', baseURL: h.url, maxRetries: 0 });

/** What every target of the `default` chain answers, and what each wire says for it before any event. */
const BEFORE_COMMIT: Array<[name: string, openai: Reply, anthropicReply: Reply, embed: Reply, expected: { openai: [number, string, string | null]; anthropic: [number, string] }]> = [
  ['every target down with 5xx', { status: 503, body: openaiBodies.overloaded503 }, { status: 529, body: anthropicBodies.overloaded }, { status: 503, body: openaiBodies.overloaded503 },
    { openai: [503, 'upstream_error', 'chain_exhausted'], anthropic: [529, 'overloaded_error'] }],
  ['every target throttled', { status: 429, headers: { 'retry-after-ms': '20000' }, body: openaiBodies.rateLimitRequests }, { status: 429, headers: { 'retry-after': '30' }, body: anthropicBodies.rateLimit },
    { status: 429, headers: { 'retry-after-ms': '20000' }, body: openaiBodies.rateLimitRequests },
    { openai: [429, 'rate_limit_error', 'chain_exhausted'], anthropic: [429, 'rate_limit_error'] }],
  ['the first target refusing the request (a context length 400)', { status: 400, body: openaiBodies.contextLength }, { status: 400, body: anthropicBodies.promptTooLong }, { status: 400, body: openaiBodies.contextLength },
    { openai: [400, 'invalid_request_error', 'context_length_exceeded'], anthropic: [400, 'invalid_request_error'] }],
];

describe.each(GATEWAY_PATHS)('before the commit point ($path)', ({ passThrough }) => {
  describe.each(BEFORE_COMMIT)('%s', (_name, openaiReply, anthropicReply, embedReply, expected) => {
    const script = () => {
      up.otherwise(OPENAI_PATH, () => openaiReply);
      up.otherwise(ANTHROPIC_PATH, () => anthropicReply);
      up.otherwise(EMBED_PATH, () => embedReply);
    };
    const expectOpenAI = (err: any) => {
      expect(err).toBeInstanceOf(APIError);
      expect([err.status, err.type, err.code]).toEqual(expected.openai);
      expect(Object.keys(err.error).sort()).toEqual(['code', 'message', 'param', 'type']);
    };

    it('chat completions, answered and streamed', async () => {
      h = await startHarness(up, RETRY_ONCE, { passThrough });
      script();
      expectOpenAI(await thrown(() => h.client().chat.completions.create({ model: 'default', messages: hi })));
      expectOpenAI(await thrown(() => h.client().chat.completions.create({ model: 'default', messages: hi, stream: true })));
    });

    it('responses, answered and streamed', async () => {
      h = await startHarness(up, RETRY_ONCE, { passThrough });
      script();
      expectOpenAI(await thrown(() => h.client().responses.create({ model: 'default', input: 'hi' })));
      expectOpenAI(await thrown(() => h.client().responses.create({ model: 'default', input: 'hi', stream: true })));
    });

    it('messages, answered and streamed', async () => {
      h = await startHarness(up, RETRY_ONCE, { passThrough });
      script();
      for (const err of [
        await thrown(() => anthropic().messages.create({ model: 'default', max_tokens: 10, messages: hi })),
        await thrown(() => anthropic().messages.stream({ model: 'default', max_tokens: 10, messages: hi }).finalMessage()),
      ]) {
        expect(err).toBeInstanceOf(Anthropic.APIError);
        expect([err.status, err.type, err.error.type, err.error.error.type]).toEqual([expected.anthropic[0], expected.anthropic[1], 'error', expected.anthropic[1]]);
      }
    });

    it('embeddings', async () => {
      h = await startHarness(up, RETRY_ONCE, { passThrough });
      script();
      // An embeddings chain has one target: an exhausted one answers as the chain's end, a refusal as the target's.
      expectOpenAI(await thrown(() => h.client().embeddings.create({ model: 'embeddings', input: 'hi' })));
    });
  });
});

/** Upstream streams that fail after their first token: what the router calls them, and each wire's words for it. */
const AFTER_COMMIT: Array<[name: string, openai: Reply, kind: string, expected: { chat: string; responses: string; messages: string }]> = [
  ['cut after the first token', { sse: openaiSse(['Hel', 'lo']), cutAfter: 2 }, 'transport', { chat: 'server_error', responses: 'server_error', messages: 'overloaded_error' }],
  ['ended by the upstream\'s own error frame', { sse: [...openaiSse(['Hel']).slice(0, 2), openaiErrorFrame()] }, 'server', { chat: 'server_error', responses: 'server_error', messages: 'overloaded_error' }],
];

describe.each(GATEWAY_PATHS)('after the commit point ($path)', ({ passThrough }) => {
  describe.each(AFTER_COMMIT)('a stream %s', (_name, reply, kind, expected) => {
    it('chat completions: one error frame, the SDK throws APIError with no status, the kind as code', async () => {
      h = await startHarness(up, RETRY_ONCE, { passThrough });
      up.script(OPENAI_PATH, reply);
      let text = '';
      const err = await thrown(async () => {
        for await (const chunk of await h.client().chat.completions.create({ model: 'openai-only', messages: hi, stream: true })) text += chunk.choices[0]?.delta.content ?? '';
      });
      expect(err).toBeInstanceOf(APIError);
      expect([err.status, err.type, err.code, err.error.param, text]).toEqual([undefined, expected.chat, kind, null, 'Hel']);
      expect(up.count(OPENAI_PATH)).toBe(1);
    });

    it('responses: an error event and response.failed with one code', async () => {
      h = await startHarness(up, RETRY_ONCE, { passThrough });
      up.script(OPENAI_PATH, reply);
      const events: OpenAI.Responses.ResponseStreamEvent[] = [];
      for await (const event of await h.client().responses.create({ model: 'openai-only', input: 'hi', stream: true })) events.push(event);
      const [error, failed] = events.slice(-2) as [OpenAI.Responses.ResponseErrorEvent, OpenAI.Responses.ResponseFailedEvent];
      expect([error.type, error.code, failed.type, failed.response.status, failed.response.error?.code]).toEqual(['error', expected.responses, 'response.failed', 'failed', expected.responses]);
    });

    it('messages: one error event, the SDK throws APIError with no status', async () => {
      h = await startHarness(up, RETRY_ONCE, { passThrough });
      up.script(OPENAI_PATH, reply);
      const err = await thrown(() => anthropic().messages.stream({ model: 'openai-only', max_tokens: 10, messages: hi }).finalMessage());
      expect(err).toBeInstanceOf(Anthropic.APIError);
      expect([err.status, err.type, Object.keys(err.error).sort(), err.error.error.type]).toEqual([undefined, expected.messages, ['error', 'type'], expected.messages]);
    });
  });
});

describe('after the commit point, from the other wires\' upstreams', () => {
  it('an Anthropic upstream\'s own overloaded_error event after its first token: overloaded_error on /v1/messages, server_error on the OpenAI wires', async () => {
    const frames = [...anthropicSseHead(), anthropicDelta('Hel'), anthropicOverloadedEvent];
    up.script(ANTHROPIC_PATH, { sse: frames }, { sse: frames }, { sse: frames });
    h = await startHarness(up, Object.assign({}, RETRY_ONCE, { chains: { only: ['anthropic:claude-sonnet-4-6'] } }));
    const messages = await thrown(() => anthropic().messages.stream({ model: 'only', max_tokens: 10, messages: hi }).finalMessage());
    expect([messages.status, messages.type]).toEqual([undefined, 'overloaded_error']);
    const chat = await thrown(async () => {
      for await (const _ of await h.client().chat.completions.create({ model: 'only', messages: hi, stream: true }));
    });
    expect([chat.status, chat.type, chat.code]).toEqual([undefined, 'server_error', 'server']);
    const events: OpenAI.Responses.ResponseStreamEvent[] = [];
    for await (const event of await h.client().responses.create({ model: 'only', input: 'hi', stream: true })) events.push(event);
    expect(events.slice(-2).map((e) => [e.type, 'code' in e ? e.code : (e as OpenAI.Responses.ResponseFailedEvent).response.error?.code])).toEqual([['error', 'server_error'], ['response.failed', 'server_error']]);
  });

  it('a pass-through Responses stream the upstream cut: the relay\'s error and response.failed say server_error', async () => {
    h = await startHarness(up, {
      providers: { openai: { type: 'openai', api: 'responses', apiKey: 'sk-proj-pass-0123456789abcdef', baseURL: `${up.url}/v1`, timeoutMs: 5_000 } },
      chains: { 'openai-only': ['openai:gpt-4.1'] },
      retry: RETRY_ONCE.retry,
    } as never);
    up.script(RESPONSES_PATH, { sse: responsesTextSse(['Half an ']).slice(0, 4), cutAfter: 4 });
    const events: OpenAI.Responses.ResponseStreamEvent[] = [];
    for await (const event of await h.client().responses.create({ model: 'openai-only', input: 'hi', stream: true })) events.push(event);
    const [error, failed] = events.slice(-2) as [OpenAI.Responses.ResponseErrorEvent, OpenAI.Responses.ResponseFailedEvent];
    expect([error.type, error.code, error.param, failed.type, failed.response.error]).toEqual(['error', 'server_error', null, 'response.failed', { code: 'server_error', message: error.message }]);
  });
});
