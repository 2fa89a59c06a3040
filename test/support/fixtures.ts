/**
 * Recorded provider bodies and headers, verbatim from ../shared/reference/provider-wire-formats.md
 * (sources cited there). Where the reference marks a body synthetic, so does the comment here.
 */
import type { Reply } from './upstream.js';

export const OPENAI_PATH = '/v1/chat/completions';
export const ANTHROPIC_PATH = '/v1/messages';

// ---- OpenAI -------------------------------------------------------------------------------
export const openaiSuccessHeaders = {
  'openai-organization': 'org-test',
  'openai-processing-ms': '412',
  'openai-version': '2020-10-01',
  'x-request-id': 'req_1332ed8a813a4caaa2f0f3c55a6a68cb',
  'x-ratelimit-limit-requests': '60',
  'x-ratelimit-limit-tokens': '150000',
  'x-ratelimit-remaining-requests': '59',
  'x-ratelimit-remaining-tokens': '149984',
  'x-ratelimit-reset-requests': '1s',
  'x-ratelimit-reset-tokens': '6m0s',
};

export function openaiCompletion(text = 'Hello! How can I assist you today?', model = 'gpt-4o-mini') {
  return {
    id: 'chatcmpl-B9MBs8CjcvOU2jLn4n570S5qMJKcT',
    object: 'chat.completion',
    created: 1741569952,
    model,
    choices: [{ index: 0, message: { role: 'assistant', content: text, refusal: null, annotations: [] }, logprobs: null, finish_reason: 'stop' }],
    usage: {
      prompt_tokens: 19, completion_tokens: 10, total_tokens: 29,
      prompt_tokens_details: { cached_tokens: 0, audio_tokens: 0 },
      completion_tokens_details: { reasoning_tokens: 0, audio_tokens: 0, accepted_prediction_tokens: 0, rejected_prediction_tokens: 0 },
    },
    service_tier: 'default',
  };
}

export const openaiOk = (text?: string): Reply => ({ status: 200, headers: openaiSuccessHeaders, body: openaiCompletion(text) });

/** 429 header set (synthetic, per the reference); `retry-after` is optional on real 429s. */
export const openai429Headers = {
  'x-request-id': 'req_abc', 'retry-after': '20',
  'x-ratelimit-limit-requests': '3', 'x-ratelimit-remaining-requests': '0', 'x-ratelimit-reset-requests': '20s',
  'x-ratelimit-limit-tokens': '40000', 'x-ratelimit-remaining-tokens': '39000', 'x-ratelimit-reset-tokens': '1.5s',
};

export const openaiBodies = {
  rateLimitRequests: { error: { message: 'Rate limit reached for gpt-4o-mini in organization org-erQx1ZrQBcN6XYo3YE on requests per min (RPM): Limit 3, Used 3, Requested 1. Please try again in 20s. Visit https://platform.openai.com/account/rate-limits to learn more. You can increase your rate limit by adding a payment method to your account at https://platform.openai.com/account/billing.', type: 'requests', param: null, code: 'rate_limit_exceeded' } },
  rateLimitTokens: { error: { message: 'Rate limit reached for gpt-4 in organization org-********** on tokens per min (TPM): Limit 10000, Used 9348, Requested 5086. Please try again in 26.604s. Visit https://platform.openai.com/account/rate-limits to learn more.', type: 'tokens', param: null, code: 'rate_limit_exceeded' } },
  requestTooLarge: { error: { message: 'Request too large for gpt-5 in organization org-123456 on tokens per min (TPM): Limit 30000, Requested 36055. The input or output tokens must be reduced in order to run successfully.', type: 'tokens', param: null, code: 'rate_limit_exceeded' } },
  insufficientQuota: { error: { message: 'You exceeded your current quota, please check your plan and billing details. For more information on this error, read the docs: https://platform.openai.com/docs/guides/error-codes/api-errors.', type: 'insufficient_quota', param: null, code: 'insufficient_quota' } },
  /** Before late 2023: `code` null, so classify on `type` too. */
  insufficientQuotaOld: { error: { message: 'You exceeded your current quota, please check your plan and billing details.', type: 'insufficient_quota', param: null, code: null } },
  /** Newer spend code under `type: insufficient_quota` (unverified against the official page). */
  projectSpendLimit: { error: { message: 'Project spend limit exceeded.', type: 'insufficient_quota', param: null, code: 'project_spend_limit_exceeded' } },
  invalidApiKey: { error: { message: 'Incorrect API key provided: sk-VKMIs***************************************wjh3. You can find your API key at https://platform.openai.com/account/api-keys.', type: 'invalid_request_error', param: null, code: 'invalid_api_key' } },
  contextLength: { error: { message: "This model's maximum context length is 128000 tokens. However, your messages resulted in 202868 tokens (202767 in the messages, 101 in the functions). Please reduce the length of the messages or functions.", type: 'invalid_request_error', param: 'messages', code: 'context_length_exceeded' } },
  modelNotFound: { error: { message: 'The model `gpt-4o-2024-05-13` does not exist or you do not have access to it.', type: 'invalid_request_error', param: null, code: 'model_not_found' } },
  serverError: { error: { message: 'The server had an error processing your request. Sorry about that! You can retry your request, or contact us through our help center at help.openai.com if you keep seeing this error. (Please include the request ID req_540c6eaab7f4556b2baa22bcba915d51 in your email.)', type: 'server_error', param: null, code: null } },
  overloaded503: { error: { message: 'That model is currently overloaded with other requests. You can retry your request, or contact us through our help center at help.openai.com if the error persists. (Please include the request ID 169bee8d in your message.)', type: 'server_error', param: null, code: null } },
  /** Synthetic (status/type/code pairing unverified). */
  slowDown: { error: { message: 'Request rate increased too quickly. To ensure system stability, please adjust your client logic to scale requests more smoothly over time.', type: 'rate_limit_error', param: null, code: 'slow_down' } },
  /** Synthetic. */
  serverIsOverloaded: { error: { message: 'Selected model is at capacity. Please try a different model.', type: 'service_unavailable_error', param: null, code: 'server_is_overloaded' } },
  /** A real 2023 body from an unofficial client: `error` is a string. */
  slowDownString: { error: 'slow down' },
};

/** An OpenAI-compatible credits error (OpenRouter-style): HTTP 429, code `insufficient_credits`. */
export const compatibleInsufficientCredits = { error: { message: 'Insufficient credits. Add more using https://example.com/credits', type: 'insufficient_credits', param: null, code: 'insufficient_credits' } };
/** A compatible server's 429 whose code is null: a plain rate limit. */
export const compatibleRateLimitNullCode = { error: { message: 'Rate limit exceeded', type: 'rate_limit', param: null, code: null } };

// ---- Anthropic ----------------------------------------------------------------------------
export const anthropicSuccessHeaders = {
  'anthropic-ratelimit-input-tokens-limit': '80000',
  'anthropic-ratelimit-input-tokens-remaining': '80000',
  'anthropic-ratelimit-input-tokens-reset': '2025-08-21T12:40:59Z',
  'anthropic-ratelimit-output-tokens-limit': '16000',
  'anthropic-ratelimit-output-tokens-remaining': '16000',
  'anthropic-ratelimit-output-tokens-reset': '2025-08-21T12:41:00Z',
  'anthropic-ratelimit-requests-limit': '1000',
  'anthropic-ratelimit-requests-remaining': '999',
  'anthropic-ratelimit-requests-reset': '2025-08-21T12:40:59Z',
  'anthropic-ratelimit-tokens-limit': '96000',
  'anthropic-ratelimit-tokens-remaining': '96000',
  'anthropic-ratelimit-tokens-reset': '2025-08-21T12:40:59Z',
  'request-id': 'req_011CSLsW7mFqvHHnzrKdKjAE',
  'anthropic-organization-id': '36562039-1ae4-48e6-ae28-1e517e3d2d12',
};

export function anthropicMessage(text = 'I have successfully executed the test_tool.', model = 'claude-opus-4-8') {
  return {
    id: 'msg_01J176zPPSGQBvQpzw2qy5x4', type: 'message', role: 'assistant', model,
    content: [{ type: 'text', text }],
    stop_reason: 'end_turn', stop_sequence: null,
    usage: {
      input_tokens: 505, cache_creation_input_tokens: 0, cache_read_input_tokens: 0,
      cache_creation: { ephemeral_5m_input_tokens: 0, ephemeral_1h_input_tokens: 0 },
      output_tokens: 41, service_tier: 'standard',
    },
  };
}

export const anthropicOk = (text?: string): Reply => ({ status: 200, headers: anthropicSuccessHeaders, body: anthropicMessage(text) });

/** A real 429 header set (2024-03): no `retry-after`. */
export const anthropic429Headers = {
  'anthropic-ratelimit-requests-limit': '5', 'anthropic-ratelimit-requests-remaining': '0',
  'anthropic-ratelimit-requests-reset': '2024-03-26T20:00:00Z', 'anthropic-ratelimit-tokens-limit': '25000',
  'anthropic-ratelimit-tokens-remaining': '16000', 'anthropic-ratelimit-tokens-reset': '2024-03-26T20:00:00Z',
  'request-id': 'req_01T5fCVnYdf9X5ZW6KayReBK', 'x-should-retry': 'true',
};

const anthropicError = (type: string, message: string, requestId: string | null, details?: object) => ({
  type: 'error', error: { type, message, ...(details ? { details } : {}) }, request_id: requestId,
});

export const anthropicBodies = {
  invalidRequest: anthropicError('invalid_request_error', 'messages: roles must alternate between "user" and "assistant"', 'req_011CSHoEeqs5C35K2UUqR7Fy'),
  authentication: anthropicError('authentication_error', 'invalid x-api-key', 'req_011TEST401'),
  permission: anthropicError('permission_error', 'Your API key does not have permission to use the specified resource.', 'req_011TEST403'),
  notFound: anthropicError('not_found_error', 'model: claude-does-not-exist', 'req_011TEST404'),
  tooLarge: anthropicError('request_too_large', 'Request exceeds the maximum allowed number of bytes.', null),
  rateLimit: anthropicError('rate_limit_error', 'This request would exceed the rate limit for your organization (d3f27ff7-9afe-4ee2-9645-76ecfc73c2b7) of 40,000 input tokens per minute. For details, refer to: https://docs.anthropic.com/en/api/rate-limits. You can see the response headers for current usage. Please reduce the prompt length or the maximum tokens requested, or try again later. You may also contact sales at https://www.anthropic.com/contact-sales to discuss your options for a rate limit increase.', 'req_011TEST429'),
  apiError: anthropicError('api_error', 'Internal server error', 'req_011TEST500'),
  overloaded: anthropicError('overloaded_error', 'Overloaded', 'req_011TEST529'),
  creditTooLow: { type: 'error', error: { type: 'invalid_request_error', message: 'Your credit balance is too low to access the Anthropic API. Please go to Plans & Billing to upgrade or purchase credits.' } },
  usageLimits: anthropicError('invalid_request_error', 'You have reached your specified API usage limits. You will regain access on 2026-12-01 at 00:00 UTC.', 'req_011TESTLIM'),
  billing402: anthropicError('billing_error', 'There is an issue with your billing or payment information.', 'req_011TEST402'),
  enforcedSpendLimit: anthropicError('rate_limit_error', 'You have reached your spend limit for this month.', 'req_011TESTSPEND', { error_code: 'enforced_spend_limit_reached' }),
  promptTooLong: anthropicError('invalid_request_error', 'prompt is too long: 210045 tokens > 200000 maximum', 'req_011TESTCTX'),
};
