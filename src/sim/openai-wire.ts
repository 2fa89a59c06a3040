import type { IncomingHttpHeaders } from 'node:http';
import { approxTokens, toolCallId } from '../../providers/shared/answers/index.js';
import { formatGoDuration } from './go-duration.js';
import { parseOpenAIChat } from './openai-request.js';
import { randomChars, randomHex } from './random.js';
import type { LimitSnapshot } from './rate-limiter.js';
import type { SimAnswer, SimError } from './sim-request.js';
import { retryAfterSeconds, sseFrame, type StreamChunk, type Wire, type WireContext, type WireError } from './wire.js';

// Bodies follow ../shared/reference/provider-wire-formats.md §1.2 and -wave2.md §1.1, §2.1, §6; the request id is the real one.
const RATE_LIMITS_URL = 'Visit https://platform.openai.com/account/rate-limits to learn more.';
const NO_KEY = "You didn't provide an API key. You need to provide your API key in an Authorization header using Bearer auth (i.e. Authorization: Bearer YOUR_KEY), or as the password field (with blank username) if you're accessing the API from your browser and are prompted for a username and password. You can obtain an API key from https://platform.openai.com/account/api-keys.";
const QUOTA = 'You exceeded your current quota, please check your plan and billing details. For more information on this error, read the docs: https://platform.openai.com/docs/guides/error-codes/api-errors.';

type Inner = { message: string; type: string; param: string | null; code: string | null };
const body = (message: string, type: string, param: string | null = null, code: string | null = null) => ({ error: { message, type, param, code } satisfies Inner });

/** How OpenAI echoes a key it rejects: the first 8 and last 4 characters, the rest starred. */
function maskKey(key: string): string {
  return key.length > 12 ? `${key.slice(0, 8)}${'*'.repeat(key.length - 12)}${key.slice(-4)}` : '*'.repeat(key.length);
}

/** The `x-ratelimit-*` family: limits, remaining, and resets as Go durations. */
export function openAIRateLimitHeaders(s: LimitSnapshot): Record<string, string> {
  return {
    'x-ratelimit-limit-requests': String(s.requests.limit),
    'x-ratelimit-limit-tokens': String(s.tokens.limit),
    'x-ratelimit-remaining-requests': String(s.requests.remaining),
    'x-ratelimit-remaining-tokens': String(s.tokens.remaining),
    'x-ratelimit-reset-requests': formatGoDuration(s.requests.resetMs),
    'x-ratelimit-reset-tokens': formatGoDuration(s.tokens.resetMs),
  };
}

/** The headers every OpenAI response carries. */
export function openAIHeaders(ctx: WireContext, snapshot: LimitSnapshot | undefined): Record<string, string> {
  return {
    'x-request-id': ctx.requestId,
    'openai-organization': ctx.org,
    'openai-processing-ms': String(Math.max(1, Math.round(ctx.processingMs ?? 1))),
    'openai-version': '2020-10-01',
    ...(snapshot ? openAIRateLimitHeaders(snapshot) : {}),
  };
}

export function openAIError(err: SimError, ctx: WireContext): WireError {
  const hint = (ms: number | undefined): Record<string, string> => (ms !== undefined && ctx.retryAfter ? { 'retry-after': retryAfterSeconds(ms) } : {});
  switch (err.kind) {
    case 'server_error':
      return { status: err.status ?? 500, headers: hint(err.retryAfterMs), body: body(`The server had an error processing your request. Sorry about that! You can retry your request, or contact us through our help center at help.openai.com if you keep seeing this error. (Please include the request ID ${ctx.requestId} in your email.)`, 'server_error') };
    case 'unavailable':
      return { status: err.status ?? 503, headers: hint(err.retryAfterMs), body: body(`That model is currently overloaded with other requests. You can retry your request, or contact us through our help center at help.openai.com if the error persists. (Please include the request ID ${ctx.requestId} in your message.)`, 'server_error') };
    case 'overloaded':
      return { status: err.status ?? 503, headers: hint(err.retryAfterMs), body: body('Selected model is at capacity. Please try a different model.', 'service_unavailable_error', null, 'server_is_overloaded') };
    case 'insufficient_quota':
      return { status: 429, headers: {}, body: body(QUOTA, 'insufficient_quota', null, 'insufficient_quota') };
    case 'unauthorized':
      return { status: 401, headers: {}, body: body(`Incorrect API key provided: ${maskKey(err.key)}. You can find your API key at https://platform.openai.com/account/api-keys.`, 'invalid_request_error', null, 'invalid_api_key') };
    case 'missing_key':
      return { status: 401, headers: {}, body: body(NO_KEY, 'invalid_request_error') };
    case 'rate_limited': {
      const per = err.window === 'requests' ? 'requests per min (RPM)' : 'tokens per min (TPM)';
      const type = err.window === 'requests' ? 'requests' : 'tokens';
      if (err.tooLarge) {
        return { status: 429, headers: {}, body: body(`Request too large for ${err.model} in organization ${ctx.org} on ${per}: Limit ${err.limit}, Requested ${err.requested}. The input or output tokens must be reduced in order to run successfully. ${RATE_LIMITS_URL}`, 'tokens', null, 'rate_limit_exceeded') };
      }
      const message = `Rate limit reached for ${err.model} in organization ${ctx.org} on ${per}: Limit ${err.limit}, Used ${err.used}, Requested ${err.requested}. Please try again in ${formatGoDuration(err.waitMs)}. ${RATE_LIMITS_URL}`;
      return { status: 429, headers: hint(err.waitMs), body: body(message, type, null, 'rate_limit_exceeded') };
    }
    case 'invalid_request':
      return { status: 400, headers: {}, body: body(err.message, 'invalid_request_error', err.param ?? null, err.code ?? null) };
    case 'context_length':
      return { status: 400, headers: {}, body: body(`This model's maximum context length is ${err.limit} tokens. However, your messages resulted in ${err.tokens} tokens. Please reduce the length of the messages.`, 'invalid_request_error', 'messages', 'context_length_exceeded') };
    case 'model_not_found':
      return { status: 404, headers: {}, body: body(`The model \`${err.model}\` does not exist or you do not have access to it.`, 'invalid_request_error', null, 'model_not_found') };
    case 'invalid_url':
      return { status: 404, headers: {}, body: body(`Invalid URL (${err.method} ${err.path})`, 'invalid_request_error') };
    case 'too_large':
      return { status: 413, headers: {}, body: body('Request body too large.', 'invalid_request_error') };
  }
}

/** `finish_reason`: a forced named tool ends with `stop`, as real OpenAI does (wave2 §1.1). */
function finishReason(answer: SimAnswer): string {
  if (answer.finish === 'tool_calls') return answer.forcedTool ? 'stop' : 'tool_calls';
  return answer.finish;
}

function usage(answer: SimAnswer) {
  return {
    prompt_tokens: answer.inputTokens,
    completion_tokens: answer.outputTokens,
    total_tokens: answer.inputTokens + answer.outputTokens,
    prompt_tokens_details: { cached_tokens: answer.cachedInputTokens, audio_tokens: 0, ...(answer.cacheWriteTokens ? { cache_write_tokens: answer.cacheWriteTokens } : {}) },
    completion_tokens_details: { reasoning_tokens: answer.reasoningTokens, audio_tokens: 0, accepted_prediction_tokens: 0, rejected_prediction_tokens: 0 },
  };
}

/** OpenAI Chat Completions: `Authorization: Bearer`, `x-request-id`, `x-ratelimit-*` with Go-duration resets. */
export const openAIWire: Wire = {
  type: 'openai',
  requestIdHeader: 'x-request-id',
  keyOf(headers: IncomingHttpHeaders) {
    const auth = headers.authorization;
    return auth?.startsWith('Bearer ') && auth.length > 7 ? auth.slice(7) : undefined;
  },
  parse: (raw) => parseOpenAIChat(raw),
  textBeforeToolCalls: () => false,
  headers: openAIHeaders,
  error: openAIError,
  completion(request, answer, ids) {
    const toolCalls = answer.toolCalls.map((call) => ({ id: toolCallId(call.key, 'openai'), type: 'function', function: { name: call.name, arguments: call.argumentsJson } }));
    const message = {
      role: 'assistant',
      content: toolCalls.length && !answer.text ? null : answer.text,
      refusal: null,
      annotations: [],
      ...(toolCalls.length ? { tool_calls: toolCalls } : {}),
    };
    return {
      id: ids.id,
      object: 'chat.completion',
      created: ids.createdS,
      model: request.model,
      choices: [{ index: 0, message, logprobs: null, finish_reason: finishReason(answer) }],
      usage: usage(answer),
      service_tier: 'default',
      system_fingerprint: ids.fingerprint,
    };
  },
  stream(request, answer, ids) {
    // With include_usage every chunk carries "usage": null, and one last chunk has the usage and no choices.
    const usageField = request.includeUsage ? { usage: null } : {};
    const chunk = (delta: object, finish: string | null) => sseFrame({
      id: ids.id, object: 'chat.completion.chunk', created: ids.createdS, model: request.model,
      system_fingerprint: ids.fingerprint,
      choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }],
      ...usageField,
    });
    const chunks: StreamChunk[] = answer.chunks.map((c) => {
      if (c.type === 'text') return { data: chunk({ content: c.text }, null), tokens: approxTokens(c.text) };
      if (c.type === 'tool_start') {
        const start = { index: c.index, id: toolCallId(c.call.key, 'openai'), type: 'function', function: { name: c.call.name, arguments: '' } };
        return { data: chunk({ tool_calls: [start] }, null), tokens: 1 };
      }
      return { data: chunk({ tool_calls: [{ index: c.index, function: { arguments: c.fragment } }] }, null), tokens: approxTokens(c.fragment) };
    });
    const tail = [chunk({}, finishReason(answer))];
    if (request.includeUsage) {
      tail.push(sseFrame({
        id: ids.id, object: 'chat.completion.chunk', created: ids.createdS, model: request.model,
        system_fingerprint: ids.fingerprint, choices: [], usage: usage(answer),
      }));
    }
    tail.push(sseFrame('[DONE]'));
    return {
      head: [chunk({ role: 'assistant', content: answer.text || !answer.toolCalls.length ? '' : null, refusal: null }, null)],
      chunks,
      tail,
      error: sseFrame({ error: { message: 'The server had an error while processing your request. Sorry about that!', type: 'server_error', param: null, code: 'server_error' } }),
    };
  },
  ids(random) {
    return { requestId: `req_${randomHex(random, 32)}`, answerId: `chatcmpl-${randomChars(random, 29)}` };
  },
};

