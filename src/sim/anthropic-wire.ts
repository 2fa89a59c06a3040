import type { IncomingHttpHeaders } from 'node:http';
import { formatRfc3339 } from './go-duration.js';
import { randomChars } from './random.js';
import type { LimitSnapshot } from './rate-limiter.js';
import { roleOf, textOf, type SimError, type SimRequest } from './sim-request.js';
import { retryAfterSeconds, sseFrame, withCommas, type Wire, type WireContext, type WireError } from './wire.js';

// Bodies follow ../shared/reference/provider-wire-formats.md §2.2-2.5. Messages the reference marks
// synthetic (401, 404, 503) are plausible, not recorded.
const BASE58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
const CREDIT = 'Your credit balance is too low to access the Anthropic API. Please go to Plans & Billing to upgrade or purchase credits.';
const RATE_LIMIT_TAIL = 'For details, refer to: https://docs.anthropic.com/en/api/rate-limits. You can see the response headers for current usage. Please reduce the prompt length or the maximum tokens requested, or try again later. You may also contact sales at https://www.anthropic.com/contact-sales to discuss your options for a rate limit increase.';
/** API version 2026-10-21 (what SDK 1.x sends) rejects these even at their default values. */
const REMOVED_IN_2026 = ['temperature', 'top_p', 'top_k'];

const body = (type: string, message: string, requestId: string | null) => ({ type: 'error', error: { type, message }, request_id: requestId });
const invalid = (message: string): SimError => ({ kind: 'invalid_request', message });

function parse(raw: string, headers: IncomingHttpHeaders): SimRequest | SimError {
  const version = String(headers['anthropic-version'] ?? '');
  if (!version) return invalid('anthropic-version: header is required');
  let json: any;
  try {
    json = JSON.parse(raw);
  } catch {
    return invalid('The request body is not valid JSON.');
  }
  if (!json || typeof json !== 'object' || Array.isArray(json)) return invalid('The request body must be a JSON object.');
  for (const field of ['model', 'max_tokens', 'messages']) {
    if (json[field] === undefined || json[field] === null) return invalid(`${field}: Field required`);
  }
  if (typeof json.model !== 'string' || json.model === '') return invalid('model: Input should be a valid string');
  if (!Number.isInteger(json.max_tokens) || json.max_tokens < 1) return invalid('max_tokens: Input should be greater than or equal to 1');
  if (!Array.isArray(json.messages) || json.messages.length === 0) return invalid('messages: at least one message is required');
  const system = json.messages.find((m: any) => m?.role === 'system');
  if (system) return invalid('messages: Unexpected role "system". The Messages API accepts a top-level `system` parameter, not "system" as an input message role.');
  if (version >= '2026-10-21') {
    const removed = REMOVED_IN_2026.find((name) => json[name] !== undefined);
    if (removed) return invalid(`${removed}: Extra inputs are not permitted in API version ${version}`);
  }
  const messages = json.messages.map((m: any) => ({ role: roleOf(m?.role), content: textOf(m?.content) }));
  const systemText = textOf(json.system);
  return {
    model: json.model,
    messages: systemText ? [{ role: 'system' as const, content: systemText }, ...messages] : messages,
    maxTokens: json.max_tokens,
    stream: json.stream === true,
    includeUsage: false,
  };
}

function rateLimitHeaders(s: LimitSnapshot, nowMs: number): Record<string, string> {
  return {
    'anthropic-ratelimit-requests-limit': String(s.requests.limit),
    'anthropic-ratelimit-requests-remaining': String(s.requests.remaining),
    'anthropic-ratelimit-requests-reset': formatRfc3339(nowMs + s.requests.resetMs),
    'anthropic-ratelimit-tokens-limit': String(s.tokens.limit),
    'anthropic-ratelimit-tokens-remaining': String(s.tokens.remaining),
    'anthropic-ratelimit-tokens-reset': formatRfc3339(nowMs + s.tokens.resetMs),
  };
}

function error(err: SimError, ctx: WireContext): WireError {
  const id = ctx.requestId;
  const retry = (ms?: number): Record<string, string> => ({ 'x-should-retry': 'true', ...(ms !== undefined ? { 'retry-after': retryAfterSeconds(ms) } : {}) });
  switch (err.kind) {
    case 'server_error':
      return { status: err.status ?? 500, headers: retry(err.retryAfterMs), body: body('api_error', 'Internal server error', id) };
    case 'unavailable':
      return { status: err.status ?? 503, headers: retry(err.retryAfterMs), body: body('api_error', 'Service unavailable', id) };
    case 'overloaded':
      return { status: err.status ?? 529, headers: retry(err.retryAfterMs), body: body('overloaded_error', 'Overloaded', id) };
    case 'insufficient_quota':
      return { status: 400, headers: {}, body: body('invalid_request_error', CREDIT, id) };
    case 'unauthorized':
      return { status: 401, headers: {}, body: body('authentication_error', 'invalid x-api-key', id) };
    case 'missing_key':
      return { status: 401, headers: {}, body: body('authentication_error', 'x-api-key header is required', id) };
    case 'rate_limited': {
      const what = err.window === 'requests' ? 'requests' : 'tokens';
      const message = `This request would exceed the rate limit for your organization (${ctx.org}) of ${withCommas(err.limit)} ${what} per minute. ${RATE_LIMIT_TAIL}`;
      return { status: 429, headers: err.tooLarge ? { 'x-should-retry': 'false' } : retry(err.waitMs), body: body('rate_limit_error', message, id) };
    }
    case 'invalid_request':
      return { status: 400, headers: {}, body: body('invalid_request_error', err.message, id) };
    case 'context_length':
      return { status: 400, headers: {}, body: body('invalid_request_error', `prompt is too long: ${err.tokens} tokens > ${err.limit} maximum`, id) };
    case 'model_not_found':
      return { status: 404, headers: {}, body: body('not_found_error', `model: ${err.model}`, id) };
    case 'invalid_url':
      return { status: 404, headers: {}, body: body('not_found_error', 'Not Found', id) };
    case 'too_large':
      // Cloudflare answers this one, before the API: no request id.
      return { status: 413, headers: {}, body: body('request_too_large', 'Request exceeds the maximum allowed number of bytes.', null) };
  }
}

/** Anthropic Messages: `x-api-key` or Bearer, `request-id`, `anthropic-ratelimit-*` with RFC 3339 resets. */
export const anthropicWire: Wire = {
  type: 'anthropic',
  requestIdHeader: 'request-id',
  keyOf(headers: IncomingHttpHeaders) {
    const key = headers['x-api-key'];
    if (typeof key === 'string' && key) return key;
    const auth = headers.authorization;
    return auth?.startsWith('Bearer ') && auth.length > 7 ? auth.slice(7) : undefined;
  },
  parse,
  headers(ctx, snapshot) {
    return {
      'request-id': ctx.requestId,
      'anthropic-organization-id': ctx.org,
      ...(snapshot ? rateLimitHeaders(snapshot, ctx.nowMs) : {}),
    };
  },
  error,
  completion(request, answer, ids) {
    return {
      id: ids.id,
      type: 'message',
      role: 'assistant',
      model: request.model,
      content: [{ type: 'text', text: answer.text }],
      stop_reason: answer.finish === 'length' ? 'max_tokens' : 'end_turn',
      stop_sequence: null,
      usage: {
        input_tokens: answer.inputTokens, cache_creation_input_tokens: 0, cache_read_input_tokens: 0,
        cache_creation: { ephemeral_5m_input_tokens: 0, ephemeral_1h_input_tokens: 0 },
        output_tokens: answer.outputTokens, service_tier: 'standard',
      },
    };
  },
  stream(request, answer, ids) {
    const message = {
      id: ids.id, type: 'message', role: 'assistant', content: [], model: request.model, stop_reason: null, stop_sequence: null,
      usage: { input_tokens: answer.inputTokens, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, output_tokens: 1, service_tier: 'standard' },
    };
    return {
      head: [
        sseFrame({ type: 'message_start', message }, 'message_start'),
        sseFrame({ type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }, 'content_block_start'),
        sseFrame('{"type": "ping"}', 'ping'),
      ],
      pieces: answer.pieces.map((text) => sseFrame({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text } }, 'content_block_delta')),
      tail: [
        sseFrame({ type: 'content_block_stop', index: 0 }, 'content_block_stop'),
        // Usage in message_delta is cumulative: the whole answer's output tokens.
        sseFrame({ type: 'message_delta', delta: { stop_reason: answer.finish === 'length' ? 'max_tokens' : 'end_turn', stop_sequence: null }, usage: { output_tokens: answer.outputTokens } }, 'message_delta'),
        sseFrame({ type: 'message_stop' }, 'message_stop'),
      ],
      error: sseFrame('{"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}}', 'error'),
    };
  },
  ids(random) {
    return { requestId: `req_011C${randomChars(random, 20, BASE58)}`, answerId: `msg_01${randomChars(random, 22, BASE58)}` };
  },
};
