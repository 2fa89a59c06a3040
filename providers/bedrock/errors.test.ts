import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { nextStep } from '../../src/decide/next-step.js';
import { DEFAULTS } from '../../src/config/defaults.js';
import { RouterError } from '../../src/errors.js';
import { startUpstream, type Upstream } from '../../test/support/upstream.js';
import { adapterFor, drain, failureOf } from '../test-support/adapter-harness.js';
import { bedrockError, bedrockPath, eventFrame, exceptionFrame, THROTTLED } from '../test-support/bedrock-wire.js';
import type { ProviderAdapter } from '../types.js';
import { mapBedrockError } from './map-error.js';

const MODEL = 'us.anthropic.claude-sonnet-4-5-20250929-v1:0';
const CONVERSE = bedrockPath(MODEL, 'converse');
const STREAM = bedrockPath(MODEL, 'converse-stream');
const request = { model: MODEL, messages: [{ role: 'user' as const, content: 'Hello.' }] };
const policy = { ...DEFAULTS.retry, parkMs: DEFAULTS.quota.parkMs };

let upstream: Upstream;
let adapter: ProviderAdapter;
beforeAll(async () => {
  upstream = await startUpstream();
  adapter = adapterFor('bedrock', { type: 'bedrock', region: 'us-east-1', baseURL: upstream.url });
});
afterAll(async () => {
  await adapter.close();
  await upstream.close();
});
beforeEach(() => upstream.reset());

// Statuses are the SDK's error shapes (models/errors, schemas httpError); messages as users report them.
const CASES: Array<[status: number, type: string, message: string, kind: RouterError['kind'], decision: 'retry' | 'fall_through' | 'throw']> = [
  [429, 'ThrottlingException', THROTTLED.requests, 'rate_limited', 'retry'],
  [429, 'ThrottlingException', THROTTLED.tokens, 'rate_limited', 'retry'],
  [429, 'ThrottlingException', THROTTLED.perDay, 'quota_exhausted', 'fall_through'],
  [400, 'ServiceQuotaExceededException', 'Your request exceeds the service quota for your account.', 'quota_exhausted', 'fall_through'],
  [503, 'ServiceUnavailableException', 'Bedrock is unable to process your request.', 'server', 'retry'],
  [429, 'ModelNotReadyException', 'Model is not ready to serve inference requests.', 'server', 'retry'],
  [500, 'InternalServerException', 'The system encountered an unexpected error during processing.', 'server', 'retry'],
  [424, 'ModelStreamErrorException', 'An error occurred while streaming the response.', 'server', 'retry'],
  [408, 'ModelTimeoutException', 'Model has timed out in processing the request.', 'server', 'retry'],
  [424, 'ModelErrorException', 'The model returned the following errors: upstream failure', 'server', 'retry'],
  [400, 'ValidationException', 'Malformed input request, please reformat your input and try again.', 'bad_request', 'throw'],
  [400, 'ValidationException', 'Input is too long for requested model.', 'context_length', 'throw'],
  [400, 'ValidationException', 'The model returned the following errors: prompt is too long: 227255 tokens > 200000 maximum', 'context_length', 'throw'],
  [400, 'ValidationException', 'The maximum tokens you requested exceeds the model limit of 4096.', 'bad_request', 'throw'],
  [400, 'ValidationException', "This model doesn't support the toolConfig.toolChoice.any field. Remove toolConfig.toolChoice.any and try again.", 'unsupported', 'fall_through'],
  [400, 'ValidationException', "The model returned the following errors: This model doesn't support tool use in streaming mode.", 'unsupported', 'fall_through'],
  [403, 'AccessDeniedException', "You don't have access to the model with the specified model ID.", 'auth', 'throw'],
  [403, 'UnrecognizedClientException', 'The security token included in the request is invalid.', 'auth', 'throw'],
  [403, 'ExpiredTokenException', 'The security token included in the request is expired', 'auth', 'throw'],
  [403, 'InvalidSignatureException', 'The request signature we calculated does not match the signature you provided.', 'auth', 'throw'],
  [404, 'ResourceNotFoundException', 'Model not found.', 'not_found', 'throw'],
];

describe('bedrock errors into the decision table', () => {
  it.each(CASES)('%i %s (%s) is %s, and the table says %s', async (status, type, message, kind, decision) => {
    upstream.script(CONVERSE, bedrockError(status, type, message));
    const err = await failureOf(adapter, request);
    expect(err).toMatchObject({ kind, status, code: type, provider: 'bedrock', model: MODEL, requestId: 'e0c7a1b2-0000-4000-8000-000000000001' });
    expect(err.retryAfterMs).toBeUndefined();
    expect(upstream.count(CONVERSE)).toBe(1);
    expect(nextStep({ kind, code: err.code, attempt: 1, maxAttempts: 3, policy, random: () => 0.5 }).action).toBe(decision);
  });

  it('falls through and cools the target after a throttle without a hint once its attempts are spent', () => {
    expect(nextStep({ kind: 'rate_limited', attempt: 3, maxAttempts: 3, policy, random: () => 0.5 })).toMatchObject({ action: 'fall_through', block: { reason: 'cooling', forMs: DEFAULTS.retry.cooldownMs } });
  });

  it.each([
    ['throttlingException', 'rate_limited'],
    ['serviceUnavailableException', 'server'],
    ['internalServerException', 'server'],
    ['modelStreamErrorException', 'server'],
    ['validationException', 'bad_request'],
  ] as const)('reads a %s frame inside a stream as %s, after the text before it', async (exception, kind) => {
    upstream.script(STREAM, { frames: [
      eventFrame('messageStart', { role: 'assistant' }),
      eventFrame('contentBlockDelta', { contentBlockIndex: 0, delta: { text: 'Hel' } }),
      exceptionFrame(exception, 'Something went wrong mid-stream.'),
    ] });
    const { events, error } = await drain(adapter, request);
    expect(events.filter((e) => e.type === 'delta')).toEqual([{ type: 'delta', text: 'Hel' }]);
    expect(events.some((e) => e.type === 'finish')).toBe(false);
    expect(error).toMatchObject({ kind, code: exception.charAt(0).toUpperCase() + exception.slice(1) });
  });
});

describe('bedrock errors that are no answer', () => {
  const ctx = { provider: 'bedrock', model: MODEL, nowMs: 0, redact: (s: string) => s };

  it('maps an abort to aborted and a reset socket (which the SDK names TimeoutError) to transport', () => {
    expect(mapBedrockError(Object.assign(new Error('Request aborted'), { name: 'AbortError' }), ctx).kind).toBe('aborted');
    expect(mapBedrockError(Object.assign(new Error('socket hang up'), { name: 'TimeoutError', code: 'ECONNRESET', $metadata: { attempts: 1 } }), ctx).kind).toBe('transport');
    expect(mapBedrockError(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED', $metadata: {} }), ctx)).toMatchObject({ kind: 'transport', code: 'ECONNREFUSED' });
    expect(mapBedrockError(Object.assign(new Error('Request timed out'), { name: 'TimeoutError', $metadata: {} }), ctx).kind).toBe('timeout');
  });

  it('maps a missing region to config, naming the setting', () => {
    const err = mapBedrockError(new Error('Region is missing'), ctx);
    expect(err).toMatchObject({ kind: 'config', code: 'region_missing' });
    expect(err.message).toContain('providers.bedrock.region');
  });
});
