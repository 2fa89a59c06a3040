import { headerBag } from '../shared/headers.js';
import { retryAfterHintMs, waitHintMs } from '../shared/wait-hint.js';
import { RouterError, type ErrorKind } from '../../src/errors.js';
import { statusKind } from '../shared/status-kind.js';
import { abortedError, causeCode, malformedResponse, transportError } from '../shared/transport-error.js';

export interface MapContext {
  provider: string;
  model: string;
  nowMs: number;
  redact: (text: string) => string;
}

/**
 * Bedrock's exceptions by name (the SDK's error classes, README.md "Errors"). ModelNotReadyException
 * is sent as a 429 but is the model's capacity, not the caller's rate: a server failure, backed off
 * and counted by the breaker. ModelTimeoutException (408) is Bedrock saying the model did not finish
 * in its own time limit: the decision table's 408 row (retried with backoff, a breaker failure),
 * not `timeout`, which is our own timer firing on an attempt whose fate we do not know.
 * ServiceQuotaExceededException (400, InvokeModel only) is an account quota from the Service Quotas
 * console, which a retry a second later cannot meet: the provider is parked.
 */
const NAME_KIND: Readonly<Record<string, ErrorKind>> = {
  ThrottlingException: 'rate_limited',
  ServiceQuotaExceededException: 'quota_exhausted',
  ServiceUnavailableException: 'server',
  ModelNotReadyException: 'server',
  InternalServerException: 'server',
  InternalFailure: 'server',
  ModelStreamErrorException: 'server',
  ModelTimeoutException: 'server',
  ValidationException: 'bad_request',
  ConflictException: 'bad_request',
  AccessDeniedException: 'auth',
  UnrecognizedClientException: 'auth',
  InvalidSignatureException: 'auth',
  IncompleteSignature: 'auth',
  IncompleteSignatureException: 'auth',
  MissingAuthenticationTokenException: 'auth',
  InvalidClientTokenId: 'auth',
  ExpiredTokenException: 'auth',
  ExpiredToken: 'auth',
  ResourceNotFoundException: 'not_found',
};

// "Input is too long for requested model." and Claude's "prompt is too long: 227255 tokens > 200000
// maximum" / "input length and `max_tokens` exceed context limit" (recorded in issues, README.md).
const CONTEXT_MESSAGE = /input is too long|prompt is too long|exceeds? (?:the )?(?:model'?s? )?(?:maximum )?context|context (?:limit|length|window)/i;
// The daily token quota arrives as a ThrottlingException ("Too many tokens per day, please wait
// before trying again."): no wait of seconds meets it, so it parks the provider like a quota.
const PER_DAY = /per day/i;
// "This model doesn't support the toolConfig.toolChoice.any field", "... doesn't support tool use in
// streaming mode": the request is fine, this model cannot carry it; another target may.
const NOT_SUPPORTED = /(?:doesn't|does not) support|is not supported|isn't supported/i;
const CREDENTIALS = /credential|Could not load|security token|session token/i;

interface AwsError {
  name?: string;
  message?: string;
  code?: string;
  $fault?: string;
  $metadata?: { httpStatusCode?: number; requestId?: string };
  $response?: { statusCode?: number; headers?: Record<string, string> };
  originalStatusCode?: number;
}

function kindOf(name: string, status: number | undefined, message: string, e: AwsError): ErrorKind {
  if (name === 'ThrottlingException' && PER_DAY.test(message)) return 'quota_exhausted';
  if (name === 'ValidationException' && CONTEXT_MESSAGE.test(message)) return 'context_length';
  if (name === 'ValidationException' && NOT_SUPPORTED.test(message)) return 'unsupported';
  // A model's own error: the original status says whose fault it was.
  if (name === 'ModelErrorException') {
    const original = e.originalStatusCode;
    return original !== undefined && original >= 400 && original < 500 && original !== 429 ? 'bad_request' : 'server';
  }
  const named = NAME_KIND[name];
  if (named) return named;
  if (status !== undefined && status > 0) return statusKind(status);
  return e.$fault === 'client' ? 'bad_request' : 'server';
}

/**
 * Maps anything the AWS SDK throws to a `RouterError` with facts; never decides what happens next.
 * Credentials that cannot be found (the default chain ran dry) are `auth`, naming the provider and
 * where the chain looks, never what it found; a missing region is `config`.
 */
export function mapBedrockError(err: unknown, ctx: MapContext): RouterError {
  const where = { provider: ctx.provider, model: ctx.model };
  if (err instanceof RouterError) return err;
  const e = (err ?? {}) as AwsError;
  const name = String(e.name ?? '');
  const rawMessage = typeof e.message === 'string' ? e.message : String(err);
  if (name === 'AbortError') return abortedError(where, err);
  if (name === 'CredentialsProviderError' || (name === 'ProviderError' && CREDENTIALS.test(rawMessage))) {
    return new RouterError('auth', `${ctx.provider}: no usable AWS credentials (${ctx.redact(rawMessage)}); the default chain reads AWS_ACCESS_KEY_ID/AWS_SECRET_ACCESS_KEY, AWS_PROFILE and the shared config files, SSO, and container or instance roles`, Object.assign({}, where, { code: 'credentials_missing', cause: err }));
  }
  if (/region is missing/i.test(rawMessage)) {
    return new RouterError('config', `${ctx.provider}: no AWS region (set providers.${ctx.provider}.region, or AWS_REGION)`, Object.assign({}, where, { code: 'region_missing', cause: err }));
  }
  const status = e.$metadata?.httpStatusCode ?? e.$response?.statusCode;
  const known = name in NAME_KIND || name === 'ModelErrorException';
  if (status === undefined && !known) {
    // Not an answer from Bedrock (an exception frame of a stream is one): the socket, a timer, or a
    // body the SDK could not read. The SDK's HTTP handler names a reset socket (ECONNRESET, EPIPE)
    // a TimeoutError too; only one without a socket code is its own request timeout.
    if (causeCode(err)) return transportError(err, where, ctx.redact);
    if (name === 'TimeoutError') return new RouterError('timeout', `${ctx.provider} request timed out`, Object.assign({}, where, { cause: err }));
    if (/deserializ|unexpected token|JSON/i.test(rawMessage)) return Object.assign(malformedResponse(where, ctx.redact(rawMessage)), { cause: err });
    if (name === 'SyntaxError') return malformedResponse(where, ctx.redact(rawMessage));
    if (!name || name === 'Error' || name === 'TypeError') return transportError(err, where, ctx.redact);
  }
  const message = ctx.redact(rawMessage);
  const kind = kindOf(name, status, message, e);
  const headers = headerBag(e.$response?.headers);
  const retryAfterMs = kind === 'rate_limited'
    ? waitHintMs({ headers, nowMs: ctx.nowMs, message })
    : kind === 'server' ? retryAfterHintMs(headers, ctx.nowMs) : undefined;
  return new RouterError(kind, `${ctx.provider} ${status ?? 'stream'} ${name || kind}: ${message}`, Object.assign({}, where, { status, code: name || undefined, retryAfterMs, requestId: e.$metadata?.requestId ?? headers?.get('x-amzn-requestid') ?? undefined, cause: err }));
}
