import { isRouterError, type ErrorKind, type RouterError } from '../errors.js';

/** OpenAI's error envelope: what every SDK reads `message`, `type`, `code` and `param` from. */
export interface ErrorEnvelope {
  error: { message: string; type: string; param: string | null; code: string | null };
}

/** A gateway error answer: status, the headers that steer a client's retries, and the envelope. */
export interface ErrorReply {
  status: number;
  headers: Record<string, string>;
  body: ErrorEnvelope;
}

/** The longest wait the openai SDKs honour from `retry-after(-ms)`; past it they back off on their own. */
const SDK_MAX_HINT_MS = 60_000;

/**
 * How each RouterError kind answers. `retry`: the `x-should-retry` header (`false` where the gateway
 * already retried, or where retrying cannot help; omitted where the client's own retry policy is right).
 */
const BY_KIND: Readonly<Record<ErrorKind, { status: number; type: string; retry?: 'false' }>> = {
  // The caller's fault: 4xx, never worth a retry.
  invalid_request: { status: 400, type: 'invalid_request_error', retry: 'false' },
  bad_request: { status: 400, type: 'invalid_request_error', retry: 'false' },
  context_length: { status: 400, type: 'invalid_request_error', retry: 'false' },
  content_filter: { status: 400, type: 'invalid_request_error', retry: 'false' },
  unsupported: { status: 400, type: 'invalid_request_error', retry: 'false' },
  // Capacity: 429 with the soonest time a target accepts again.
  exhausted: { status: 429, type: 'rate_limit_error' },
  rate_limited: { status: 429, type: 'rate_limit_error' },
  local_limit: { status: 429, type: 'rate_limit_error' },
  circuit_open: { status: 429, type: 'rate_limit_error' },
  quota_exhausted: { status: 429, type: 'insufficient_quota', retry: 'false' },
  // The gateway's side: its provider keys, models or config. The client cannot fix these by retrying.
  auth: { status: 502, type: 'upstream_error', retry: 'false' },
  not_found: { status: 502, type: 'upstream_error', retry: 'false' },
  config: { status: 500, type: 'server_error', retry: 'false' },
  // Upstream failures the gateway already retried.
  server: { status: 502, type: 'upstream_error', retry: 'false' },
  transport: { status: 502, type: 'upstream_error', retry: 'false' },
  timeout: { status: 504, type: 'upstream_error', retry: 'false' },
  // Not retried by the gateway: the client may try again.
  invalid_output: { status: 502, type: 'upstream_error' },
  aborted: { status: 503, type: 'server_error' },
};

/** A field path named by a `fromOpenAI` refusal (`messages[0].role is invalid: …`), as OpenAI's `param`. */
function paramOf(message: string): string | null {
  return /^fromOpenAI: (\S+) is (?:not supported|invalid)/.exec(message)?.[1] ?? null;
}

/** The envelope of an error the gateway raises itself (401, 404, 413, ...). */
export function gatewayError(status: number, type: string, code: string | null, message: string, param: string | null = null, headers: Record<string, string> = {}): ErrorReply {
  return { status, headers: { ...(status < 500 ? { 'x-should-retry': 'false' } : {}), ...headers }, body: { error: { message, type, param, code } } };
}

/** `retry-after-ms` and `retry-after` (whole seconds, rounded up) for a wait in ms. */
function waitHeaders(ms: number | undefined): Record<string, string> {
  if (ms === undefined || !Number.isFinite(ms)) return {};
  const wait = Math.max(0, Math.ceil(ms));
  return { 'retry-after-ms': String(wait), 'retry-after': String(Math.ceil(wait / 1000)) };
}

function fromRouterError(err: RouterError): ErrorReply {
  const row = BY_KIND[err.kind] ?? BY_KIND.server;
  // An upstream 413 or 422 keeps its status: it says more than a 400.
  const status = err.kind === 'bad_request' && (err.status === 413 || err.status === 422) ? err.status : row.status;
  const headers: Record<string, string> = {};
  let code: string | null = err.code ?? null;
  let message = err.message;
  if (row.status === 429) {
    Object.assign(headers, waitHeaders(err.retryAfterMs));
    // No known time, or one the SDKs will not wait for: the gateway has done all retrying there is to do.
    if (row.retry === 'false' || err.retryAfterMs === undefined || err.retryAfterMs > SDK_MAX_HINT_MS) headers['x-should-retry'] = 'false';
    if (err.kind === 'exhausted') code = 'chain_exhausted';
  } else if (row.retry) {
    headers['x-should-retry'] = row.retry;
  }
  if (err.kind === 'context_length') code = 'context_length_exceeded';
  if (err.kind === 'aborted') code = 'gateway_closing';
  const param = err.kind === 'invalid_request' ? paramOf(message) : null;
  if (message.startsWith('fromOpenAI: ')) message = message.slice('fromOpenAI: '.length);
  return { status, headers, body: { error: { message, type: row.type, param, code } } };
}

/** The answer to any error a route throws: a RouterError by the table above, anything else a 500. */
export function errorReply(err: unknown): ErrorReply {
  if (isRouterError(err)) return fromRouterError(err);
  return gatewayError(500, 'server_error', 'internal_error', 'the gateway failed to handle the request');
}

/** The status mapping as a table, for the docs and their test. */
export const STATUS_BY_KIND = BY_KIND;
