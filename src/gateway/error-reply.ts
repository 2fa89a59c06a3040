import { OPENAI_ERROR_TYPE, openAIErrorType } from '../convert/openai-errors.js';
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
  /** The RouterError kind answered, when it was one (another wire's envelope reads its own words by it); undefined for the gateway's own refusals. */
  kind: ErrorKind | undefined;
}

/** The longest wait the openai SDKs honour from `retry-after(-ms)`; past it they back off on their own. */
const SDK_MAX_HINT_MS = 60_000;

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
  return { status, headers: Object.assign({}, (status < 500 ? { 'x-should-retry': 'false' } : {}), headers), body: { error: { message, type, param, code } }, kind: undefined };
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
  // The wire's word for the kind (src/convert/openai-errors.ts): an exhausted chain that was only throttled reads as throttling.
  return { status, headers, body: { error: { message, type: openAIErrorType(err, status), param, code } }, kind: err.kind };
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
    return [kind, { status: errorFacts(kind).proxyStatus, type: OPENAI_ERROR_TYPE[kind], ...(retry ? { retry } : {}) }];
  })) as Record<ErrorKind, { status: number; type: string; retry?: 'false' }>,
);
