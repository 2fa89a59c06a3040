import { answerStatus } from '../decide/exhausted-status.js';
import { ERROR_KINDS, errorFacts, isRouterError, type ErrorKind, type RouterError } from '../errors.js';

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
 * OpenAI's `type` word for each kind: wire vocabulary only. The status and the retry headers come
 * from the kind's facts (ERROR_FACTS, src/errors.ts), the same ones the router decides by.
 */
const TYPE_BY_KIND: Readonly<Record<ErrorKind, string>> = {
  invalid_request: 'invalid_request_error', bad_request: 'invalid_request_error', context_length: 'invalid_request_error',
  content_filter: 'invalid_request_error', unsupported: 'invalid_request_error',
  exhausted: 'upstream_error', rate_limited: 'rate_limit_error', local_limit: 'rate_limit_error', circuit_open: 'upstream_error',
  quota_exhausted: 'insufficient_quota',
  auth: 'upstream_error', not_found: 'upstream_error', server: 'upstream_error', transport: 'upstream_error', timeout: 'upstream_error',
  invalid_output: 'upstream_error',
  config: 'server_error', aborted: 'server_error',
  budget_exceeded: 'insufficient_quota',
};

/**
 * `x-should-retry` for a kind, when it does not depend on a wait: `false` where retrying cannot help
 * (not `retryable`) or where the upstream is failing and the gateway already retried it with backoff
 * (the kinds a breaker counts: a client's retry on top only adds to the load); undefined where the
 * client's own retry policy is right. Capacity (`clearsWithTime`, or a 429) decides by its wait instead.
 */
function shouldRetry(kind: ErrorKind): 'false' | undefined {
  const facts = errorFacts(kind);
  return !facts.retryable || facts.breakerCounts ? 'false' : undefined;
}

/** The envelope of an error the gateway raises itself (401, 404, 413, ...). */
export function gatewayError(status: number, type: string, code: string | null, message: string, param: string | null = null, headers: Record<string, string> = {}): ErrorReply {
  return { status, headers: Object.assign({}, (status < 500 ? { 'x-should-retry': 'false' } : {}), headers), body: { error: { message, type, param, code } } };
}

/** `retry-after-ms` and `retry-after` (whole seconds, rounded up) for a wait in ms. */
function waitHeaders(ms: number | undefined): Record<string, string> {
  if (ms === undefined || !Number.isFinite(ms)) return {};
  const wait = Math.max(0, Math.ceil(ms));
  return { 'retry-after-ms': String(wait), 'retry-after': String(Math.ceil(wait / 1000)) };
}

/**
 * The wire name of a parameter a RouterError names (`param`), for a route that knows how its
 * request maps to the router's (`maxTokens` -> `max_tokens`); names it does not know pass as they are.
 */
export type WireParam = (param: string) => string;

function fromRouterError(err: RouterError, wireParam: WireParam | undefined): ErrorReply {
  const facts = errorFacts(err.kind);
  const status = answerStatus(err);
  const headers: Record<string, string> = {};
  let code: string | null = err.code ?? null;
  let message = err.message;
  if (facts.clearsWithTime || status === 429 || err.kind === 'exhausted') {
    // Capacity says when to come back; with no known time, or one the SDKs will not wait for, the
    // gateway has done all retrying there is to do.
    Object.assign(headers, waitHeaders(err.retryAfterMs));
    if (!facts.retryable || err.retryAfterMs === undefined || err.retryAfterMs > SDK_MAX_HINT_MS) headers['x-should-retry'] = 'false';
    if (err.kind === 'exhausted') code = 'chain_exhausted';
  } else {
    const retry = shouldRetry(err.kind);
    if (retry) headers['x-should-retry'] = retry;
  }
  if (err.kind === 'context_length') code = 'context_length_exceeded';
  if (err.kind === 'aborted') code = 'gateway_closing';
  if (err.kind === 'budget_exceeded') code = 'budget_exceeded';
  const param = err.kind === 'invalid_request' && err.param !== undefined ? (wireParam?.(err.param) ?? err.param) : null;
  if (err.kind === 'invalid_request') {
    code ??= 'invalid_parameter';
    message = oneLine(message, err.param, param);
  }
  if (message.startsWith('fromOpenAI: ')) message = message.slice('fromOpenAI: '.length);
  // An exhausted chain is an outage (its row) unless every failure was throttling: then it reads as one.
  const type = err.kind === 'exhausted' && status === 429 ? 'rate_limit_error' : TYPE_BY_KIND[err.kind] ?? TYPE_BY_KIND.server;
  return { status, headers, body: { error: { message, type, param, code } } };
}

/**
 * A refusal as one line, in the wire's words. The router's validation lists every problem, one a
 * line (`invalid request:\n  - maxTokens: Too small ...`): the client is told the first, under the
 * name it sent (`max_tokens: Too small ...`), and how many more there were.
 */
function oneLine(message: string, param: string | undefined, wire: string | null): string {
  const lines = message.split('\n');
  if (lines.length === 1) return message;
  const problems = lines.slice(1).map((l) => l.replace(/^\s*-\s*/, '')).filter(Boolean);
  let first = problems[0] ?? lines[0]!;
  if (param !== undefined && wire !== null && first.startsWith(`${param}: `)) first = `${wire}: ${first.slice(param.length + 2)}`;
  const head = lines[0]!.replace(/:$/, '');
  return `${head}: ${first}${problems.length > 1 ? ` (and ${problems.length - 1} more)` : ''}`;
}

/**
 * The answer to any error a route throws: a RouterError by its kind's facts, anything else a 500.
 * `wireParam` names a refused parameter the way the route's clients sent it.
 */
export function errorReply(err: unknown, wireParam?: WireParam): ErrorReply {
  if (isRouterError(err)) return fromRouterError(err, wireParam);
  return gatewayError(500, 'server_error', 'internal_error', 'the gateway failed to handle the request');
}

/** Each kind's status, OpenAI `type` and fixed `x-should-retry` (absent where a wait decides), for the docs and their test. */
export const STATUS_BY_KIND: Readonly<Record<ErrorKind, { status: number; type: string; retry?: 'false' }>> = Object.freeze(
  Object.fromEntries(ERROR_KINDS.map((kind) => {
    const retry = errorFacts(kind).clearsWithTime ? undefined : shouldRetry(kind);
    return [kind, { status: errorFacts(kind).proxyStatus, type: TYPE_BY_KIND[kind], ...(retry ? { retry } : {}) }];
  })) as Record<ErrorKind, { status: number; type: string; retry?: 'false' }>,
);
