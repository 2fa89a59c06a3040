/**
 * Error answers of each preset's service, in the shapes its docs give (sources in
 * providers/shared/presets/<name>.md). Where a doc shows the shape but no full body, the message is
 * marked synthetic; the status, the field layout and the headers are the documented ones.
 */

type Headers = Record<string, string>;

/** One scripted upstream error: status, headers and body. */
export interface WireError {
  status: number;
  headers?: Headers;
  body: unknown;
}

const openaiEnvelope = (message: string, type: string | null, code: string | null = null) => ({ error: { message, type, param: null, code } });

/** Groq (console.groq.com/docs/rate-limits, /docs/errors, /docs/flex-processing). */
export const groq = {
  /** A TPM 429: `retry-after` only on 429s; RPD in the requests window, reset as a Go-style duration. */
  rateLimited: (retryAfter?: string): WireError => ({
    status: 429,
    headers: {
      ...(retryAfter ? { 'retry-after': retryAfter } : {}),
      'x-ratelimit-limit-requests': '14400', 'x-ratelimit-remaining-requests': '14370', 'x-ratelimit-reset-requests': '2m59.56s',
      'x-ratelimit-limit-tokens': '6000', 'x-ratelimit-remaining-tokens': '0', 'x-ratelimit-reset-tokens': '7.66s',
    },
    // Message synthetic, in the wording of the docs' example; type/code as documented.
    body: openaiEnvelope('Rate limit reached for model `llama-3.3-70b-versatile` in organization `org_01` service tier `on_demand` on tokens per minute (TPM): Limit 6000, Used 6000, Requested 420. Please try again in 7.66s.', 'tokens', 'rate_limit_exceeded'),
  }),
  flexCapacity: { status: 498, body: openaiEnvelope('Flex tier capacity exceeded. Please try again later.', 'service_unavailable', 'capacity_exceeded') } satisfies WireError,
  badRequest: { status: 400, body: openaiEnvelope("'messages' must contain at least one message", 'invalid_request_error') } satisfies WireError,
};

/** Mistral (docs.mistral.ai/resources/error-glossary: `{object: "error", message, type, param, code}` at the top level). */
export const mistral = {
  /** The per-minute token window spent; `ratelimitbysize-reset` in seconds. */
  rateLimited: {
    status: 429,
    headers: { 'x-ratelimitbysize-limit-minute': '500000', 'x-ratelimitbysize-remaining-minute': '0', 'ratelimitbysize-reset': '3', 'x-ratelimitbysize-limit-month': '1000000000', 'x-ratelimitbysize-remaining-month': '999000000' },
    body: { object: 'error', message: 'Requests rate limit exceeded', type: 'rate_limit_error', param: null, code: null },
  } satisfies WireError,
  /** The monthly token window spent: no wait helps until next month. */
  monthlyLimit: {
    status: 429,
    headers: { 'x-ratelimitbysize-limit-minute': '500000', 'x-ratelimitbysize-remaining-minute': '480000', 'x-ratelimitbysize-limit-month': '1000000000', 'x-ratelimitbysize-remaining-month': '0' },
    body: { object: 'error', message: 'Requests rate limit exceeded', type: 'rate_limit_error', param: null, code: null },
  } satisfies WireError,
  contextLength: {
    status: 400,
    body: { object: 'error', message: 'Prompt contains 40123 tokens and 0 draft tokens, too large for model with 32768 maximum context length', type: 'invalid_request_error', param: null, code: '3051' },
  } satisfies WireError,
};

/** DeepSeek (api-docs.deepseek.com/quick_start/error_codes; the 402 body as users have quoted it). */
export const deepseek = {
  insufficientBalance: { status: 402, body: { error: { message: 'Insufficient Balance', type: 'unknown_error', param: null, code: 'invalid_request_error' } } } satisfies WireError,
  // Message synthetic, from the docs' table ("The server is overloaded due to high traffic").
  overloaded: { status: 503, body: openaiEnvelope('The server is overloaded due to high traffic. Please retry your request after a brief wait.', 'service_unavailable_error') } satisfies WireError,
  invalidParameters: { status: 422, body: openaiEnvelope('Invalid parameters: temperature must be between 0 and 2', 'invalid_request_error') } satisfies WireError,
};

/** OpenRouter (openrouter.ai/docs/api/reference/errors-and-debugging, /limits). */
export const openrouter = {
  insufficientCredits: { status: 402, body: { error: { code: 402, message: 'Insufficient credits. Add more using https://openrouter.ai/credits', metadata: { error_type: 'payment_required' } } } } satisfies WireError,
  /** A platform 429 with `X-RateLimit-Reset` in Unix milliseconds. */
  rateLimited: (resetAtMs: number): WireError => ({
    status: 429,
    headers: { 'X-RateLimit-Limit': '20', 'X-RateLimit-Remaining': '0', 'X-RateLimit-Reset': String(resetAtMs) },
    body: { error: { code: 429, message: 'Rate limit exceeded', metadata: { error_type: 'rate_limit_exceeded' } } },
  }),
  /** An upstream provider that failed after OpenRouter answered 200: the error is inside the answer. */
  embeddedProviderError: {
    status: 200,
    body: {
      id: 'gen-abc123', object: 'chat.completion', created: 1234567890, model: 'openai/gpt-4o', provider: 'OpenAI',
      choices: [{ index: 0, message: { role: 'assistant', content: 'partial output...' }, finish_reason: 'error', error: { code: 502, message: 'Provider disconnected mid-stream', metadata: { error_type: 'provider_unavailable' } } }],
    },
  } satisfies WireError,
  /** The mid-stream error chunk (top-level `error`, `finish_reason: "error"`). */
  midStreamError: (code: number, errorType: string, message: string) => `data: ${JSON.stringify({
    id: 'gen-abc123', object: 'chat.completion.chunk', created: 1234567890, model: 'openai/gpt-4o', provider: 'OpenAI',
    error: { code, message, metadata: { error_type: errorType } },
    choices: [{ index: 0, delta: { content: '' }, finish_reason: 'error' }],
  })}`,
  moderation: { status: 403, body: { error: { code: 403, message: 'Your chosen model requires moderation and your input was flagged', metadata: { reasons: ['violence'], flagged_input: 'a story about...', provider_name: 'OpenAI', model_slug: 'openai/gpt-4o' } } } } satisfies WireError,
};

/** Together AI (docs.together.ai/docs/error-codes, /docs/rate-limits). Messages synthetic; statuses and headers documented. */
export const together = {
  rateLimited: {
    status: 429,
    headers: { 'x-ratelimit-limit': '10', 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': '2', 'x-tokenlimit-limit': '20000', 'x-tokenlimit-remaining': '18000' },
    body: openaiEnvelope('You have been rate limited', 'dynamic_request_limited'),
  } satisfies WireError,
  spendingLimit: { status: 402, body: openaiEnvelope('The account associated with the API key has reached its maximum allowed monthly spending limit.', 'payment_required') } satisfies WireError,
  overloaded: { status: 503, body: openaiEnvelope('The engine is currently overloaded, please try again later', 'server_error') } satisfies WireError,
  contextLength: { status: 403, body: openaiEnvelope('Input validation error: inputs tokens + max_new_tokens must be <= 8193. Given: 8000 inputs tokens and 500 max_new_tokens; exceeds the context length', 'invalid_request_error') } satisfies WireError,
};

/** Fireworks AI (docs.fireworks.ai/serverless/rate-limits: 429 over the adaptive limit, 503 when load is shed). Messages synthetic. */
export const fireworks = {
  rateLimited: {
    status: 429,
    headers: { 'retry-after': '1', 'x-ratelimit-limit-tokens-prompt': '60000', 'x-ratelimit-remaining-tokens-prompt': '0', 'x-ratelimit-limit-tokens-generated': '600', 'x-ratelimit-remaining-tokens-generated': '420', 'x-ratelimit-over-limit': 'yes' },
    body: openaiEnvelope('Request rate increased too quickly. To ensure system stability, please adjust your client logic to scale requests more smoothly over time.', 'rate_limit_error'),
  } satisfies WireError,
  overloaded: { status: 503, body: openaiEnvelope('Service Overloaded', 'server_error') } satisfies WireError,
};

/** xAI (docs.x.ai/developers/rate-limits; the credits bodies as users have quoted them). */
export const xai = {
  rateLimited: { status: 429, headers: { 'retry-after': '2' }, body: openaiEnvelope('Too many requests', 'rate_limit_error') } satisfies WireError,
  /** Credits gone: a 429 whose body is a bare JSON string. */
  creditsExhausted: { status: 429, body: 'Your team 16f2151a-40f4-4a80-8ad0-cae00c27e8dd has either used all available credits or reached its monthly spending limit. To continue making API requests, please purchase more credits or raise your spending limit.' } satisfies WireError,
  noCredits: { status: 403, body: { code: 'The caller does not have permission to execute the specified operation', error: "Your newly created teams doesn't have any credits yet. You can purchase credits on https://console.x.ai/team/c853730f." } } satisfies WireError,
};

/** Ollama (`openai/openai.go` `NewError`: `{error: {message, type}}`, type by status). */
export const ollama = {
  modelNotFound: { status: 404, body: { error: { message: "model 'llama9' not found", type: 'not_found_error', param: null, code: null } } } satisfies WireError,
  serverError: { status: 500, body: { error: { message: 'llama runner process has terminated: exit status 2', type: 'api_error', param: null, code: null } } } satisfies WireError,
};

/** vLLM (`ErrorResponse`: top-level `{object: "error", message, type, param, code: <status>}` in older servers, `{error: {...}}` in newer). */
export const vllm = {
  contextLengthTopLevel: { status: 400, body: { object: 'error', message: "This model's maximum context length is 4096 tokens. However, you requested 5000 tokens (4000 in the messages, 1000 in the completion). Please reduce the length of the messages or completion.", type: 'BadRequestError', param: null, code: 400 } } satisfies WireError,
  overloaded: { status: 503, body: { error: { message: 'The server is overloaded', type: 'ServiceUnavailableError', param: null, code: 503 } } } satisfies WireError,
};
