import Anthropic from '@anthropic-ai/sdk';
import { readRateLimits } from '../shared/rate-limit-snapshot.js';
import { retryAfterHintMs, waitHintMs } from '../shared/wait-hint.js';
import { RouterError, type ErrorKind } from '../../src/errors.js';
import { statusKind } from '../shared/status-kind.js';
import { abortedError, transportError } from '../shared/transport-error.js';

export interface MapContext {
  provider: string;
  model: string;
  nowMs: number;
  redact: (text: string) => string;
}

// Credit exhaustion arrives as a 400 (`invalid_request_error`); user-set spend limits likewise.
const CREDIT_MESSAGE = /credit balance is too low|specified (?:workspace )?API usage limits/i;
// 429 `details.error_code` values that last until a billing change (not `ramp_limit_exceeded`).
const QUOTA_CODE = /spend_limit|billing/;
const CONTEXT_MESSAGE = /prompt is too long|context window|exceeds? (?:the )?(?:model's )?(?:maximum )?context/i;

const TYPE_KIND: Readonly<Record<string, ErrorKind>> = {
  rate_limit_error: 'rate_limited',
  overloaded_error: 'server',
  api_error: 'server',
  timeout_error: 'server',
  billing_error: 'quota_exhausted',
  authentication_error: 'auth',
  permission_error: 'auth',
  not_found_error: 'not_found',
  request_too_large: 'bad_request',
  invalid_request_error: 'bad_request',
  conflict_error: 'server',
};

function kindOf(status: number | undefined, type: string | undefined, errorCode: string | undefined, message: string): ErrorKind {
  if (status === 402 || type === 'billing_error') return 'quota_exhausted';
  if (errorCode && QUOTA_CODE.test(errorCode)) return 'quota_exhausted';
  if (CREDIT_MESSAGE.test(message)) return 'quota_exhausted';
  if ((status === 400 || status === 413 || type === 'invalid_request_error') && CONTEXT_MESSAGE.test(message)) return 'context_length';
  // A mid-stream `event: error` has no status: the body's type is all there is.
  if (status === undefined) return (type && TYPE_KIND[type]) || 'server';
  return statusKind(status);
}

/** Maps anything the Anthropic SDK throws to a `RouterError` with facts; never decides what happens next. */
export function mapAnthropicError(err: unknown, ctx: MapContext): RouterError {
  const where = { provider: ctx.provider, model: ctx.model };
  if (err instanceof RouterError) return err;
  if (err instanceof Anthropic.APIUserAbortError) return abortedError(where, err);
  if (err instanceof Anthropic.APIConnectionTimeoutError) {
    return new RouterError('timeout', `${ctx.provider} request timed out`, Object.assign({}, where, { cause: err }));
  }
  if (err instanceof Anthropic.APIConnectionError) return transportError(err.cause ?? err, where, ctx.redact);
  if (!(err instanceof Anthropic.APIError)) {
    if ((err as Error)?.name === 'AbortError') return abortedError(where, err);
    return transportError(err, where, ctx.redact);
  }

  // `err.error` is the whole body `{type:'error', error:{type, message, details?}, request_id}`.
  const body = (err.error ?? {}) as { error?: { type?: string; message?: string; details?: { error_code?: string } } };
  const type = err.type ?? body.error?.type ?? undefined;
  const errorCode = err.errorCode ?? body.error?.details?.error_code ?? undefined;
  const message = ctx.redact(err.apiMessage ?? body.error?.message ?? err.message);
  const status = err.status;
  const kind = kindOf(status, type, errorCode, message);
  const headers = err.headers ?? undefined;
  const retryAfterMs = kind === 'rate_limited'
    ? waitHintMs({ headers, nowMs: ctx.nowMs, message })
    : kind === 'server' ? retryAfterHintMs(headers, ctx.nowMs) : undefined;

  return new RouterError(kind, `${ctx.provider} ${status ?? 'stream'} ${kind}: ${message}`, Object.assign({}, where, { status, code: errorCode ?? type, retryAfterMs, requestId: err.requestID ?? undefined, rateLimit: readRateLimits(headers, ctx.nowMs), cause: err }));
}
