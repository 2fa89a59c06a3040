import { z } from 'zod';
import { MAX_TIMER_MS } from '../time/system-clock.js';
import { DEFAULTS } from './defaults.js';
import { PRESET_NAMES } from '../../providers/shared/presets/catalog.js';

const positiveInt = z.number().int().positive();
/** The largest `maxTokens` any model takes; a larger one is a mistake, not a request (in a call or a chain step). */
export const MAX_OUTPUT_TOKENS = 1_000_000;
const nonNegativeInt = z.number().int().nonnegative();
const TIMER_BOUND = { message: `at most ${MAX_TIMER_MS} ms (about 24.8 days): a longer timer overflows and fires at once` };
/** A duration the router sets a timer for: bounded, so it can never overflow Node's timers. */
const positiveMs = positiveInt.max(MAX_TIMER_MS, TIMER_BOUND);
const nonNegativeMs = nonNegativeInt.max(MAX_TIMER_MS, TIMER_BOUND);

/** An http(s) URL without credentials: a password in a URL ends up in every error that names the server. */
const httpURL = z.string().refine((value) => {
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.username === '' && url.password === '';
  } catch {
    return false;
  }
}, { message: 'expected an http:// or https:// URL without user:password@ (put credentials in apiKeyEnv or headers)' });

const budgetFields = {
  /** Requests per rolling window (a minute). */
  rpm: positiveInt.optional(),
  /** Tokens (prompt + reserved output) per rolling window. */
  tpm: positiveInt.optional(),
  /** Requests in flight at once. */
  concurrency: positiveInt.optional(),
};

/** Anthropic's separate input and output token limits, enforced at once with `rpm` (and `tpm`, if set). */
const tokenWindowFields = {
  /** Input tokens per rolling window (Anthropic's ITPM): the prompt, less input served from the prompt cache. */
  itpm: positiveInt.optional(),
  /** Output tokens per rolling window (Anthropic's OTPM): `maxTokens` reserved, then only what was written. */
  otpm: positiveInt.optional(),
};

/**
 * Client-side budgets, applied to each target (provider, model) of this provider separately, the way
 * providers count them; `models` overrides the numbers for a model whose limits differ.
 */
export const limitsSchema = z.object({
  ...budgetFields,
  ...tokenWindowFields,
  models: z.record(z.string().min(1), z.object({ ...budgetFields, ...tokenWindowFields }).strict()).optional(),
  /** Budgets of the embeddings endpoint, which providers count apart from chat (none unless set). */
  embeddings: z.object(budgetFields).strict().optional(),
  /** How long a call may wait in the queue for room before the target is skipped. @default retry.maxInlineWaitMs */
  maxQueueMs: nonNegativeMs.optional(),
  /** Length of the rolling window (only tests and simulators change it). @default 60000 */
  windowMs: positiveMs.optional(),
  /**
   * Pacing: each limit is released evenly through its window, at most this many ms' worth at once;
   * the burst then follows the provider's own bucket (429s and its headers shrink it, it grows back
   * slowly). `windowMs` turns pacing off (a whole window at once).
   * @default windowMs / 60 (a second's worth of a per-minute limit), raised to 10 requests' worth of `rpm`
   */
  burstMs: positiveMs.optional(),
  /** Output tokens reserved for a call that sets no maxTokens (Anthropic calls reserve what is sent). @default 1024 */
  reserveOutputTokens: positiveInt.optional(),
  /** `auto`: also count non-ASCII prompts with tiktoken where an OpenAI encoding fits the model. @default 'auto' */
  tokenizer: z.enum(['auto', 'heuristic']).optional(),
}).strict();

/** USD: a finite amount above zero. */
const usdAmount = z.number().finite().positive();

/**
 * A USD budget over UTC calendar windows (`tenants.<name>.spend`, `gateway.keys[].spend`): each
 * attempt reserves its worst case at its target's price, and a call that cannot fit throws
 * `budget_exceeded` without sending anything.
 */
export const spendSchema = z.object({
  /** USD per UTC day (00:00 to 24:00 UTC). */
  usdPerDay: usdAmount.optional(),
  /** USD per UTC calendar month. */
  usdPerMonth: usdAmount.optional(),
  /** Fractions of a window's limit at which a `spend` event fires, once per window (`[0.8]`: at 80%). @default [] */
  alertAt: z.array(z.number().gt(0).lte(1)).max(10).optional(),
  /**
   * While the shared (Redis) store is down (`onUnavailable: 'local'`): the share of what the fleet
   * had left that this process may spend alone (`1 / processes` keeps the fleet within the budget). @default 1
   */
  localShare: z.number().gt(0).lte(1).optional(),
}).strict().refine((s) => s.usdPerDay !== undefined || s.usdPerMonth !== undefined, { message: 'set usdPerDay and/or usdPerMonth' });

/** A tenant's weight in the fair queues, and optional budgets of its own across every target. */
export const tenantSchema = z.object({
  /** Relative share when targets are contended: share 2 is served twice as often as share 1. @default 1 */
  share: z.number().positive().default(DEFAULTS.tenant.share),
  ...budgetFields,
  /** Length of the rolling window of the tenant's own budgets: a minute unless set (only tests change it). */
  windowMs: positiveMs.optional(),
  /** A USD budget of the tenant's own, across every target (see docs/spend.md). */
  spend: spendSchema.optional(),
}).strict();

const providerBase = {
  /** The key itself (for tests and scripts; an app reads it from the environment with `apiKeyEnv`). */
  apiKey: z.string().min(1).optional(),
  /** The environment variable the key is read from; a variable that is not set is a config error. */
  apiKeyEnv: z.string().min(1).optional(),
  /** Where the API is, when not at the provider's own address (a proxy, a gateway, the simulator); http(s) only, no `user:password@`. */
  baseURL: httpURL.optional(),
  /** Per-attempt timeout for this provider; for a stream, also the longest gap allowed between chunks. @default 60000 */
  timeoutMs: positiveMs.optional(),
  /** Streams only: a target that sends no content within this is abandoned for the next one. */
  firstTokenTimeoutMs: positiveMs.optional(),
  /** Extra request headers (values of 8 characters or more never reach a log line or an error). */
  headers: z.record(z.string(), z.string()).optional(),
  /**
   * How the SDK reaches the provider: `node-http` (Node's http client with a keep-alive pool of the
   * adapter's own, about half the cost of undici's fetch per request, closed with the router) or
   * `fetch` (the SDK's default, the global fetch). @default 'node-http'
   */
  transport: z.enum(['node-http', 'fetch']).optional(),
  /** Query parameters sent with every request (Azure OpenAI's `api-version`). */
  query: z.record(z.string(), z.string()).optional(),
  /**
   * OpenAI-speaking providers: talk to Azure OpenAI through the SDK's Azure client (the `api-key`
   * header, `/deployments/<model>` paths; the chain's model is the deployment; needs
   * `query['api-version']`). Anthropic ignores it. @default false
   */
  azure: z.boolean().optional(),
  limits: limitsSchema.optional(),
};

/**
 * What an `openai-compatible` server cannot do; a request that needs it skips the target without a
 * request (`unsupported`). Every capability is assumed present unless set to false.
 */
export const capabilitiesSchema = z.object({
  /** `false`: no tool calling. */
  tools: z.boolean().optional(),
  /** `false`: no image parts. */
  images: z.boolean().optional(),
  /** `false`: no file parts (PDFs, text documents). */
  files: z.boolean().optional(),
  /** `false`: no `response_format` JSON Schema (structured output). */
  jsonSchema: z.boolean().optional(),
  /** `false`: no embeddings endpoint. */
  embeddings: z.boolean().optional(),
}).strict();

/** One scripted outcome of the in-process `fake` provider. */
export const fakeStepSchema = z.union([
  z.literal('ok'),
  z.literal('hang'),
  z.object({
    /** The answer's text. */
    text: z.string().optional(),
    /** How the answer ends. */
    finishReason: z.enum(['stop', 'length', 'tool_calls', 'content_filter', 'other']).optional(),
    /** Latency of this one answer, overriding the provider's `latencyMs`. */
    latencyMs: z.number().int().nonnegative().optional(),
    /** Streams only: the connection drops after this many chunks (text deltas, tool-call starts, argument fragments), before the terminal event. */
    cutAfterChunks: z.number().int().nonnegative().optional(),
    /** Answer with these tool calls (arguments default to ones generated from the tool's schema). */
    toolCalls: z.array(z.object({
      /** The tool called. */
      name: z.string().min(1),
      /** Its arguments. */
      arguments: z.record(z.string(), z.unknown()).optional(),
      /** The call's id (one is made up when unset). */
      id: z.string().min(1).optional(),
    }).strict()).optional(),
    /** The JSON this answer writes (structured output, tool arguments) comes out broken, to test `invalid_output`. */
    invalidJson: z.boolean().optional(),
    /** Usage details to report: prompt tokens read from or written to the cache, reasoning tokens. */
    usage: z.object({
      /** Prompt tokens read from the cache. */
      cachedInputTokens: z.number().int().nonnegative().optional(),
      /** Prompt tokens written to the cache. */
      cacheWriteTokens: z.number().int().nonnegative().optional(),
      /** Reasoning tokens among the output. */
      reasoningTokens: z.number().int().nonnegative().optional(),
    }).strict().optional(),
  }).strict(),
  z.object({
    /** Fail this request with an error of this kind, as the provider would answer it. */
    fail: z.enum(['rate_limited', 'quota_exhausted', 'server', 'timeout', 'transport', 'bad_request',
      'context_length', 'content_filter', 'auth', 'not_found']),
    /** The failure's HTTP status. */
    status: z.number().int().optional(),
    /** The provider's error code. */
    code: z.string().optional(),
    /** The wait hint the failure carries (`retry-after`). */
    retryAfterMs: z.number().nonnegative().optional(),
    /** The error's message. */
    message: z.string().optional(),
    /** Latency before the failure, overriding the provider's `latencyMs`. */
    latencyMs: z.number().int().nonnegative().optional(),
    /** Streams only: the failure arrives mid-stream, after this many chunks of content (tool-call chunks count). */
    afterChunks: z.number().int().nonnegative().optional(),
  }).strict(),
]);

const fakeRespond = z.custom<(request: unknown, n: number) => unknown>((v) => typeof v === 'function', {
  message: 'expected a function (request, n) => step',
});

/**
 * Amazon Bedrock (Converse, ConverseStream, InvokeModel for embeddings): no key here, the AWS SDK's
 * default credential chain signs every request (environment, shared config and `profile`, SSO, the
 * instance or container role). Needs the optional package `@aws-sdk/client-bedrock-runtime`.
 * `baseURL` is the runtime endpoint (unset: the SDK's https://bedrock-runtime.<region>.amazonaws.com).
 */
const bedrockFields = {
  ...providerBase,
  /** AWS region, e.g. `us-east-1`. @default AWS_REGION (or the profile's region), as the AWS SDK resolves it */
  region: z.string().regex(/^[a-z]{2}(?:-[a-z]+)+-\d+$/, { message: "expected an AWS region such as 'us-east-1'" }).optional(),
  /** A named profile of the shared AWS config files to take credentials (and region) from. @default AWS_PROFILE, or `default` */
  profile: z.string().min(1).optional(),
};
/** Fields of the other providers that mean nothing to Bedrock: set, they are a mistake worth naming. */
const NOT_FOR_BEDROCK = ['apiKey', 'apiKeyEnv', 'headers', 'transport', 'query', 'azure'] as const;

/**
 * One provider. `type` is the API it speaks: `openai` (and Azure OpenAI), `anthropic`, `gemini` (the
 * Gemini API; key from `GEMINI_API_KEY` by default), `openai-compatible` (any base URL: vLLM, Ollama,
 * gateways, the presets), `bedrock` (Amazon Bedrock) or `fake` (in-process, scriptable, for tests).
 */
export const providerSchema = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('openai'),
    ...providerBase,
    /** Which OpenAI API answers: Chat Completions, or the Responses API (stateless, reasoning items round-trip). @default 'chat' */
    api: z.enum(['chat', 'responses']).optional(),
  }).strict(),
  z.object({ type: z.literal('anthropic'), ...providerBase }).strict(),
  /** The Gemini API (generativelanguage.googleapis.com v1beta); its key is read from GEMINI_API_KEY unless `apiKey` or `apiKeyEnv` says otherwise. */
  z.object({ type: z.literal('gemini'), ...providerBase }).strict(),
  z.object({
    type: z.literal('openai-compatible'),
    ...providerBase,
    /** Required unless `preset` names the service. */
    baseURL: httpURL.optional(),
    /** A known service: fills `baseURL`, `apiKeyEnv`, `capabilities` and its error dialect (what the config sets wins). */
    preset: z.enum(PRESET_NAMES, { error: () => `unknown preset (valid: ${PRESET_NAMES.join(', ')})` }).optional(),
    capabilities: capabilitiesSchema.optional(),
  }).strict(),
  z.object({ type: z.literal('bedrock'), ...bedrockFields }).strict().superRefine((p, ctx) => {
    for (const field of NOT_FOR_BEDROCK) {
      if (p[field] !== undefined) ctx.addIssue({ code: 'custom', path: [field], message: `a bedrock provider takes no ${field}: the AWS SDK signs with the default credential chain (region, profile and baseURL are its settings)` });
    }
  }),
  z.object({
    type: z.literal('fake'),
    ...providerBase,
    /** Outcomes for successive requests; after the script runs out every request succeeds. */
    script: z.array(fakeStepSchema).optional(),
    /** Decides each outcome in code instead of a script. */
    respond: fakeRespond.optional(),
    /** Simulated latency of every request. */
    latencyMs: nonNegativeMs.optional(),
  }).strict(),
]);

/**
 * Prompt caching (docs/prompt-caching.md): `auto` places cache breakpoints the way Anthropic
 * recommends (the last tool, the system prompt, the last user turn) on a call that set none, for
 * targets that cache by breakpoints (Anthropic, Bedrock models with prompt caching) and for OpenAI's
 * `prompt_cache_key`.
 */
export const promptCacheSchema = z.object({
  /** Place breakpoints on calls that set none. @default false */
  auto: z.boolean().optional(),
}).strict();

const targetObject = z.object({
  /** A provider's name in `providers`. */
  provider: z.string().min(1),
  /** The model (for Azure the deployment, for Bedrock a model id, inference profile or ARN). */
  model: z.string().min(1),
  /** `maxTokens` for a call through this target that sets none. */
  maxTokens: positiveInt.max(MAX_OUTPUT_TOKENS).optional(),
  /** `temperature` for a call through this target that sets none. */
  temperature: z.number().min(0).max(2).optional(),
  /** Attempts on this target before falling through (overrides `retry.maxAttempts`). */
  maxAttempts: positiveInt.optional(),
  /** This target's retry budget (overrides `retry.budgetPercent`). */
  budgetPercent: z.number().min(0).max(1000).optional(),
  /** Prompt caching for calls through this target (overrides the chain's `promptCache`). */
  promptCache: promptCacheSchema.optional(),
}).strict();

const targetString = z.string().regex(/^[^:]+:.+$/, { message: "expected 'provider:model'" });

/**
 * Outlier ejection for a pool's members (off unless set; docs/routing.md, "Outlier ejection"): a
 * member that fails in a row, answers well below the others' success rate, or far slower than their
 * median, is skipped for a time that grows with each ejection. A rule set to 0 is off.
 */
export const outlierSchema = z.object({
  /** Server failures, transport errors and timeouts in a row (never a 429 or a caller's 4xx) that eject a member. @default 5 */
  consecutiveFailures: nonNegativeInt.optional(),
  /** Eject a member whose success rate over its last 20 verdicts is below this fraction of the other members'. @default 0.8 */
  successRateBelow: z.number().min(0).max(1).optional(),
  /** Eject a member whose median latency over its last 20 answers is above this many times the other members' median. @default 3 */
  latencyAboveMedianX: z.number().min(0).refine((x) => x === 0 || x > 1, { message: 'latencyAboveMedianX is 0 (off) or more than 1' }).optional(),
  /** The first ejection's length; the n-th lasts n times as long, at most 300 s (or ejectMs when longer). @default 30000 */
  ejectMs: positiveMs.optional(),
  /** The most of the pool ejected at once, in percent (one member may always be ejected, one always serves). @default 50 */
  maxEjectedPercent: z.number().gt(0).max(100).optional(),
}).strict();

/**
 * Equivalent deployments of one model tried as one step: `headroom` orders them by the room each has
 * left (its local budget and what the provider last reported, minus the calls in flight),
 * `round_robin` takes turns, `latency` sends to the faster of two members drawn at random (power of
 * two choices on peak-EWMA latency x (in flight + 1)), `weighted` splits calls by `weights`, per
 * tenant or user with `sticky` (docs/routing.md); a capacity failure tries the pool's other members
 * before the chain's next step.
 */
const poolStep = z.object({
  /** The pool's members: targets as `'provider:model'` or objects. */
  pool: z.array(z.union([targetString, targetObject])).min(2, { message: 'a pool needs at least two members' }),
  /** How the pool's members are ordered for each call. @default 'headroom' */
  pick: z.enum(['headroom', 'round_robin', 'latency', 'weighted']).optional(),
  /**
   * `pick: 'weighted'`: each member's share of the calls, keyed by the member as written
   * (`'provider:model'`); every member needs one, none negative, not all zero.
   */
  weights: z.record(z.string(), z.number()).optional(),
  /**
   * `pick: 'weighted'`: keep a tenant's (or a request's `user`'s) calls on one member while it is
   * available, by rendezvous hashing on the weights. @default false
   */
  sticky: z.union([z.enum(['tenant', 'user']), z.literal(false)]).optional(),
  /** Eject members that fail, answer badly or slowly (off unless set). */
  outlier: outlierSchema.optional(),
}).strict();

const chainSteps = z.array(z.union([targetString, targetObject, poolStep])).min(1, { message: 'a chain needs at least one target' });

/**
 * Hedged requests: when the first attempt has not answered after `afterMs` (or after the target's
 * recent latency at `percentile`), the next step or pool member is tried too; the first answer wins
 * and the other is aborted, its budget given back. Streams hedge only before their first token.
 */
export const hedgeSchema = z.object({
  /** Hedge after this long without an answer (the fallback while `percentile` has too few samples). */
  afterMs: positiveMs.optional(),
  /** Hedge after the first target's recent latency at this percentile (e.g. 95), from its last 100 answers. */
  percentile: z.number().gt(0).lt(100).optional(),
  /** Hedges allowed, as a share of the chain's calls over a rolling 10 s. @default 5 */
  maxExtraPercent: z.number().gt(0).max(100).default(DEFAULTS.hedge.maxExtraPercent),
}).strict().refine((h) => h.afterMs !== undefined || h.percentile !== undefined, { message: 'a hedge needs afterMs, percentile or both' });

/**
 * Shadow traffic (docs/routing.md, "Shadow traffic"): a sampled share of the chain's successful calls
 * is sent again to each candidate target after the caller's answer is complete, and the candidate's
 * answer is scored against the real one (a `shadow` event). Never on the caller's time, slot or budget.
 */
export const shadowSchema = z.object({
  /** The candidate targets, `'provider:model'`: each gets the sampled calls on a chain of its own (no fall-through). */
  targets: z.array(targetString).min(1, { message: 'a shadow needs at least one target' }),
  /** The share of the chain's successful calls copied, in percent (0..100). */
  percent: z.number().min(0).max(100),
  /** Eval expectations (docs/eval.md) every shadow answer is checked against, by the router's shadow grader. */
  expect: z.record(z.string(), z.unknown())
    .refine((e) => !('judge' in e) && !('similar' in e), { message: 'judge and similar are not checked on shadow answers: use shadow.judge' })
    .optional(),
  /** A judge scores each shadow answer against the rubric, given the real answer (the eval judge). */
  judge: z.object({ rubric: z.string().min(1), chain: z.string().min(1).optional(), minScore: z.number().min(0).max(1).optional() }).strict().optional(),
  /** Shadows in flight at once, router-wide share of this chain; one more is dropped, never queued. @default 4 */
  maxInFlight: positiveInt.default(DEFAULTS.shadow.maxInFlight),
}).strict();

/**
 * One chain: its steps, tried in order, or `{ steps, hedge, shadow, promptCache }` (a step's `promptCache` wins over the chain's). A step is `'provider:model'` (split at the first colon:
 * `local:llama3:8b`), a target object, or a pool.
 */
export const chainSchema = z.union([
  chainSteps,
  z.object({ steps: chainSteps, hedge: hedgeSchema.optional(), shadow: shadowSchema.optional(), promptCache: promptCacheSchema.optional() }).strict(),
]);

export const retrySchema = z.object({
  /** Attempts per target before falling through (a chain step's `maxAttempts` overrides). @default 3 */
  maxAttempts: positiveInt.default(DEFAULTS.retry.maxAttempts),
  /** First backoff ceiling: the n-th retry waits between half and all of `baseDelayMs * 2^n`. @default 250 */
  baseDelayMs: nonNegativeMs.default(DEFAULTS.retry.baseDelayMs),
  /** Backoff ceiling. @default 8000 */
  maxDelayMs: nonNegativeMs.default(DEFAULTS.retry.maxDelayMs),
  /** A provider's wait hint longer than this falls through at once and cools the target. @default 5000 */
  maxInlineWaitMs: nonNegativeMs.default(DEFAULTS.retry.maxInlineWaitMs),
  /** Retry a timed-out attempt on the same target (a timed-out call may have been billed). @default false */
  retryTimeouts: z.boolean().default(DEFAULTS.retry.retryTimeouts),
  /** How long a target cools after 429s that named no reset at all. @default 1000 */
  cooldownMs: nonNegativeMs.default(DEFAULTS.retry.cooldownMs),
  /** An answer that fails to parse or validate: thrown (`throw`), or the next target is tried (`next`). @default 'throw' */
  onInvalidOutput: z.enum(['throw', 'next']).default(DEFAULTS.retry.onInvalidOutput),
  /**
   * Retry budget: retries to one target (attempt 2 and later, after a 5xx, a transport failure or a
   * retried timeout) over a rolling 10 s stay under this percentage of its first attempts, plus
   * `budgetMinRetries`, spent evenly (one second takes at most a tenth of that, or what is left of
   * the floor); 0 turns those retries off (a chain step's `budgetPercent` overrides). 429s wait on
   * the provider's hint instead and are not counted. @default 20
   */
  budgetPercent: z.number().min(0).max(1000).default(DEFAULTS.retry.budgetPercent),
  /** Retries to one target the budget allows over any 10 s whatever its percentage, so a quiet target can still retry. @default 50 */
  budgetMinRetries: z.number().int().min(0).default(DEFAULTS.retry.budgetMinRetries),
}).strict();

export const breakerSchema = z.object({
  /** One breaker per provider, or per `provider:model` target. @default 'provider' */
  scope: z.enum(['provider', 'target']).default(DEFAULTS.breaker.scope),
  /** Opens when failures are *more* than this share of the rolling window. @default 50 */
  errorThresholdPercentage: z.number().min(0).max(100).default(DEFAULTS.breaker.errorThresholdPercentage),
  /** Fewest outcomes in the window before it may open on the percentage. @default 5 */
  volumeThreshold: nonNegativeInt.default(DEFAULTS.breaker.volumeThreshold),
  /** Length of the rolling window. @default 10000 */
  windowMs: positiveMs.default(DEFAULTS.breaker.windowMs),
  /** Time open before one half-open probe. @default 5000 */
  resetTimeoutMs: positiveMs.default(DEFAULTS.breaker.resetTimeoutMs),
  /** Opens after this many server failures in a row, whatever the window's percentage says. @default 5 */
  consecutiveFailures: positiveInt.default(DEFAULTS.breaker.consecutiveFailures),
  /**
   * When a call has no target left and some were skipped for an open circuit, try the first of those
   * once anyway, as far as adaptive throttling of its recent failures allows. @default true
   */
  lastResort: z.boolean().default(DEFAULTS.breaker.lastResort),
  /**
   * With a shared (Redis) store: one breaker state and one half-open probe for every process, each
   * still judging by its own rolling window. With a store of this process only, nothing changes. @default false
   */
  shared: z.boolean().default(DEFAULTS.breaker.shared),
}).strict();

/** One key of the gateway: read from the environment (`keyEnv`) or stored as a hash (`keyHash`), never both. */
export const gatewayKeySchema = z.object({
  /** Environment variable holding the key; it must be set when the gateway starts. */
  keyEnv: z.string().min(1).optional(),
  /** `sha256:` and the hex SHA-256 of the key (`hashKey` from `switchyard-llm/gateway` makes one): the key itself is stored nowhere. */
  keyHash: z.string().regex(/^sha256:[0-9a-f]{64}$/, { message: 'expected sha256: and 64 lowercase hex digits' }).optional(),
  /** The tenant every call made with this key runs as: its budgets and fair share. */
  tenant: z.string().min(1),
  /** The chains (`model` names) this key may use. @default every chain */
  chains: z.array(z.string().min(1)).min(1).optional(),
  /** A USD budget of this key's own (on top of its tenant's), across every target (see docs/spend.md). */
  spend: spendSchema.optional(),
}).strict().refine((k) => (k.keyEnv === undefined) !== (k.keyHash === undefined), { message: 'set exactly one of keyEnv and keyHash' });

/** `switchyard serve` and `createGateway`: who may call, how large a body may be, how long a shutdown waits. */
export const gatewaySchema = z.object({
  /** Bearer keys and the tenant each maps to. Without any, the gateway serves loopback only. @default none */
  keys: z.array(gatewayKeySchema).default(() => [...DEFAULTS.gateway.keys]),
  /** Largest request body accepted; a larger one is answered 413 (`request_too_large`). @default 10485760 */
  bodyLimitBytes: positiveInt.default(DEFAULTS.gateway.bodyLimitBytes),
  /** On SIGTERM, how long calls in flight may take to finish before they are cut off. @default 25000 */
  drainMs: nonNegativeMs.default(DEFAULTS.gateway.drainMs),
  /** A log line for every request (`switchyard serve --log-requests`); off, only requests that failed (status 400 or above, or a stream the upstream cut short) are logged. @default false */
  logRequests: z.boolean().default(DEFAULTS.gateway.logRequests),
  /** Pass-through: a chat completion (streamed or not) or embeddings request that an OpenAI-compatible target takes as it is, or a Responses request (streamed or not) to an `api: 'responses'` OpenAI target that needs nothing mapped, goes upstream as the client's bytes (only `model` rewritten) and its answer comes back as the upstream's; `false` (`switchyard serve --no-pass-through`) translates every request. @default true */
  passThrough: z.boolean().default(DEFAULTS.gateway.passThrough),
  /** A JSON-lines file `switchyard serve` appends every `shadow` event to (docs/routing.md, "Shadow traffic"), read by `switchyard eval --shadow-report`. @default none */
  shadowLog: z.string().min(1).optional(),
  /** `POST /v1/responses`: the conversations `previous_response_id` continues, kept in the state store. */
  responses: z.object({
    /** How long a stored response can be continued. @default 3600000 */
    ttlMs: positiveInt.default(DEFAULTS.gateway.responses.ttlMs),
    /** With the memory store: responses kept per process before the least recently used is forgotten. @default 10000 */
    maxEntries: positiveInt.default(DEFAULTS.gateway.responses.maxEntries),
  }).strict().default(() => ({ ...DEFAULTS.gateway.responses })),
}).strict();

export const configSchema = z.object({
  /** The providers by name (a name cannot contain `:`). A `bedrock` provider takes no `apiKey`, `apiKeyEnv`, `headers`, `transport`, `query` or `azure`: the AWS SDK signs its requests with the default credential chain. */
  providers: z.record(z.string().regex(/^[^:]+$/, { message: 'a provider name cannot contain ":"' }), providerSchema)
    .refine((p) => Object.keys(p).length > 0, { message: 'declare at least one provider' }),
  /** The chains by name: a call's `chain` (default `default`; `embed` calls default to `embeddings`), the gateway's `model`. */
  chains: z.record(z.string().min(1), chainSchema)
    .refine((c) => Object.keys(c).length > 0, { message: 'declare at least one chain' }),
  /** Retries on one target, and the waits between them. */
  retry: retrySchema.default({ ...DEFAULTS.retry }),
  /** The circuit breakers: one per provider (or target), fed server failures and successes only. */
  breaker: breakerSchema.default({ ...DEFAULTS.breaker }),
  /** Quota and billing errors: the provider is parked. */
  quota: z.object({
    /** How long a provider is skipped after a quota or billing error. @default 600000 */
    parkMs: nonNegativeMs.default(DEFAULTS.quota.parkMs),
  }).strict().default({ ...DEFAULTS.quota }),
  /** Tenants by name (`*` applies to any tenant not listed; calls without a tenant are `default`). */
  tenants: z.record(z.string().min(1), tenantSchema).default({}),
  /** Calls with an `idempotencyKey`: one request per key, the answer replayed. */
  idempotency: z.object({
    /** How long a finished result is replayed for the same key. @default 600000 */
    ttlMs: positiveMs.default(DEFAULTS.idempotency.ttlMs),
    /** How long a claim of a caller that died mid-call blocks its key. @default 120000 */
    pendingTtlMs: positiveMs.default(DEFAULTS.idempotency.pendingTtlMs),
  }).strict().default({ ...DEFAULTS.idempotency }),
  /** Where shared state lives: this process's memory, or Redis (shared by every process that uses it). */
  store: z.discriminatedUnion('type', [
    z.object({ type: z.literal('memory') }).strict(),
    z.object({
      type: z.literal('redis'),
      /** The Redis URL (a password in it is masked wherever the URL is shown). */
      url: z.string().min(1),
      /** Prepended to every key, so several apps can share one Redis. @default 'switchyard:' */
      keyPrefix: z.string().min(1).optional(),
      /**
       * While Redis is unreachable: `local` continues every call on process-local state (budgets then
       * hold per process, not for the fleet); `fail` fails calls as `transport` at once. @default 'local'
       */
      onUnavailable: z.enum(['local', 'fail']).default(DEFAULTS.store.onUnavailable),
      /** A Redis operation unanswered this long counts Redis as down (a slower Redis is a sick one). @default 250 */
      failoverMs: positiveMs.default(DEFAULTS.store.failoverMs),
    }).strict(),
  ]).default({ type: 'memory' }),
  /**
   * The response cache (off unless set): identical requests of one tenant are answered from it,
   * sending nothing. In the state store: an LRU in memory, or Redis with a TTL (shared by processes).
   */
  cache: z.object({
    /** How long an answer is kept. */
    ttlMs: positiveMs,
    /** Answers kept in memory at most (the memory store; Redis keeps them by TTL). @default 1000 */
    maxEntries: positiveInt.default(DEFAULTS.cache.maxEntries),
  }).strict().optional(),
  /** Embeddings: which models give vectors of one space, so one `embed` chain may fall through between them. */
  embeddings: z.object({
    /**
     * Groups of model names (or `provider:model` targets) declared interchangeable: the same model
     * served by several providers under different names (none by default). An `embed` chain may only mix models of one group.
     */
    interchangeable: z.array(z.array(z.string().min(1)).min(2)).default(() => [...DEFAULTS.embeddings.interchangeable]),
  }).strict().default(() => ({ interchangeable: [...DEFAULTS.embeddings.interchangeable] })),
  /**
   * USD per million tokens, keyed by `provider:model` (or by model alone), over the shipped table
   * (src/spend/price-table.ts): what `costUsd`, spend budgets and `switchyard eval` price from.
   */
  prices: z.record(z.string().min(1), z.object({
    /** USD per million input tokens. */
    inputPerMTok: z.number().finite().nonnegative(),
    /** USD per million output tokens. */
    outputPerMTok: z.number().finite().nonnegative(),
    /** Input read from the provider's prompt cache. @default inputPerMTok */
    cachedInputPerMTok: z.number().finite().nonnegative().optional(),
    /** Input written to the prompt cache with a 5-minute lifetime (or one not reported). @default inputPerMTok */
    cacheWritePerMTok: z.number().finite().nonnegative().optional(),
    /** Input written to the prompt cache with a 1-hour lifetime. @default cacheWritePerMTok */
    cacheWrite1hPerMTok: z.number().finite().nonnegative().optional(),
  }).strict()).default({}),
  /** `switchyard serve` and `createGateway`. */
  gateway: gatewaySchema.default(() => ({ keys: [...DEFAULTS.gateway.keys], bodyLimitBytes: DEFAULTS.gateway.bodyLimitBytes, drainMs: DEFAULTS.gateway.drainMs, logRequests: DEFAULTS.gateway.logRequests, passThrough: DEFAULTS.gateway.passThrough, responses: { ...DEFAULTS.gateway.responses } })),
  /**
   * Bounds on a call's free-form JSON (tool parameter schemas, the output schema, `providerOptions`
   * such as the gateway's `metadata`, tool call arguments and provider parts in the history): a field
   * nested deeper or written longer is refused as `invalid_request` naming it, before anything is sent.
   */
  input: z.object({
    /** Levels of objects and arrays one field may nest (the field itself is level 1). @default 64 */
    maxDepth: positiveInt.default(DEFAULTS.input.maxDepth),
    /** Length of one field written as JSON, in characters. @default 1048576 */
    maxChars: positiveInt.default(DEFAULTS.input.maxChars),
  }).strict().default({ ...DEFAULTS.input }),
  /** `switchyard eval`'s graders (docs/eval.md): the chains its judge and `similar` expectations use. */
  eval: z.object({
    /** The chain that grades `expect.judge` (a case's own `chain` wins). @default 'judge' when declared */
    judgeChain: z.string().min(1).optional(),
    /** The embeddings chain `expect.similar` compares on (a case's own `chain` wins). @default 'embed' when declared */
    embedChain: z.string().min(1).optional(),
  }).strict().optional(),
  /** The default logger (pino, to stderr). */
  log: z.object({
    /** pino level of the default logger. @default 'info' */
    level: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default(DEFAULTS.log.level),
    /** Log prompt text at debug level. @default false */
    logPrompts: z.boolean().default(DEFAULTS.log.logPrompts),
  }).strict().default({ ...DEFAULTS.log }),
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
export type SpendConfig = z.output<typeof spendSchema>;
export type GatewayConfig = z.output<typeof gatewaySchema>;
export type GatewayKeyConfig = z.output<typeof gatewayKeySchema>;
