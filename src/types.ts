import type { ErrorKind } from './errors.js';

/** A chat message in the one shape every provider accepts. */
export interface Message {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

/** Why the model stopped, normalised across providers. */
export type FinishReason = 'stop' | 'length' | 'tool_calls' | 'content_filter' | 'other';

/** Token usage as the provider reported it. */
export interface Usage {
  inputTokens: number;
  outputTokens: number;
}

/** One target tried (a request sent) or skipped (no request sent), in call order. */
export interface Attempt {
  provider: string;
  model: string;
  ok: boolean;
  kind?: ErrorKind;
  status?: number;
  /** True when no request was sent: open circuit, cooling, parked, local limit. */
  skipped?: boolean;
  /** How long the router waited before this attempt (a retry's delay). */
  waitedMs?: number;
  latencyMs: number;
  requestId?: string;
}

/** What `router.chat` and `router.stream` accept. */
export interface ChatRequest {
  /** @default 'default' */
  chain?: string;
  messages: Message[];
  maxTokens?: number;
  temperature?: number;
  tenant?: string;
  idempotencyKey?: string;
  /** Cancels waits and the in-flight request at once. */
  signal?: AbortSignal;
  /** Overall deadline for the whole call, waits included. */
  timeoutMs?: number;
  /** Streams only: abandon a target that sends no content within this (overrides the provider's). */
  firstTokenTimeoutMs?: number;
}

/** The normalised answer, the same shape from every provider. */
export interface ChatResult {
  text: string;
  provider: string;
  model: string;
  finishReason: FinishReason;
  usage: Usage;
  attempts: Attempt[];
  latencyMs: number;
  requestId?: string;
  /** Streams only: from the call's start to the first content token (waits and fall-throughs included). */
  timeToFirstTokenMs?: number;
  /** True when this result was not fetched for this call but shared or replayed under its idempotencyKey. */
  replayed?: boolean;
}

/** A rate-limit window read from a response's headers. */
export interface RateLimitWindow {
  limit?: number;
  remaining?: number;
  /** Milliseconds until the window is fully replenished, relative to when the headers were read. */
  resetMs?: number;
}

/** Headroom a provider reported on one response, so it can be charted before it hits zero. */
export interface RateLimitSnapshot {
  requests?: RateLimitWindow;
  tokens?: RateLimitWindow;
  inputTokens?: RateLimitWindow;
  outputTokens?: RateLimitWindow;
}
