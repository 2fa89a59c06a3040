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
    this.attempts = facts.attempts ?? [];
    this.cause = facts.cause;
    Object.defineProperty(this, BRAND, { value: true });
  }

  /** A copy with some facts replaced; the original is left untouched. */
  with(facts: RouterErrorFacts, message = this.message): RouterError {
    return new RouterError(this.kind, message, {
      provider: this.provider, model: this.model, status: this.status, code: this.code,
      retryAfterMs: this.retryAfterMs, requestId: this.requestId, rateLimit: this.rateLimit, raw: this.raw,
      attempts: this.attempts, cause: this.cause, ...facts,
    });
  }

  /** The facts as a plain object, for logs and JSON output (never includes the cause's stack). */
  toJSON(): Record<string, unknown> {
    return {
      name: this.name, kind: this.kind, message: this.message, provider: this.provider, model: this.model,
      status: this.status, code: this.code, retryAfterMs: this.retryAfterMs, requestId: this.requestId,
      attempts: this.attempts,
    };
  }
}

/** True for any `RouterError`, even one from another copy of the package. */
export function isRouterError(x: unknown): x is RouterError {
  return typeof x === 'object' && x !== null && (x as Record<symbol, unknown>)[BRAND] === true;
}
