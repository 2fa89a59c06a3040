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
 * Anthropic's status and `error.type` for a gateway status. A 503 (a chain that is down, a drain)
 * becomes 529 `overloaded_error`, which Anthropic-native clients read as "come back later" and retry;
 * a 504 is `timeout_error`; a 502 (an upstream refused the gateway's own key or model) `api_error`.
 */
const BY_STATUS: Readonly<Record<number, readonly [number, string]>> = {
  400: [400, 'invalid_request_error'], 401: [401, 'authentication_error'], 403: [403, 'permission_error'],
  404: [404, 'not_found_error'], 413: [413, 'request_too_large'], 415: [400, 'invalid_request_error'],
  422: [400, 'invalid_request_error'], 429: [429, 'rate_limit_error'], 500: [500, 'api_error'], 501: [500, 'api_error'],
  502: [500, 'api_error'], 503: [529, 'overloaded_error'], 504: [504, 'timeout_error'],
};

/**
 * An error answer (OpenAI's envelope, as every route builds it) in Anthropic's envelope and
 * statuses, with the same retry headers (`retry-after`, `retry-after-ms`, `x-should-retry`: the
 * Anthropic SDKs honour them as the openai SDKs do). The message keeps naming the parameter.
 */
export function anthropicErrorOf(reply: ErrorReply, requestId: string | null): AnthropicErrorReply {
  const [status, type] = BY_STATUS[reply.status] ?? (reply.status >= 500 ? [500, 'api_error'] : [reply.status, 'invalid_request_error']);
  const { message, param } = reply.body.error;
  const named = param && !message.includes(param) ? `${param}: ${message}` : message;
  return { status, headers: reply.headers, body: { type: 'error', error: { type, message: named }, request_id: requestId } };
}
