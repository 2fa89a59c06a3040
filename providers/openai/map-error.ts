import OpenAI from 'openai';
import { retryAfterHintMs, waitHintMs } from '../shared/wait-hint.js';
import { readRateLimits } from '../shared/rate-limit-snapshot.js';
import { RouterError, type ErrorKind } from '../../src/errors.js';
import { statusKind } from '../shared/status-kind.js';
import { abortedError, transportError } from '../shared/transport-error.js';
import { aliasedHeaders, type PresetDialect } from '../shared/presets/dialect.js';

export interface MapContext {
  provider: string;
  model: string;
  nowMs: number;
  redact: (text: string) => string;
  /** An `openai-compatible` preset's own headers and error meanings. */
  dialect?: PresetDialect;
}

// Billing and spend codes: never retried, the provider is parked. `insufficient_credits` is what
// some OpenAI-compatible services (OpenRouter-style) send on a 429 when the balance is gone.
const QUOTA_CODES = new Set([
  'insufficient_quota', 'insufficient_credits', 'credit_balance_exhausted', 'billing_hard_limit_reached',
  'organization_spend_limit_exceeded', 'project_spend_limit_exceeded', 'organization_usage_limit_exceeded',
  'billing_not_active', 'access_terminated',
]);
const QUOTA_PATTERN = /spend_limit|usage_limit|insufficient_(quota|credits|balance)|credit_balance/;
const CONTEXT_CODES = new Set(['context_length_exceeded', 'string_above_max_length']);
const CONTEXT_MESSAGE = /maximum context length|context length exceeded|context window|too many tokens/i;
const FILTER_CODES = new Set(['content_filter', 'content_policy_violation']);
const RATE_TYPES = new Set(['requests', 'tokens', 'rate_limit_error', 'rate_limit_exceeded']);

interface Inner {
  message?: string;
  type?: string;
  /** A string on OpenAI; the HTTP status as a number on vLLM and OpenRouter. */
  code?: string | number | null;
  metadata?: Record<string, unknown>;
}

function kindOf(status: number | undefined, code: string | undefined, type: string | undefined, message: string): ErrorKind {
  if ((code && (QUOTA_CODES.has(code) || QUOTA_PATTERN.test(code))) || type === 'insufficient_quota') return 'quota_exhausted';
  if (status === undefined) {
    // A mid-stream `data: {"error": ...}` frame: no HTTP status, only the inner type and code.
    if (code === 'rate_limit_exceeded' || code === 'slow_down' || (type && RATE_TYPES.has(type))) return 'rate_limited';
    if (code && CONTEXT_CODES.has(code)) return 'context_length';
    if (type === 'invalid_request_error') return 'bad_request';
    // server_error, service_unavailable_error and anything unknown: the provider failed mid-answer.
    return 'server';
  }
  if (status === 400 || status === 413 || status === 422) {
    if ((code && CONTEXT_CODES.has(code)) || CONTEXT_MESSAGE.test(message)) return 'context_length';
    if (code && FILTER_CODES.has(code)) return 'content_filter';
    return 'bad_request';
  }
  return statusKind(status);
}

/** Maps anything the openai SDK throws to a `RouterError` with facts; never decides what happens next. */
export function mapOpenAIError(err: unknown, ctx: MapContext): RouterError {
  const where = { provider: ctx.provider, model: ctx.model };
  if (err instanceof RouterError) return err;
  if (err instanceof OpenAI.APIUserAbortError) return abortedError(where, err);
  if (err instanceof OpenAI.APIConnectionTimeoutError) {
    return new RouterError('timeout', `${ctx.provider} request timed out`, Object.assign({}, where, { cause: err }));
  }
  if (err instanceof OpenAI.APIConnectionError) return transportError(err.cause ?? err, where, ctx.redact);
  if (!(err instanceof OpenAI.APIError)) {
    if ((err as Error)?.name === 'AbortError') return abortedError(where, err);
    return transportError(err, where, ctx.redact);
  }

  // `err.error` is the inner `{message,type,param,code}`; some servers send `{"error": "slow down"}`.
  const inner: Inner = typeof err.error === 'object' && err.error !== null ? (err.error as Inner) : {};
  const bare = typeof err.error === 'string' ? err.error : undefined;
  const rawCode: unknown = err.code ?? inner.code ?? undefined;
  const code = typeof rawCode === 'string' && rawCode !== '' ? rawCode : undefined;
  const type = err.type ?? inner.type;
  const message = ctx.redact(inner.message ?? bare ?? err.message);
  const status = err.status;
  const headers = err.headers ? aliasedHeaders(err.headers, ctx.dialect?.headerAliases) : undefined;
  // An error frame in a 200 stream (OpenRouter, vLLM) may carry its HTTP status as a numeric code.
  const statusOf = status ?? (typeof rawCode === 'number' && rawCode >= 400 && rawCode < 600 ? rawCode : undefined);
  const verdict = ctx.dialect?.classify?.({ status, code, type, message, metadata: inner.metadata, headers });
  const kind = verdict?.kind ?? kindOf(statusOf, code, type, message);
  let factCode = verdict?.code ?? code ?? (type && type !== 'invalid_request_error' ? type : undefined);
  // "Request too large ... on tokens per min": the request alone exceeds this target's TPM.
  if (kind === 'rate_limited' && /^Request too large/i.test(message)) factCode = 'request_too_large';
  if (kind === 'rate_limited' && bare) factCode ??= 'slow_down';

  const retryAfterMs = kind === 'rate_limited'
    ? waitHintMs({ headers, nowMs: ctx.nowMs, message, window: type === 'requests' || type === 'tokens' ? type : undefined })
    : kind === 'server' ? retryAfterHintMs(headers, ctx.nowMs) : undefined;

  return new RouterError(kind, `${ctx.provider} ${status ?? 'stream'} ${kind}: ${message}`, Object.assign({}, where, { status, code: factCode, retryAfterMs, requestId: err.requestID ?? undefined, rateLimit: readRateLimits(headers, ctx.nowMs), cause: err }));
}
