import { z } from 'zod';

const nonNegative = z.number().nonnegative();
const positiveInt = z.number().int().positive();

/** Every fault the simulator can inject; what each looks like on the wire is in the table of docs/cli.md ("Scenario files"). */
export const FAULT_KINDS = [
  'server_error', 'unavailable', 'overloaded', 'insufficient_quota', 'rate_limit', 'unauthorized',
  'reset', 'hang', 'slow_first_byte', 'stream_cut', 'stream_error', 'invalid_json',
] as const;
/** One of `FAULT_KINDS`. */
export type FaultKind = (typeof FAULT_KINDS)[number];

/**
 * One fault rule. It applies to a request when every condition it names holds (time window, request
 * number, model, streaming); then it fires always, or with `probability`. The first rule that fires wins,
 * and probabilities of the rules that apply add up: two rules at 0.1 fail 20% of requests, never one twice.
 */
export const faultRuleSchema = z.object({
  fault: z.enum(FAULT_KINDS),
  /** Fire on this share of the requests the rule applies to. @default 1 (every one) */
  probability: z.number().min(0).max(1).optional(),
  /** Applies from this many ms after the simulator started. @default 0 */
  fromMs: nonNegative.optional(),
  /** Applies until this many ms after the simulator started (exclusive). @default forever */
  untilMs: nonNegative.optional(),
  /** Applies only to the Nth request(s) this provider receives, counted from 1. */
  nth: z.union([positiveInt, z.array(positiveInt).min(1)]).optional(),
  /** Applies only to requests for this model. */
  model: z.string().min(1).optional(),
  /** Applies only to streaming (true) or plain (false) requests. */
  stream: z.boolean().optional(),
  /** Applies only to chat requests (`/chat/completions`, `/messages`) or only to `/embeddings`. @default both */
  endpoint: z.enum(['chat', 'embeddings']).optional(),
  /** HTTP status for `server_error` (500), `unavailable` (503) and `overloaded` (OpenAI 503, Anthropic 529). */
  status: z.number().int().min(400).max(599).optional(),
  /** `slow_first_byte`: how long before the first byte. @default 2000 */
  delayMs: nonNegative.optional(),
  /**
   * `stream_cut` / `stream_error`: chunks delivered first. A chunk is a text delta, a tool call's
   * start, or a fragment of its arguments (16 characters), so a cut can fall inside a tool call. @default 1
   */
  afterChunks: z.number().int().nonnegative().optional(),
  /** `rate_limit`, `unavailable`, `overloaded`: the wait to advertise. @default 1000 for rate_limit, none otherwise */
  retryAfterMs: nonNegative.optional(),
  /**
   * `rate_limit`, `unavailable`, `overloaded`, `server_error`: send this `retry-after` value as it is
   * instead of the advertised wait (a hint no parser should trust: `soon`, `-1`, 400 digits). @default none
   */
  retryAfterRaw: z.string().max(1_000).optional(),
  /**
   * Error faults (every one that answers with an error body, and `stream_error`'s frame): the message
   * also echoes the request's API key in full, as an `openai-compatible` server or a proxy may. @default false
   */
  echoKey: z.boolean().optional(),
}).strict().refine((r) => r.fromMs === undefined || r.untilMs === undefined || r.untilMs > r.fromMs, {
  message: 'untilMs must be after fromMs', path: ['untilMs'],
});

/** The limits of a provider's embeddings endpoint, counted apart from chat's. */
export const embeddingLimitsSchema = z.object({
  /** Embeddings requests per window. @default 30000 */
  rpm: positiveInt.optional(),
  /** Embeddings input tokens per window. @default 150000000 */
  tpm: positiveInt.optional(),
}).strict();

/** A provider's RPM and TPM limits, enforced like the provider does (rate-limiter.ts). */
export const limitsSchema = z.object({
  /** Requests per window. @default 30000 */
  rpm: positiveInt.optional(),
  /** Tokens per window: prompt tokens plus the `max_tokens` reservation. @default 150000000 */
  tpm: positiveInt.optional(),
  /** The window the limits are stated for. @default 60000 */
  windowMs: positiveInt.optional(),
  /** Enforce over this shorter period, as OpenAI may; applies to every window, embeddings' too. @default none */
  quantumMs: positiveInt.optional(),
  /**
   * Anthropic only: input tokens per window, enforced at once with `rpm`, `tpm` and `otpm`; cache
   * reads are not charged, cache writes are. @default 150000000
   */
  itpm: positiveInt.optional(),
  /** Anthropic only: output tokens per window, charged `max_tokens` on admission and refunded down to the answer's. @default 150000000 */
  otpm: positiveInt.optional(),
  /** The embeddings endpoint's own limits (same `windowMs` and `quantumMs`). */
  embeddings: embeddingLimitsSchema.optional(),
  /**
   * An account another process has just spent: every window (chat's and embeddings', each on its
   * own first request) is empty when its first request arrives and refills continuously from then
   * on, so that request is answered 429. @default false (every window starts full)
   */
  startEmpty: z.boolean().optional(),
}).strict();

/** A prompt cache that serves a fixed share of every prompt. */
export const promptCacheSchema = z.object({
  /** Share of each prompt reported as read from the cache (OpenAI `cached_tokens`, Anthropic `cache_read_input_tokens`). */
  readShare: z.number().min(0).max(1),
  /** Share of each prompt reported as written to the cache (Anthropic `cache_creation_input_tokens`). @default 0 */
  writeShare: z.number().min(0).max(1).optional(),
  /** Prompts shorter than this are never cached (the real minimum is 1024). @default 0 */
  minTokens: z.number().int().nonnegative().optional(),
}).strict().refine((c) => c.readShare + (c.writeShare ?? 0) <= 1, { message: 'readShare + writeShare must be at most 1', path: ['writeShare'] });

/**
 * A prompt cache that works like the provider's (src/sim/prefix-cache.ts): Anthropic and Bedrock
 * cache the prefix up to each breakpoint for its ttl; OpenAI and Gemini cache every prompt's prefixes
 * on their own. A second identical request within the lifetime reads what the first wrote.
 */
export const prefixCacheSchema = z.object({
  /** Prefixes shorter than this are never cached (OpenAI's minimum, and Anthropic's for Sonnet). @default 1024 */
  minTokens: positiveInt.optional(),
  /** OpenAI and Gemini: how long a cached prefix lives without use (breakpoints carry their own ttl). @default 300000 */
  ttlMs: positiveInt.optional(),
}).strict();

/** How long answers take: all zero by default, so tests run fast; benchmarks set them. */
export const latencySchema = z.object({
  /** Before the first byte of every answer. @default 0 */
  baseMs: nonNegative.optional(),
  /** Per output token (between stream chunks, or added to a plain answer). @default 0 */
  perTokenMs: nonNegative.optional(),
  /** Up to this much more, drawn from the seeded stream. @default 0 */
  jitterMs: nonNegative.optional(),
}).strict();

/** One simulated provider: the API it speaks, its limits, latency and faults. */
export const simProviderSchema = z.object({
  /** Which API this provider speaks: OpenAI Chat Completions, Anthropic Messages, the Gemini API (generateContent) or Amazon Bedrock Converse. */
  type: z.enum(['openai', 'anthropic', 'gemini', 'bedrock']),
  limits: limitsSchema.optional(),
  latency: latencySchema.optional(),
  faults: z.array(faultRuleSchema).optional(),
  /** Answers served at once before it answers overloaded (OpenAI 503, Anthropic 529). @default unlimited */
  capacity: positiveInt.optional(),
  /** OpenAI only: send `retry-after` on a 429 (the real API does not always). Anthropic always does. @default true */
  retryAfter: z.boolean().optional(),
  /**
   * Which responses carry the rate-limit headers: `always`; only successes and 429s; or only successes
   * (one real OpenAI 429 carried none, and the reference has no recorded 5xx header set). @default 'always'
   */
  rateLimitHeaders: z.enum(['always', 'success-and-429', 'success-only']).optional(),
  /** Answer 401 when a request carries no key at all (any key is accepted). @default true */
  requireKey: z.boolean().optional(),
  /** Models it serves; others get a 404. @default any model */
  models: z.array(z.string().min(1)).min(1).optional(),
  /** Context window: longer prompts get the provider's 400. @default 128000 (OpenAI), 200000 (Anthropic), 1048576 (Gemini) */
  contextTokens: positiveInt.optional(),
  /** Report part of every prompt as served by the prompt cache. @default none */
  promptCache: promptCacheSchema.optional(),
  /** Cache prompts as the provider does, by prefix, on the simulator's clock (not with `promptCache`). @default none */
  prefixCache: prefixCacheSchema.optional(),
}).strict().refine((p) => !(p.promptCache && p.prefixCache), { message: 'promptCache (fixed shares) and prefixCache (real prefixes) exclude each other', path: ['prefixCache'] }).refine((p) => p.type === 'anthropic' || (p.limits?.itpm === undefined && p.limits?.otpm === undefined), {
  message: 'itpm and otpm are Anthropic limits (an openai provider has rpm and tpm)', path: ['limits'],
});

const providerName = z.string().regex(/^[A-Za-z0-9][A-Za-z0-9_-]*$/, { message: 'a provider name is letters, digits, "-" and "_"' })
  .refine((name) => name !== 'v1' && name !== '_sim', { message: '"v1" and "_sim" are reserved' });

/** A scenario file: what `switchyard simulate --scenario FILE` reads, and `startSimulator` accepts. */
export const scenarioSchema = z.object({
  /** Free text shown when the simulator starts. */
  description: z.string().optional(),
  /** Seeds every random draw (faults, ids, jitter): the same seed replays the same run. @default 1 */
  seed: z.number().int().optional(),
  /** @default { openai: { type: 'openai' }, anthropic: { type: 'anthropic' } } */
  providers: z.record(providerName, simProviderSchema)
    .refine((p) => Object.keys(p).length > 0, { message: 'declare at least one provider' }).optional(),
}).strict();

/** A validated fault rule. */
export type FaultRule = z.output<typeof faultRuleSchema>;
/** One provider of a scenario, as written. */
export type SimProviderOptions = z.input<typeof simProviderSchema>;
/** A scenario, as written (a JSON file or an object). */
export type Scenario = z.input<typeof scenarioSchema>;

/** One request as the simulator saw it, reported to `onRequest` once its outcome is decided. */
export interface SimRequestEvent {
  provider: string;
  /** 1-based: the Nth request of its endpoint (chat or embeddings) this provider received. */
  n: number;
  atMs: number;
  model?: string;
  stream: boolean;
  /** The HTTP status sent; undefined for a reset or a hang. */
  status?: number;
  fault?: FaultKind;
  requestId: string;
  /** Which endpoint it was for. */
  endpoint: 'chat' | 'embeddings';
}

/** What `startSimulator` accepts: a scenario plus where to listen and what clock to use. */
export interface SimulatorOptions extends Scenario {
  /** @default 0 (any free port) */
  port?: number;
  /** @default '127.0.0.1' (loopback only) */
  host?: string;
  /** Time for rate-limit windows and fault schedules (latency waits on `sleep`). @default Date.now */
  clock?: { now(): number };
  /**
   * How latency waits (before the first byte, between streamed chunks); it must reject once the
   * signal aborts. A `VirtualClock`'s `(ms, signal) => clock.sleep(ms, signal)` answers a slow request
   * at once and records every wait in `clock.sleeps`. @default real timers
   */
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
  /** Called once per request when its outcome is decided. */
  onRequest?: (event: SimRequestEvent) => void;
}

/** The providers a simulator serves when none are given: one of each API. */
export const DEFAULT_PROVIDERS: Readonly<Record<string, SimProviderOptions>> = Object.freeze({
  openai: { type: 'openai' },
  anthropic: { type: 'anthropic' },
});

/** Defaults for every provider option. Large limits, so only scenarios that mean to limit do. */
export const PROVIDER_DEFAULTS = Object.freeze({
  rpm: 30_000,
  tpm: 150_000_000,
  windowMs: 60_000,
  contextTokens: { openai: 128_000, anthropic: 200_000, gemini: 1_048_576, bedrock: 200_000 },
  slowFirstByteMs: 2_000,
  afterChunks: 1,
  /** `prefixCache`: OpenAI's caching minimum, and how long OpenAI keeps an unused prefix (5 to 10 minutes). */
  prefixCache: Object.freeze({ minTokens: 1_024, ttlMs: 300_000 }),
  rateLimitRetryAfterMs: 1_000,
  /** OpenAI's ceiling on inputs in one embeddings request. */
  maxEmbeddingInputs: 2_048,
  /** OpenAI's ceiling on the tokens of one embeddings input. */
  embeddingInputTokens: 8_192,
  /** OpenAI's ceiling on the tokens of one embeddings request, all inputs together. */
  embeddingRequestTokens: 300_000,
});
