import type { IncomingHttpHeaders } from 'node:http';
import { formatGoDuration } from './go-duration.js';
import { randomChars, randomHex } from './random.js';
import type { LimitSnapshot } from './rate-limiter.js';
import { roleOf, textOf, type SimError, type SimRequest } from './sim-request.js';
import { retryAfterSeconds, sseFrame, type Wire, type WireContext, type WireError } from './wire.js';

// Bodies follow ../shared/reference/provider-wire-formats.md §1.2; the request id is the real one.
const RATE_LIMITS_URL = 'Visit https://platform.openai.com/account/rate-limits to learn more.';
const NO_KEY = "You didn't provide an API key. You need to provide your API key in an Authorization header using Bearer auth (i.e. Authorization: Bearer YOUR_KEY), or as the password field (with blank username) if you're accessing the API from your browser and are prompted for a username and password. You can obtain an API key from https://platform.openai.com/account/api-keys.";
const QUOTA = 'You exceeded your current quota, please check your plan and billing details. For more information on this error, read the docs: https://platform.openai.com/docs/guides/error-codes/api-errors.';
const BAD_JSON = "We could not parse the JSON body of your request. (HINT: This likely means you aren't using your HTTP library correctly. The OpenAI API expects a JSON payload, but what was sent was not valid JSON. If you have trouble figuring out how to fix this, please contact us through our help center at help.openai.com.)";

type Inner = { message: string; type: string; param: string | null; code: string | null };
const body = (message: string, type: string, param: string | null = null, code: string | null = null) => ({ error: { message, type, param, code } satisfies Inner });

/** How OpenAI echoes a key it rejects: the first 8 and last 4 characters, the rest starred. */
function maskKey(key: string): string {
  return key.length > 12 ? `${key.slice(0, 8)}${'*'.repeat(key.length - 12)}${key.slice(-4)}` : '*'.repeat(key.length);
}

function invalid(message: string, param: string | null = null, code: string | null = null): SimError {
  return { kind: 'invalid_request', message, param, code };
}

function parse(raw: string): SimRequest | SimError {
  let json: any;
  try {
    json = JSON.parse(raw);
  } catch {
    return invalid(BAD_JSON);
  }
  if (!json || typeof json !== 'object' || Array.isArray(json)) return invalid(BAD_JSON);
  if (typeof json.model !== 'string' || json.model === '') return invalid('you must provide a model parameter');
  if (json.messages === undefined) return invalid("Missing required parameter: 'messages'.", 'messages', 'missing_required_parameter');
  if (!Array.isArray(json.messages)) return invalid(`Invalid type for 'messages': expected an array of objects, but got ${typeof json.messages} instead.`, 'messages', 'invalid_type');
  if (json.messages.length === 0) return invalid("Invalid 'messages': empty array. Expected an array with minimum length 1, but got an empty array instead.", 'messages', 'empty_array');
  const maxName = json.max_completion_tokens !== undefined && json.max_completion_tokens !== null ? 'max_completion_tokens' : 'max_tokens';
  const maxTokens = json[maxName] ?? undefined;
  if (maxTokens !== undefined && (!Number.isInteger(maxTokens) || maxTokens < 1)) {
    return invalid(`Invalid '${maxName}': integer below minimum value. Expected a value >= 1, but got ${JSON.stringify(maxTokens)} instead.`, maxName, 'integer_below_min_value');
  }
  const stream = json.stream === true;
  if (json.stream_options && !stream) return invalid("The 'stream_options' parameter is only allowed when 'stream' is enabled.", 'stream_options');
  return {
    model: json.model,
    messages: json.messages.map((m: any) => ({ role: roleOf(m?.role), content: textOf(m?.content) })),
    maxTokens,
    stream,
    includeUsage: stream && json.stream_options?.include_usage === true,
  };
}

function rateLimitHeaders(s: LimitSnapshot): Record<string, string> {
  return {
    'x-ratelimit-limit-requests': String(s.requests.limit),
    'x-ratelimit-limit-tokens': String(s.tokens.limit),
    'x-ratelimit-remaining-requests': String(s.requests.remaining),
    'x-ratelimit-remaining-tokens': String(s.tokens.remaining),
    'x-ratelimit-reset-requests': formatGoDuration(s.requests.resetMs),
    'x-ratelimit-reset-tokens': formatGoDuration(s.tokens.resetMs),
  };
}

function error(err: SimError, ctx: WireContext): WireError {
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
      if (err.tooLarge) {
        return { status: 429, headers: {}, body: body(`Request too large for ${err.model} in organization ${ctx.org} on ${per}: Limit ${err.limit}, Requested ${err.requested}. The input or output tokens must be reduced in order to run successfully. ${RATE_LIMITS_URL}`, 'tokens', null, 'rate_limit_exceeded') };
      }
      const message = `Rate limit reached for ${err.model} in organization ${ctx.org} on ${per}: Limit ${err.limit}, Used ${err.used}, Requested ${err.requested}. Please try again in ${formatGoDuration(err.waitMs)}. ${RATE_LIMITS_URL}`;
      return { status: 429, headers: hint(err.waitMs), body: body(message, err.window, null, 'rate_limit_exceeded') };
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

/** OpenAI Chat Completions: `Authorization: Bearer`, `x-request-id`, `x-ratelimit-*` with Go-duration resets. */
export const openAIWire: Wire = {
  type: 'openai',
  requestIdHeader: 'x-request-id',
  keyOf(headers: IncomingHttpHeaders) {
    const auth = headers.authorization;
    return auth?.startsWith('Bearer ') && auth.length > 7 ? auth.slice(7) : undefined;
  },
  parse: (raw) => parse(raw),
  headers(ctx, snapshot) {
    return {
      'x-request-id': ctx.requestId,
      'openai-organization': ctx.org,
      'openai-processing-ms': String(Math.max(1, Math.round(ctx.processingMs ?? 1))),
      'openai-version': '2020-10-01',
      ...(snapshot ? rateLimitHeaders(snapshot) : {}),
    };
  },
  error,
  completion(request, answer, ids) {
    return {
      id: ids.id,
      object: 'chat.completion',
      created: ids.createdS,
      model: request.model,
      choices: [{ index: 0, message: { role: 'assistant', content: answer.text, refusal: null, annotations: [] }, logprobs: null, finish_reason: answer.finish }],
      usage: {
        prompt_tokens: answer.inputTokens,
        completion_tokens: answer.outputTokens,
        total_tokens: answer.inputTokens + answer.outputTokens,
        prompt_tokens_details: { cached_tokens: 0, audio_tokens: 0 },
        completion_tokens_details: { reasoning_tokens: 0, audio_tokens: 0, accepted_prediction_tokens: 0, rejected_prediction_tokens: 0 },
      },
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
    const tail = [chunk({}, answer.finish)];
    if (request.includeUsage) {
      tail.push(sseFrame({
        id: ids.id, object: 'chat.completion.chunk', created: ids.createdS, model: request.model,
        system_fingerprint: ids.fingerprint, choices: [],
        usage: { prompt_tokens: answer.inputTokens, completion_tokens: answer.outputTokens, total_tokens: answer.inputTokens + answer.outputTokens },
      }));
    }
    tail.push(sseFrame('[DONE]'));
    return {
      head: [chunk({ role: 'assistant', content: '', refusal: null }, null)],
      pieces: answer.pieces.map((piece) => chunk({ content: piece }, null)),
      tail,
      error: sseFrame({ error: { message: 'The server had an error while processing your request. Sorry about that!', type: 'server_error', param: null, code: 'server_error' } }),
    };
  },
  ids(random) {
    return { requestId: `req_${randomHex(random, 32)}`, answerId: `chatcmpl-${randomChars(random, 29)}` };
  },
};
