import type { Clock } from '../src/clock.js';
import type { ProviderType, ResolvedProvider } from '../src/config/index.js';
import type { Logger } from '../src/observe/logger.js';
import type { FinishReason, Message, RateLimitSnapshot, Usage } from '../src/types.js';

/** One request to one (provider, model): the chain has already picked the target. */
export interface ProviderRequest {
  model: string;
  messages: Message[];
  maxTokens?: number;
  temperature?: number;
}

/** What an adapter returns on success: the normalised answer plus the facts the policies read. */
export interface ProviderResponse {
  text: string;
  finishReason: FinishReason;
  usage: Usage;
  /** The model the provider says answered (may be a dated snapshot of the one asked for). */
  model: string;
  requestId?: string;
  rateLimit?: RateLimitSnapshot;
}

/**
 * Per-request options: `signal` aborts the request at once; `timeoutMs`, when given, bounds it the
 * SDK's way (connect and headers). The router decides which to pass; an adapter forwards both.
 */
export interface ProviderCallOptions {
  signal?: AbortSignal;
  timeoutMs?: number;
}

/**
 * What an adapter's stream yields: `open` once the response headers arrive, `delta` for every
 * non-empty piece of content (role-only or empty deltas, pings and other protocol events are not
 * yielded), and `finish` exactly once, last, when and only when the provider's terminal event
 * arrived. A stream cut before it, or an error frame, is thrown as a `RouterError`.
 */
export type ProviderStreamEvent =
  | { type: 'open'; requestId?: string; rateLimit?: RateLimitSnapshot }
  | { type: 'delta'; text: string }
  | { type: 'finish'; finishReason: FinishReason; usage: Usage; model?: string };

/**
 * The provider contract. An adapter sends one request through its SDK (retries off) and either
 * returns a `ProviderResponse` or throws a `RouterError` carrying facts: kind, status, code,
 * retryAfterMs, requestId. It never retries and never decides what happens next.
 */
export interface ProviderAdapter {
  readonly name: string;
  readonly type: ProviderType;
  chat(request: ProviderRequest, options: ProviderCallOptions): Promise<ProviderResponse>;
  stream(request: ProviderRequest, options: ProviderCallOptions): AsyncIterable<ProviderStreamEvent>;
  close(): Promise<void>;
}

/** What every adapter factory receives. */
export interface AdapterContext {
  provider: ResolvedProvider;
  clock: Clock;
  logger: Logger;
}
