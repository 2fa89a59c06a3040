import { answerStatus } from '../../decide/exhausted-status.js';
import { isRouterError, type ErrorKind } from '../../errors.js';
import type { ErrorReply } from '../error-reply.js';

/** Anthropic's error envelope, what its SDK reads `error.type` and `error.message` from. */
export interface AnthropicErrorEnvelope {
  type: 'error';
  error: { type: string; message: string };
  request_id: string | null;
}

/** A gateway error answer in Anthropic's words. */
export interface AnthropicErrorReply {
  status: number;
  headers: Record<string, string>;
  body: AnthropicErrorEnvelope;
}

/**
 * Anthropic's status and `error.type` for a status the gateway answers, in the pairs of Anthropic's
 * errors page (https://docs.claude.com/en/api/errors; /work/shared/reference/provider-wire-formats.md
 * §2.2): 400 `invalid_request_error` (also "for other 4XX status codes not listed"), 401
 * `authentication_error`, 403 `permission_error`, 404 `not_found_error`, 413 `request_too_large`,
 * 429 `rate_limit_error`, 500 `api_error`, 504 `timeout_error`, 529 `overloaded_error`. Anthropic has
 * no 502 or 503: a 503 (a chain that is down, a drain) becomes 529, which Anthropic-native clients
 * read as "come back later"; a 502 is a 500. The gateway's own refusals (no kind) read this alone.
 */
const BY_STATUS: Readonly<Record<number, readonly [number, string]>> = {
  400: [400, 'invalid_request_error'], 401: [401, 'authentication_error'], 403: [403, 'permission_error'],
  404: [404, 'not_found_error'], 413: [413, 'request_too_large'], 415: [400, 'invalid_request_error'],
  422: [400, 'invalid_request_error'], 429: [429, 'rate_limit_error'], 500: [500, 'api_error'], 501: [500, 'api_error'],
  502: [500, 'api_error'], 503: [529, 'overloaded_error'], 504: [504, 'timeout_error'], 529: [529, 'overloaded_error'],
};

const [INVALID, RATE, API, TIMEOUT, OVERLOADED] = [BY_STATUS[400]!, BY_STATUS[429]!, BY_STATUS[500]!, BY_STATUS[504]!, BY_STATUS[529]!];

/**
 * Anthropic's status and `error.type` for each kind: the one table every Messages reply and every
 * Messages stream `error` event reads. Each row is the pair its proxy status (ERROR_FACTS) maps to,
 * but one: a sick upstream (`server`, `transport`, 502 on the OpenAI wire) is 529
 * `overloaded_error`, not 500 `api_error`. That is the word Anthropic itself sends when a stream
 * breaks off ("during periods of high usage, you may receive an overloaded_error, which would
 * normally correspond to an HTTP 529 in a non-streaming context", the errors page), and the word a
 * cut stream has always ended with here (test/gateway/messages.test.ts); the reply for the same
 * failure now says the same. A 502 that is no outage (the upstream refused the gateway's own key or
 * model, output that did not validate) stays 500 `api_error`. Two kinds answer by the status they
 * got instead: `exhausted` by its cause (429, 504, else 503 -> 529) and `bad_request` when the
 * upstream's 413 or 422 is kept.
 */
export const ANTHROPIC_ERROR: Readonly<Record<ErrorKind, readonly [number, string]>> = Object.freeze({
  invalid_request: INVALID, bad_request: INVALID, context_length: INVALID, content_filter: INVALID, unsupported: INVALID,
  rate_limited: RATE, local_limit: RATE, quota_exhausted: RATE, budget_exceeded: RATE,
  circuit_open: OVERLOADED, aborted: OVERLOADED, server: OVERLOADED, transport: OVERLOADED, exhausted: OVERLOADED,
  timeout: TIMEOUT,
  auth: API, not_found: API, invalid_output: API, config: API,
});

/** Anthropic's status and `error.type` for a kind (undefined: the gateway's own refusal) answered with `status`. */
export function anthropicWordsOf(kind: ErrorKind | undefined, status: number): readonly [number, string] {
  if (kind !== undefined && kind !== 'exhausted' && kind !== 'bad_request') return ANTHROPIC_ERROR[kind] ?? API;
  return BY_STATUS[status] ?? (status >= 500 ? API : [status, 'invalid_request_error']);
}

/**
 * An error answer (OpenAI's envelope, as every route builds it) in Anthropic's envelope and
 * statuses, with the same retry headers (`retry-after`, `retry-after-ms`, `x-should-retry`: the
 * Anthropic SDKs honour them as the openai SDKs do). The message keeps naming the parameter.
 */
export function anthropicErrorOf(reply: ErrorReply, requestId: string | null): AnthropicErrorReply {
  const [status, type] = anthropicWordsOf(reply.kind, reply.status);
  const { message, param } = reply.body.error;
  const named = param && !message.includes(param) ? `${param}: ${message}` : message;
  return { status, headers: reply.headers, body: { type: 'error', error: { type, message: named }, request_id: requestId } };
}

/** The `error` event that ends a Messages stream after its commit point (Anthropic's own shape: no request id, which the stream's headers carry). */
export type AnthropicErrorEvent = {
  type: 'error';
  error: { type: string; message: string };
};

/**
 * The one event that ends a Messages stream after its commit point, whatever ended it: the kind's
 * word from the table. The Anthropic SDK throws a status-less `APIError` on it, the body in
 * `err.error` and the word in `err.type` (node_modules/@anthropic-ai/sdk/core/streaming.js: `if
 * (sse.event === 'error') throw new APIError(undefined, body, undefined, response.headers, type)`);
 * it never retries one. Anything but a RouterError is the gateway's own failure, told without its message.
 */
export function anthropicErrorEvent(err: unknown): AnthropicErrorEvent {
  if (!isRouterError(err)) return { type: 'error', error: { type: 'api_error', message: 'the gateway failed to handle the request' } };
  return { type: 'error', error: { type: anthropicWordsOf(err.kind, answerStatus(err))[1], message: err.message } };
}
