import { PROVIDER_SETTING_DEFAULTS } from '../../providers/types.js';

/**
 * Every default of the config, in one frozen object: the zod schema takes its `.default(...)`s from
 * here, every `@default` in the schema's TSDoc states the same value (test/config-defaults.test.ts
 * holds them together), and the policies read the fallbacks for optional fields from here too.
 */
export const DEFAULTS = Object.freeze({
  retry: Object.freeze({
    maxAttempts: 3,
    baseDelayMs: 250,
    maxDelayMs: 8_000,
    maxInlineWaitMs: 5_000,
    retryTimeouts: false,
    cooldownMs: 1_000,
    onInvalidOutput: 'throw' as 'throw' | 'next',
    budgetPercent: 20,
    budgetMinRetries: 50,
  }),
  breaker: Object.freeze({
    scope: 'provider' as 'provider' | 'target',
    errorThresholdPercentage: 50,
    volumeThreshold: 5,
    windowMs: 10_000,
    resetTimeoutMs: 5_000,
    consecutiveFailures: 5,
    lastResort: true,
    shared: false,
  }),
  quota: Object.freeze({ parkMs: 600_000 }),
  idempotency: Object.freeze({ ttlMs: 600_000, pendingTtlMs: 120_000 }),
  store: Object.freeze({
    onUnavailable: 'local' as 'local' | 'fail',
    /**
     * The bound on waiting for a store that stopped answering. A healthy Redis answers a script in
     * about a millisecond and under heavy load in tens, so 250 ms does not flap on a busy Redis or a
     * stalled event loop, and it stays a small part of an LLM call (seconds) when paid once, by the
     * calls in flight when the store died. A dropped connection is noticed at once, without waiting.
     */
    failoverMs: 250,
    /** How often a store that is down is probed. */
    probeMs: 1_000,
    keyPrefix: 'switchyard:',
    /** The Redis client's own connect and command timeout (a store that opens its own client). */
    timeoutMs: 5_000,
  }),
  provider: Object.freeze({
    /** Per attempt; for a stream, also the longest gap between chunks. */
    timeoutMs: 60_000,
    // What the adapters read of a provider's config, they default by the provider spec.
    transport: PROVIDER_SETTING_DEFAULTS.transport,
    azure: PROVIDER_SETTING_DEFAULTS.azure,
    /** Which OpenAI API an `openai` provider calls. */
    api: 'chat' as 'chat' | 'responses',
  }),
  limits: Object.freeze({
    windowMs: 60_000,
    reserveOutputTokens: 1_024,
    tokenizer: 'auto' as 'auto' | 'heuristic',
  }),
  pool: Object.freeze({ pick: 'headroom' as 'headroom' | 'round_robin' | 'latency' | 'weighted', sticky: false as const }),
  /** A pool step's `outlier` fields left unset (docs/routing.md, "Outlier ejection"). */
  outlier: Object.freeze({ consecutiveFailures: 5, successRateBelow: 0.8, latencyAboveMedianX: 3, ejectMs: 30_000, maxEjectedPercent: 50 }),
  hedge: Object.freeze({ maxExtraPercent: 5 }),
  shadow: Object.freeze({ maxInFlight: 4 }),
  /** `promptCache` on a chain or step left unset: no breakpoints placed for the caller. */
  promptCache: Object.freeze({ auto: false }),
  tenant: Object.freeze({ share: 1 }),
  /** Spend budgets (`tenants.<name>.spend`, `gateway.keys[].spend`): no alerts, the whole remainder while Redis is down. */
  spend: Object.freeze({ alertAt: Object.freeze([]) as readonly number[], localShare: 1 }),
  cache: Object.freeze({ maxEntries: 1_000 }),
  embeddings: Object.freeze({ interchangeable: Object.freeze([]) as readonly string[][] }),
  log: Object.freeze({ level: 'info' as const, logPrompts: false }),
  input: Object.freeze({ maxDepth: 64, maxChars: 1_048_576 }),
  gateway: Object.freeze({
    keys: Object.freeze([]) as readonly never[], bodyLimitBytes: 10 * 1024 * 1024, drainMs: 25_000,
    /** One log line per request only when asked: off, only failed requests are logged. */
    logRequests: false,
    /** Requests that need no translation go upstream as the client's bytes (src/decide/pass-through.ts). */
    passThrough: true,
    /** `POST /v1/responses`: how long a stored response can be continued, how many one process keeps in memory. */
    responses: Object.freeze({ ttlMs: 3_600_000, maxEntries: 10_000 }),
  }),
});

/** A stream has no overall bound, only an idle one: its concurrency slot is reclaimed after this if its process died. */
export const STREAM_LEASE_TTL_MS = 30 * 60_000;
