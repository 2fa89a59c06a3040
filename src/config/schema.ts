import { z } from 'zod';

const positiveInt = z.number().int().positive();
const nonNegativeInt = z.number().int().nonnegative();

const budgetFields = {
  /** Requests per rolling window (a minute). */
  rpm: positiveInt.optional(),
  /** Tokens (prompt + reserved output) per rolling window. */
  tpm: positiveInt.optional(),
  /** Requests in flight at once. */
  concurrency: positiveInt.optional(),
};

/**
 * Client-side budgets, applied to each target (provider, model) of this provider separately, the way
 * providers count them; `models` overrides the numbers for a model whose limits differ.
 */
export const limitsSchema = z.object({
  ...budgetFields,
  models: z.record(z.string().min(1), z.object(budgetFields).strict()).optional(),
  /** How long a call may wait in the queue for room before the target is skipped. @default retry.maxInlineWaitMs */
  maxQueueMs: nonNegativeInt.optional(),
  /** Length of the rolling window. @default 60000 (only tests and simulators change it) */
  windowMs: positiveInt.optional(),
  /** Output tokens reserved for a call that sets no maxTokens (Anthropic calls reserve what is sent). @default 1024 */
  reserveOutputTokens: positiveInt.optional(),
  /** `auto`: also count non-ASCII prompts with tiktoken where an OpenAI encoding fits the model. @default 'auto' */
  tokenizer: z.enum(['auto', 'heuristic']).optional(),
}).strict();

/** A tenant's weight in the fair queues, and optional budgets of its own across every target. */
export const tenantSchema = z.object({
  /** Relative share when targets are contended: share 2 is served twice as often as share 1. @default 1 */
  share: z.number().positive().default(1),
  ...budgetFields,
  windowMs: positiveInt.optional(),
}).strict();

const providerBase = {
  apiKey: z.string().min(1).optional(),
  apiKeyEnv: z.string().min(1).optional(),
  baseURL: z.url().optional(),
  /** Per-attempt timeout for this provider; for a stream, also the longest gap allowed between chunks. */
  timeoutMs: positiveInt.optional(),
  /** Streams only: a target that sends no content within this is abandoned for the next one. */
  firstTokenTimeoutMs: positiveInt.optional(),
  headers: z.record(z.string(), z.string()).optional(),
  limits: limitsSchema.optional(),
};

/** One scripted outcome of the in-process `fake` provider. */
export const fakeStepSchema = z.union([
  z.literal('ok'),
  z.literal('hang'),
  z.object({
    text: z.string().optional(),
    finishReason: z.enum(['stop', 'length', 'tool_calls', 'content_filter', 'other']).optional(),
    /** Latency of this one answer, overriding the provider's `latencyMs`. */
    latencyMs: z.number().int().nonnegative().optional(),
    /** Streams only: the connection drops after this many chunks, before the terminal event. */
    cutAfterChunks: z.number().int().nonnegative().optional(),
  }).strict(),
  z.object({
    fail: z.enum(['rate_limited', 'quota_exhausted', 'server', 'timeout', 'transport', 'bad_request',
      'context_length', 'content_filter', 'auth', 'not_found']),
    status: z.number().int().optional(),
    code: z.string().optional(),
    retryAfterMs: z.number().nonnegative().optional(),
    message: z.string().optional(),
    latencyMs: z.number().int().nonnegative().optional(),
    /** Streams only: the failure arrives mid-stream, after this many chunks of content. */
    afterChunks: z.number().int().nonnegative().optional(),
  }).strict(),
]);

const fakeRespond = z.custom<(request: unknown, n: number) => unknown>((v) => typeof v === 'function', {
  message: 'expected a function (request, n) => step',
});

export const providerSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('openai'), ...providerBase }).strict(),
  z.object({ type: z.literal('anthropic'), ...providerBase }).strict(),
  z.object({ type: z.literal('openai-compatible'), ...providerBase, baseURL: z.url() }).strict(),
  z.object({
    type: z.literal('fake'),
    ...providerBase,
    /** Outcomes for successive requests; after the script runs out every request succeeds. */
    script: z.array(fakeStepSchema).optional(),
    /** Decides each outcome in code instead of a script. */
    respond: fakeRespond.optional(),
    /** Simulated latency of every request. */
    latencyMs: nonNegativeInt.optional(),
  }).strict(),
]);

const targetObject = z.object({
  provider: z.string().min(1),
  model: z.string().min(1),
  maxTokens: positiveInt.optional(),
  temperature: z.number().min(0).max(2).optional(),
  /** Attempts on this target before falling through (overrides `retry.maxAttempts`). */
  maxAttempts: positiveInt.optional(),
}).strict();

const targetString = z.string().regex(/^[^:]+:.+$/, { message: "expected 'provider:model'" });

export const chainSchema = z.array(z.union([targetString, targetObject])).min(1, { message: 'a chain needs at least one target' });

export const retrySchema = z.object({
  maxAttempts: positiveInt.default(3),
  baseDelayMs: nonNegativeInt.default(250),
  maxDelayMs: nonNegativeInt.default(8_000),
  maxInlineWaitMs: nonNegativeInt.default(5_000),
  retryTimeouts: z.boolean().default(false),
  cooldownMs: nonNegativeInt.default(1_000),
}).strict();

export const breakerSchema = z.object({
  scope: z.enum(['provider', 'target']).default('provider'),
  errorThresholdPercentage: z.number().min(0).max(100).default(50),
  volumeThreshold: nonNegativeInt.default(5),
  windowMs: positiveInt.default(10_000),
  resetTimeoutMs: positiveInt.default(5_000),
  /** Opens after this many server failures in a row, whatever the window's percentage says. @default 5 */
  consecutiveFailures: positiveInt.default(5),
  /**
   * When a call has no target left and some were skipped for an open circuit, try the first of those
   * once anyway, as far as adaptive throttling of its recent failures allows. @default true
   */
  lastResort: z.boolean().default(true),
}).strict();

export const configSchema = z.object({
  providers: z.record(z.string().regex(/^[^:]+$/, { message: 'a provider name cannot contain ":"' }), providerSchema)
    .refine((p) => Object.keys(p).length > 0, { message: 'declare at least one provider' }),
  chains: z.record(z.string().min(1), chainSchema)
    .refine((c) => Object.keys(c).length > 0, { message: 'declare at least one chain' }),
  retry: retrySchema.default(retrySchema.parse({})),
  breaker: breakerSchema.default(breakerSchema.parse({})),
  quota: z.object({ parkMs: nonNegativeInt.default(600_000) }).strict().default({ parkMs: 600_000 }),
  /** Tenants by name (`*` applies to any tenant not listed; calls without a tenant are `default`). */
  tenants: z.record(z.string().min(1), tenantSchema).default({}),
  idempotency: z.object({
    /** How long a finished result is replayed for the same key. @default 600000 */
    ttlMs: positiveInt.default(600_000),
    /** How long a claim of a caller that died mid-call blocks its key. @default 120000 */
    pendingTtlMs: positiveInt.default(120_000),
  }).strict().default({ ttlMs: 600_000, pendingTtlMs: 120_000 }),
  store: z.discriminatedUnion('type', [
    z.object({ type: z.literal('memory') }).strict(),
    z.object({
      type: z.literal('redis'),
      url: z.string().min(1),
      /** Prepended to every key, so several apps can share one Redis. @default 'switchyard:' */
      keyPrefix: z.string().min(1).optional(),
    }).strict(),
  ]).default({ type: 'memory' }),
  /** USD per million tokens, keyed by `provider:model` (or by model alone): what `switchyard eval` estimates cost from. */
  prices: z.record(z.string().min(1), z.object({
    inputPerMTok: z.number().nonnegative(),
    outputPerMTok: z.number().nonnegative(),
  }).strict()).default({}),
  log: z.object({
    level: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    logPrompts: z.boolean().default(false),
  }).strict().default({ level: 'info', logPrompts: false }),
}).strict();

/** What a user writes in `router.config.ts`: only `providers` and `chains` are required. */
export type SwitchyardConfig = z.input<typeof configSchema>;
/** A config with every default filled in. */
export type ParsedConfig = z.output<typeof configSchema>;
export type ProviderConfig = z.output<typeof providerSchema>;
export type ProviderType = ProviderConfig['type'];
export type FakeStep = z.output<typeof fakeStepSchema>;
export type RetryPolicy = z.output<typeof retrySchema>;
export type BreakerPolicy = z.output<typeof breakerSchema>;
export type TenantConfig = z.output<typeof tenantSchema>;
