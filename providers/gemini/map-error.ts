import { RouterError, type ErrorKind } from '../../src/errors.js';
import { statusKind } from '../shared/status-kind.js';
import { messageHintMs, retryAfterHeaderMs, retryInfoMs } from './retry-hint.js';
import type { GeminiErrorBody, GeminiErrorDetail } from './wire-types.js';

export interface GeminiErrorContext {
  provider: string;
  model: string;
  nowMs: number;
  redact: (text: string) => string;
}

/** A failed answer as it came: its HTTP status (none for a mid-stream frame), body and headers. */
export interface GeminiFailure {
  status?: number;
  body: unknown;
  headers?: Headers;
}

/** A quota that lasts the day: waiting minutes will not bring it back (`GenerateRequestsPerDayPerProjectPerModel-FreeTier`). */
const PER_DAY = /PerDay/i;
const CONTEXT_MESSAGE = /input token count .*exceeds the maximum|exceeds the maximum number of tokens|context (?:window|length)/i;
const BAD_KEY_REASONS = new Set(['API_KEY_INVALID', 'API_KEY_EXPIRED']);
const BAD_KEY_MESSAGE = /API key (?:not valid|expired)/i;

/** Google's canonical codes that say what happened whatever the HTTP status. */
const STATUS_KIND: Readonly<Record<string, ErrorKind>> = {
  RESOURCE_EXHAUSTED: 'rate_limited',
  UNAVAILABLE: 'server',
  INTERNAL: 'server',
  DEADLINE_EXCEEDED: 'server',
  UNKNOWN: 'server',
  ABORTED: 'server',
  CANCELLED: 'server',
  UNAUTHENTICATED: 'auth',
  PERMISSION_DENIED: 'auth',
  NOT_FOUND: 'not_found',
  INVALID_ARGUMENT: 'bad_request',
  OUT_OF_RANGE: 'bad_request',
  FAILED_PRECONDITION: 'quota_exhausted',
};

const detailsOf = (type: string, details: readonly GeminiErrorDetail[]) => details.filter((d) => d?.['@type']?.endsWith(`google.rpc.${type}`));

/** The envelope of a body, also when a proxy wrapped it in an array (`[{error: ...}]`, the `alt=json` stream form). */
function envelopeOf(body: unknown): GeminiErrorBody['error'] | undefined {
  const first = Array.isArray(body) ? body[0] : body;
  const error = (first as GeminiErrorBody | undefined)?.error;
  return typeof error === 'object' && error !== null ? error : undefined;
}

function kindOf(status: number | undefined, googleStatus: string | undefined, details: readonly GeminiErrorDetail[], message: string): { kind: ErrorKind; code?: string } {
  const reason = detailsOf('ErrorInfo', details).map((d) => d.reason).find((r): r is string => typeof r === 'string');
  // A wrong key is a 400 INVALID_ARGUMENT on this API, not a 401.
  if ((reason && BAD_KEY_REASONS.has(reason)) || BAD_KEY_MESSAGE.test(message)) return { kind: 'auth', code: reason ?? 'API_KEY_INVALID' };
  if (status === 429 || googleStatus === 'RESOURCE_EXHAUSTED') {
    const quotaIds = detailsOf('QuotaFailure', details).flatMap((d) => d.violations ?? []).map((v) => v.quotaId).filter((id): id is string => typeof id === 'string');
    const daily = quotaIds.find((id) => PER_DAY.test(id));
    if (daily) return { kind: 'quota_exhausted', code: daily };
    return { kind: 'rate_limited', code: quotaIds[0] ?? 'RESOURCE_EXHAUSTED' };
  }
  // Billing not set up, a region the API does not serve: nothing a retry changes. The provider is parked.
  if (googleStatus === 'FAILED_PRECONDITION') return { kind: 'quota_exhausted', code: 'FAILED_PRECONDITION' };
  if ((status === 400 || status === 413 || googleStatus === 'INVALID_ARGUMENT') && CONTEXT_MESSAGE.test(message)) return { kind: 'context_length', code: googleStatus };
  const byStatus = status === undefined ? undefined : statusKind(status);
  // The HTTP status decides, but for a 4xx Google's code may say more (a 400 that is NOT_FOUND); a mid-stream frame has only the code.
  const kind = byStatus === 'server' || byStatus === 'rate_limited' ? byStatus : (googleStatus && STATUS_KIND[googleStatus]) || byStatus || 'server';
  return { kind, code: googleStatus ?? reason };
}

/** The body with every secret hidden, kept as the error's cause (a proxy may echo the key in it). */
function redactedBody(body: unknown, redact: (text: string) => string): unknown {
  if (body === undefined || typeof body === 'string') return body === undefined ? undefined : redact(body);
  try {
    return JSON.parse(redact(JSON.stringify(body)));
  } catch {
    return undefined;
  }
}

/**
 * Maps Google's error envelope `{error: {code, message, status, details}}` to a `RouterError` with
 * facts; never decides what happens next. RESOURCE_EXHAUSTED is a rate limit waiting on
 * `retry-after-ms` / `retry-after` (a proxy's), then `RetryInfo.retryDelay`, then "retry in Ns" in
 * the message, unless a violated quota is per-day (`...PerDay...`): that is `quota_exhausted`, code
 * the quota id. FAILED_PRECONDITION (billing, region) is `quota_exhausted` too. An invalid key
 * (400 API_KEY_INVALID) and 401/403 are `auth`; 400 naming the token limit `context_length`.
 */
export function mapGeminiError(failure: GeminiFailure, ctx: GeminiErrorContext): RouterError {
  const where = { provider: ctx.provider, model: ctx.model };
  const envelope = envelopeOf(failure.body);
  const details = Array.isArray(envelope?.details) ? envelope.details : [];
  const raw = envelope?.message ?? (typeof failure.body === 'string' ? failure.body.slice(0, 500) : 'no error message');
  const message = ctx.redact(String(raw));
  const googleStatus = typeof envelope?.status === 'string' ? envelope.status : undefined;
  // A frame sent after a 200 carries no HTTP status of its own; its envelope's `code` is one.
  const status = failure.status ?? (typeof envelope?.code === 'number' ? envelope.code : undefined);
  const { kind, code } = kindOf(status, googleStatus, details, message);
  const hint = retryAfterHeaderMs(failure.headers, ctx.nowMs);
  const retryAfterMs = kind === 'rate_limited' ? hint ?? retryInfoMs(details) ?? messageHintMs(message)
    : kind === 'server' ? hint ?? retryInfoMs(details) : undefined;
  return new RouterError(kind, `${ctx.provider} ${failure.status ?? 'stream'} ${kind}: ${message}`, Object.assign({}, where, { status: failure.status, code, retryAfterMs, cause: { status: failure.status, body: redactedBody(failure.body, ctx.redact) } }));
}
