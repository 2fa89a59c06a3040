import type { ErrorKind } from '../../../src/errors.js';

/** A case-insensitive header lookup (a Web `Headers` is one). */
export interface HeaderLookup {
  get(name: string): string | null | undefined;
}

/** What an error response said, as the openai SDK hands it over. */
export interface ErrorFacts {
  /** The HTTP status; undefined for an error frame inside a 200 stream or body. */
  status?: number;
  /** The body's `error.code` when it is a string. */
  code?: string;
  type?: string;
  /** The message, secrets already redacted. */
  message: string;
  /** The body's `error.metadata` (OpenRouter's `error_type`, `provider_code`, moderation reasons). */
  metadata?: Record<string, unknown>;
  headers?: HeaderLookup;
}

/** A dialect's reading of an error: the kind, and the code to report (the provider's own word for it). */
export interface ErrorVerdict {
  kind: ErrorKind;
  code?: string;
}

/**
 * How one OpenAI-compatible service departs from OpenAI's wire: where its rate-limit headers are,
 * and which of its errors mean something else than their status says. Facts only: what happens next
 * is still the decision table's.
 */
export interface PresetDialect {
  /**
   * The service's rate-limit headers under the names the readers know: a key is one of
   * `x-ratelimit-{limit,remaining,reset}-{requests,tokens}` or
   * `anthropic-ratelimit-{input,output}-tokens-{limit,remaining,reset}`, its value the service's header.
   */
  headerAliases?: Readonly<Record<string, string>>;
  /** The verdict on an error whose kind its status alone gets wrong; undefined to keep the generic reading. */
  classify?(facts: ErrorFacts): ErrorVerdict | undefined;
}

/** Headers that answer the known names from the service's own ones, and every other name as they are. */
export function aliasedHeaders(headers: HeaderLookup, aliases: Readonly<Record<string, string>> | undefined): HeaderLookup {
  if (!aliases) return headers;
  return {
    get(name: string) {
      const alias = aliases[name.toLowerCase()];
      return (alias ? headers.get(alias) : undefined) ?? headers.get(name);
    },
  };
}

// Credit and spend messages of services that send them under 429 or 403 (xAI, Fireworks-style):
// a rate limit or a permission error by status, a quota by meaning.
const BILLING_MESSAGE = /used all available credits|spending limit|insufficient (?:balance|credits|funds)|(?:doesn't|does not) have any credits|out of credits/i;

/** The billing verdict any preset applies after its own: a message that says the money ran out. */
export function billingVerdict(facts: ErrorFacts): ErrorVerdict | undefined {
  return BILLING_MESSAGE.test(facts.message) ? { kind: 'quota_exhausted', code: facts.code ?? 'insufficient_credits' } : undefined;
}
