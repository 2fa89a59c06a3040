import Anthropic from '@anthropic-ai/sdk';
import OpenAI, { APIError } from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StreamEvent } from '../../../src/calls/stream.js';
import { ERROR_KINDS, RouterError, type ErrorKind, type RouterErrorFacts } from '../../../src/errors.js';
import { startUpstream, type Upstream } from '../../support/upstream.js';
import { startHarness, type Harness } from '../gateway-harness.js';
import { thrown } from './thrown.js';

// Every ErrorKind on every endpoint, as a client reads it through the real openai and Anthropic
// SDKs from a real gateway: the HTTP status, the wire's `type` word (or, on a Responses stream, its
// `code`) and the envelope's shape, for an answer, a stream that fails before its commit point (an
// ordinary HTTP error) and one that fails after it (the wire's one error frame). The router's
// chat, stream and embed end in the kind under test (the gateway, its routes and the SDKs are
// real): most kinds never reach a client from an upstream on their own, a chain falls through them
// (test/gateway/errors/upstream-failures.test.ts drives the ones that do from a failing upstream).
//
// The expected words are written out here, row by row, from the providers' docs and SDK types (see
// src/convert/openai-errors.ts, src/gateway/messages/anthropic-error.ts, src/gateway/responses/failure.ts),
// not read from those tables.

interface Row {
  /** The OpenAI envelope: /v1/chat/completions, /v1/responses, /v1/embeddings. */
  openai: [status: number, type: string];
  /** The Anthropic envelope: /v1/messages. */
  anthropic: [status: number, type: string];
  /** A Responses stream's `error` and `response.failed` code after its commit point. */
  responses: string;
}

const INVALID: Row = { openai: [400, 'invalid_request_error'], anthropic: [400, 'invalid_request_error'], responses: 'server_error' };
const THROTTLED: Row = { openai: [429, 'rate_limit_error'], anthropic: [429, 'rate_limit_error'], responses: 'rate_limit_exceeded' };
const QUOTA: Row = { openai: [429, 'insufficient_quota'], anthropic: [429, 'rate_limit_error'], responses: 'rate_limit_exceeded' };
const SICK: Row = { openai: [502, 'server_error'], anthropic: [529, 'overloaded_error'], responses: 'server_error' };
const REFUSED_UPSTREAM: Row = { openai: [502, 'server_error'], anthropic: [500, 'api_error'], responses: 'server_error' };

const attempt = (kind: ErrorKind) => ({ provider: 'openai', model: 'gpt-4o-mini', ok: false, kind, latencyMs: 1 });

/** Each case: a name, the kind, the facts the error carries, and what every wire answers. */
const CASES: Array<[name: string, kind: ErrorKind, facts: RouterErrorFacts, row: Row]> = [
  ['invalid_request', 'invalid_request', {}, INVALID],
  ['bad_request', 'bad_request', { status: 400 }, INVALID],
  ['bad_request (an upstream 413)', 'bad_request', { status: 413 }, { openai: [413, 'invalid_request_error'], anthropic: [413, 'request_too_large'], responses: 'server_error' }],
  ['context_length', 'context_length', {}, INVALID],
  ['content_filter', 'content_filter', {}, { ...INVALID, responses: 'invalid_prompt' }],
  ['unsupported', 'unsupported', {}, INVALID],
  ['rate_limited', 'rate_limited', { retryAfterMs: 1_000 }, THROTTLED],
  ['local_limit', 'local_limit', { retryAfterMs: 1_000 }, THROTTLED],
  ['quota_exhausted', 'quota_exhausted', {}, QUOTA],
  ['budget_exceeded', 'budget_exceeded', {}, QUOTA],
  ['circuit_open', 'circuit_open', { retryAfterMs: 1_000 }, { openai: [503, 'server_error'], anthropic: [529, 'overloaded_error'], responses: 'server_error' }],
  ['server', 'server', { status: 503 }, SICK],
  ['transport', 'transport', {}, SICK],
  ['timeout', 'timeout', {}, { openai: [504, 'server_error'], anthropic: [504, 'timeout_error'], responses: 'server_error' }],
  ['auth', 'auth', { status: 401 }, REFUSED_UPSTREAM],
  ['not_found', 'not_found', { status: 404 }, REFUSED_UPSTREAM],
  ['invalid_output', 'invalid_output', {}, REFUSED_UPSTREAM],
  ['config', 'config', {}, { openai: [500, 'server_error'], anthropic: [500, 'api_error'], responses: 'server_error' }],
  ['aborted', 'aborted', {}, { openai: [503, 'server_error'], anthropic: [529, 'overloaded_error'], responses: 'server_error' }],
  ['exhausted (the chain down)', 'exhausted', { attempts: [attempt('server'), attempt('transport')] }, { openai: [503, 'upstream_error'], anthropic: [529, 'overloaded_error'], responses: 'server_error' }],
  ['exhausted (every target throttled)', 'exhausted', { attempts: [attempt('rate_limited'), attempt('quota_exhausted')], retryAfterMs: 1_000 }, { openai: [429, 'rate_limit_error'], anthropic: [429, 'rate_limit_error'], responses: 'server_error' }],
  ['exhausted (every attempt timed out)', 'exhausted', { attempts: [attempt('timeout'), attempt('timeout')] }, { openai: [504, 'upstream_error'], anthropic: [504, 'timeout_error'], responses: 'server_error' }],
];

let up: Upstream;
let h: Harness;
/** The error the router's next call ends in. */
let failure: RouterError;
/** Whether a stream fails before its commit point (nothing written) or after it (a start and a token out). */
let commit: 'before' | 'after' = 'before';

async function* failingStream(): AsyncGenerator<StreamEvent> {
  if (commit === 'before') throw failure;
  yield { type: 'start', provider: 'openai', model: 'gpt-4o-mini', attempts: [] };
  yield { type: 'text', delta: 'Hel' };
  yield { type: 'interrupted', text: '', toolCalls: [], incompleteToolCalls: [], error: failure };
}

beforeAll(async () => {
  up = await startUpstream();
  h = await startHarness(up, {}, { passThrough: false });
  // The gateway's router, its calls ended in the kind under test.
  Object.assign(h.router, {
    chat: async () => { throw failure; },
    embed: async () => { throw failure; },
    stream: () => failingStream(),
  });
});
afterAll(async () => {
  await h.close();
  await up.close();
});

const openai = () => h.client();
const anthropic = () => new Anthropic({ apiKey: 'sk-anything-0000', baseURL: h.url, maxRetries: 0 });
const hi = [{ role: 'user' as const, content: 'hi' }];

/** OpenAI's envelope, as the openai SDK hands it over (`err.error` is the inner object). */
function expectOpenAIEnvelope(err: any, status: number | undefined, type: string) {
  expect(err).toBeInstanceOf(APIError);
  expect(err.status).toBe(status);
  expect(err.type).toBe(type);
  expect(Object.keys(err.error).sort()).toEqual(['code', 'message', 'param', 'type']);
  expect(typeof err.error.message).toBe('string');
}

describe.each(CASES)('%s', (_name, kind, facts, row) => {
  const set = (when: 'before' | 'after') => {
    failure = new RouterError(kind, `${kind} happened`, facts);
    commit = when;
  };
  const [status, type] = row.openai;
  const [anthropicStatus, anthropicType] = row.anthropic;

  describe('POST /v1/chat/completions', () => {
    it('answers', async () => {
      set('before');
      expectOpenAIEnvelope(await thrown(() => openai().chat.completions.create({ model: 'default', messages: hi })), status, type);
    });

    it('a stream that fails before its commit point: the same HTTP error, no event stream', async () => {
      set('before');
      const err = await thrown(() => openai().chat.completions.create({ model: 'default', messages: hi, stream: true }));
      expectOpenAIEnvelope(err, status, type);
      expect(err.headers.get('content-type')).toMatch(/^application\/json/);
    });

    it('a stream that fails after it: one error frame the SDK throws on, the kind as its code', async () => {
      set('after');
      let text = '';
      const err = await thrown(async () => {
        for await (const chunk of await openai().chat.completions.create({ model: 'default', messages: hi, stream: true })) text += chunk.choices[0]?.delta.content ?? '';
      });
      expectOpenAIEnvelope(err, undefined, type);
      expect([err.code, err.error.param, text]).toEqual([kind, null, 'Hel']);
    });
  });

  describe('POST /v1/responses', () => {
    it('answers', async () => {
      set('before');
      expectOpenAIEnvelope(await thrown(() => openai().responses.create({ model: 'default', input: 'hi' })), status, type);
    });

    it('a stream that fails before its commit point: the same HTTP error', async () => {
      set('before');
      expectOpenAIEnvelope(await thrown(() => openai().responses.create({ model: 'default', input: 'hi', stream: true })), status, type);
    });

    it('a stream that fails after it: an error event and response.failed with one code, yielded, not thrown', async () => {
      set('after');
      const events: OpenAI.Responses.ResponseStreamEvent[] = [];
      for await (const event of await openai().responses.create({ model: 'default', input: 'hi', stream: true })) events.push(event);
      const [error, failed] = events.slice(-2) as [OpenAI.Responses.ResponseErrorEvent, OpenAI.Responses.ResponseFailedEvent];
      expect([error.type, failed.type]).toEqual(['error', 'response.failed']);
      expect(error).toEqual({ type: 'error', sequence_number: failed.sequence_number - 1, code: row.responses, message: `${kind} happened`, param: null });
      expect(failed.response.status).toBe('failed');
      expect(failed.response.error).toEqual({ code: row.responses, message: `${kind} happened` });
      expect(events.some((e) => e.type === 'response.completed')).toBe(false);
    });
  });

  describe('POST /v1/messages', () => {
    /** Anthropic's envelope, as its SDK hands it over (`err.error` is the whole body). */
    const expectAnthropic = (err: any, expected: number | undefined, withRequestId: boolean) => {
      expect(err).toBeInstanceOf(Anthropic.APIError);
      expect(err.status).toBe(expected);
      expect(err.type).toBe(anthropicType);
      expect(Object.keys(err.error).sort()).toEqual(withRequestId ? ['error', 'request_id', 'type'] : ['error', 'type']);
      expect(err.error.type).toBe('error');
      expect(Object.keys(err.error.error).sort()).toEqual(['message', 'type']);
      expect(err.error.error.type).toBe(anthropicType);
    };

    it('answers', async () => {
      set('before');
      expectAnthropic(await thrown(() => anthropic().messages.create({ model: 'default', max_tokens: 10, messages: hi })), anthropicStatus, true);
    });

    it('a stream that fails before its commit point: the same HTTP error', async () => {
      set('before');
      expectAnthropic(await thrown(() => anthropic().messages.stream({ model: 'default', max_tokens: 10, messages: hi }).finalMessage()), anthropicStatus, true);
    });

    it('a stream that fails after it: one error event the SDK throws on, never a message_stop', async () => {
      set('after');
      const seen: string[] = [];
      const err = await thrown(async () => {
        for await (const event of await anthropic().messages.create({ model: 'default', max_tokens: 10, messages: hi, stream: true })) seen.push(event.type);
      });
      expectAnthropic(err, undefined, false);
      expect(err.error.error.message).toBe(`${kind} happened`);
      expect(seen).toContain('content_block_delta');
      expect(seen).not.toContain('message_stop');
    });
  });

  describe('POST /v1/embeddings', () => {
    it('answers (no stream on this endpoint)', async () => {
      set('before');
      expectOpenAIEnvelope(await thrown(() => openai().embeddings.create({ model: 'embeddings', input: 'hi' })), status, type);
    });
  });
});

it('covers every kind', () => {
  expect(new Set(CASES.map(([, kind]) => kind))).toEqual(new Set(ERROR_KINDS));
});
