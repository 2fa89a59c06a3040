import type { Attempt, ErrorKind, RateLimitSnapshot } from './types.js';

// The kinds are words of the floor (src/types.ts, which `Attempt` needs too); they are exported
// from here as well, beside the error they classify.
export { ERROR_KINDS } from './types.js';
export type { ErrorKind } from './types.js';

/** The facts a `RouterError` carries besides its kind and message. */
export interface RouterErrorFacts {
  provider?: string;
  model?: string;
  status?: number;
  code?: string;
  /** Milliseconds until the target (or, for `exhausted`, the soonest target) is known to accept again. */
  retryAfterMs?: number;
  requestId?: string;
  attempts?: Attempt[];
  /** Headroom the failing response reported, when it carried rate-limit headers. */
  rateLimit?: RateLimitSnapshot;
  /** `invalid_output`: the model's raw text (an answer or a tool call's arguments) that did not parse or validate. */
  raw?: string;
  /**
   * `invalid_request`: the parameter refused, as a path into the input that was checked
   * (`maxTokens`, `messages[1].content` for a call; `max_tokens`, `messages[1].role` for an OpenAI
   * body given to `fromOpenAI`); the first one when several were.
   */
  param?: string;
  cause?: unknown;
}

const BRAND = Symbol.for('switchyard.RouterError');

/** The one error type every Switchyard call ends in, when it does not end in a result. */
export class RouterError extends Error {
  readonly kind: ErrorKind;
  readonly provider?: string;
  readonly model?: string;
  readonly status?: number;
  readonly code?: string;
  readonly retryAfterMs?: number;
  readonly requestId?: string;
  readonly rateLimit?: RateLimitSnapshot;
  readonly raw?: string;
  readonly param?: string;
  attempts: Attempt[];
  override readonly cause: unknown;

  constructor(kind: ErrorKind, message: string, facts: RouterErrorFacts = {}) {
    super(message);
    this.name = 'RouterError';
    this.kind = kind;
    this.provider = facts.provider;
    this.model = facts.model;
    this.status = facts.status;
    this.code = facts.code;
    this.retryAfterMs = facts.retryAfterMs;
    this.requestId = facts.requestId;
    this.rateLimit = facts.rateLimit;
    this.raw = facts.raw;
    this.param = facts.param;
    this.attempts = facts.attempts ?? [];
    this.cause = facts.cause;
    Object.defineProperty(this, BRAND, { value: true });
  }

  /** A copy with some facts replaced; the original is left untouched. */
  with(facts: RouterErrorFacts, message = this.message): RouterError {
    return new RouterError(this.kind, message, {
      provider: this.provider, model: this.model, status: this.status, code: this.code,
      retryAfterMs: this.retryAfterMs, requestId: this.requestId, rateLimit: this.rateLimit, raw: this.raw,
      param: this.param, attempts: this.attempts, cause: this.cause, ...facts,
    });
  }

  /** The facts as a plain object, for logs and JSON output (never includes the cause's stack). */
  toJSON(): Record<string, unknown> {
    return {
      name: this.name, kind: this.kind, message: this.message, provider: this.provider, model: this.model,
      status: this.status, code: this.code, retryAfterMs: this.retryAfterMs, requestId: this.requestId,
      param: this.param, attempts: this.attempts,
    };
  }
}

/** True for any `RouterError`, even one from another copy of the package. */
export function isRouterError(x: unknown): x is RouterError {
  return typeof x === 'object' && x !== null && (x as Record<symbol, unknown>)[BRAND] === true;
}

/**
 * What every place that sorts failures needs to know about one kind: the decision table
 * (src/decide), the BullMQ integration, the gateway's error replies and the AI SDK provider all read
 * this one table, so they cannot answer differently.
 */
export interface ErrorKindFacts {
  /**
   * The request or the router's config is wrong: every target refuses it the same way, so the
   * decision table throws it at once, after at most the one request.
   */
  readonly callerFault: boolean;
  /**
   * Capacity that comes back by itself (a rate-limit window, a local budget, a breaker's next
   * probe): `retryAfterMs`, when known, says when. A queue snoozes the job until then.
   */
  readonly clearsWithTime: boolean;
  /** A failure in a circuit breaker's statistics (a sick server); every other kind stays out of them entirely. */
  readonly breakerCounts: boolean;
  /** The HTTP status a proxy in front of the router answers (see `proxyStatusOf`). */
  readonly proxyStatus: number;
  /**
   * Sending the same call again later may succeed. False where someone must act first: fix the
   * request or the config, pay the bill. A queue fails such a job at once; a proxy tells its
   * client not to retry.
   */
  readonly retryable: boolean;
}

const row = (callerFault: boolean, clearsWithTime: boolean, breakerCounts: boolean, proxyStatus: number, retryable: boolean): ErrorKindFacts =>
  Object.freeze({ callerFault, clearsWithTime, breakerCounts, proxyStatus, retryable });

/**
 * The facts of every ErrorKind (columns: callerFault, clearsWithTime, breakerCounts, proxyStatus,
 * retryable). Where the sites used to disagree, the row says what was settled and why.
 */
export const ERROR_FACTS: Readonly<Record<ErrorKind, ErrorKindFacts>> = Object.freeze({
  // Capacity. A 429 is the client's signal to slow down and says when to come back.
  rate_limited: row(false, true, false, 429, true),
  local_limit: row(false, true, false, 429, true),
  // Someone must pay or raise a limit: the router parks the provider for quota.parkMs, but only to
  // stop asking; nothing says the quota is back by then, so it does not clear with time.
  quota_exhausted: row(false, false, false, 429, false),
  // An open breaker means the upstream is sick, not that the client sent too much: 503 with the
  // breaker's reopening time (the gateway said 429, the AI SDK provider 503; wave 3's status by
  // cause counts an open circuit with the 503 causes too). It clears with time: the half-open probe.
  circuit_open: row(false, true, false, 503, true),
  // A sick upstream, after the router's own retries with backoff. A proxy answers 502 (bad
  // gateway), 504 for a timeout; the AI SDK provider's 503 for `server` gave way to 502.
  server: row(false, false, true, 502, true),
  transport: row(false, false, true, 502, true),
  timeout: row(false, false, true, 504, true),
  // The request: every target refuses it the same way.
  bad_request: row(true, false, false, 400, false),
  context_length: row(true, false, false, 400, false),
  content_filter: row(true, false, false, 400, false),
  invalid_request: row(true, false, false, 400, false),
  // The router's own key or model, refused upstream. A proxy answers 502: its client cannot fix the
  // proxy's key, and a 401 or 404 would tell an openai SDK client that its own key or model is
  // wrong. (The AI SDK provider reports an upstream's own 401 or 404 as it was: in-process the
  // keys are the caller's. Its fallbacks of 401 and 404 gave way to the proxy's 502.)
  auth: row(true, false, false, 502, false),
  not_found: row(true, false, false, 502, false),
  config: row(true, false, false, 500, false),
  // No target of the chain can carry the request (images to a text-only model): one target is
  // skipped for it and the next tried, so it is no caller fault in the decision table; a call that
  // ends in it fails the same way every time.
  unsupported: row(false, false, false, 400, false),
  // The model's answer did not parse or validate. A new attempt samples again and may pass (the
  // gateway let its client retry; BullMQ cancelled the job as a caller fault: settled for retrying,
  // within the queue's own attempts).
  invalid_output: row(false, false, false, 502, true),
  // The caller gave up, or the router is closing (a drain ran out): nothing is wrong with the call.
  // A proxy answers 503, which a client retries elsewhere; the AI SDK provider now says so too.
  aborted: row(false, false, false, 503, true),
  // The chain's own end: every target failed or was skipped. Its status is its attempts' to say
  // (exhaustedStatus, src/decide/exhausted-status.ts): 429 only when every failure was a rate limit
  // or quota, 504 when every one timed out, else 503, the status here, for a chain with no attempts
  // to read. Whether it clears with time, or ever, is its attempts' to say too.
  exhausted: row(false, false, false, 503, true),
  // A tenant's or key's USD budget (`spend`) has no room for the call's worst case: nothing was
  // sent, and no other target is tried (the budget is the caller's, not a target's). A caller
  // fault by the table (thrown at once, never retried); not retryable until someone raises the
  // budget or the window turns, so a proxy answers 429 with `x-should-retry: false`.
  budget_exceeded: row(true, false, false, 429, false),
});

/** True for one of `ERROR_KINDS` (a code or a string from outside). */
export function isErrorKind(value: unknown): value is ErrorKind {
  return typeof value === 'string' && Object.hasOwn(ERROR_FACTS, value);
}

/**
 * The facts of a kind, read safely: `isRouterError` accepts errors from another copy of the
 * package, whose kind this copy may not know; such a kind is taken for a `server` failure.
 */
export function errorFacts(kind: string): ErrorKindFacts {
  return isErrorKind(kind) ? ERROR_FACTS[kind] : ERROR_FACTS.server;
}

/**
 * The HTTP status a proxy answers for an error: its kind's `proxyStatus`, except that an upstream
 * 413 or 422 keeps its status (it says more than a 400). The gateway answers it; the AI SDK provider
 * reports it when the upstream gave no status of its own.
 */
export function proxyStatusOf(err: RouterError): number {
  if (err.kind === 'bad_request' && (err.status === 413 || err.status === 422)) return err.status;
  return errorFacts(err.kind).proxyStatus;
}

