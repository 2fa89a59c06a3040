/**
 * Gemini API wire fixtures (generativelanguage v1beta), in the real format. Sources are in
 * providers/gemini/README.md; bodies marked synthetic follow the documented shape with made-up text.
 */

/** The path a model's method lives at, under a base URL ending in `/v1beta`. */
export const geminiPath = (model: string, method: 'generateContent' | 'streamGenerateContent' | 'batchEmbedContents') => `/v1beta/models/${model}:${method}`;

export interface GeminiUsageFixture {
  promptTokenCount: number;
  candidatesTokenCount: number;
  thoughtsTokenCount?: number;
  cachedContentTokenCount?: number;
}

function usageMetadata(u: GeminiUsageFixture) {
  return {
    promptTokenCount: u.promptTokenCount,
    candidatesTokenCount: u.candidatesTokenCount,
    totalTokenCount: u.promptTokenCount + u.candidatesTokenCount + (u.thoughtsTokenCount ?? 0),
    ...(u.cachedContentTokenCount !== undefined ? { cachedContentTokenCount: u.cachedContentTokenCount } : {}),
    promptTokensDetails: [{ modality: 'TEXT', tokenCount: u.promptTokenCount }],
    ...(u.thoughtsTokenCount !== undefined ? { thoughtsTokenCount: u.thoughtsTokenCount } : {}),
  };
}

/** A `generateContent` answer shaped like the recorded gemini-2.5-flash ones (louter test-data/gemini). */
export function geminiResponse(parts: unknown[], options: { finishReason?: string; finishMessage?: string; usage?: GeminiUsageFixture; responseId?: string; model?: string } = {}) {
  return {
    candidates: [{
      content: { parts, role: 'model' },
      finishReason: options.finishReason ?? 'STOP',
      index: 0,
      ...(options.finishMessage ? { finishMessage: options.finishMessage } : {}),
    }],
    usageMetadata: usageMetadata(options.usage ?? { promptTokenCount: 4, candidatesTokenCount: 9, thoughtsTokenCount: 21 }),
    modelVersion: options.model ?? 'gemini-2.5-flash',
    responseId: options.responseId ?? 'IZI2acSKMoWl0-kPmYj2yQc',
  };
}

export const geminiText = (text: string, options: Parameters<typeof geminiResponse>[1] = {}) => geminiResponse([{ text }], options);

/** One SSE chunk as the API frames it: `data: ` and a whole `GenerateContentResponse` (the blank line is the upstream's). */
export function geminiChunk(parts: unknown[], options: { finishReason?: string; usage?: GeminiUsageFixture; responseId?: string } = {}): string {
  return `data: ${JSON.stringify({
    candidates: [{ content: { parts, role: 'model' }, ...(options.finishReason ? { finishReason: options.finishReason } : {}), index: 0 }],
    usageMetadata: usageMetadata(options.usage ?? { promptTokenCount: 4, candidatesTokenCount: 3, thoughtsTokenCount: 21 }),
    modelVersion: 'gemini-2.5-flash',
    responseId: options.responseId ?? 'qpc2afWVFJK4vr0Pq6WiyAU',
  })}`;
}

/** A text stream: one chunk a piece, the last with `finishReason: STOP` (as the recorded stream ends). */
export function geminiSse(texts: string[], usage: GeminiUsageFixture = { promptTokenCount: 4, candidatesTokenCount: 7, thoughtsTokenCount: 21 }): string[] {
  return texts.map((text, i) => geminiChunk([{ text }], i === texts.length - 1 ? { finishReason: 'STOP', usage } : {}));
}

/** The recorded streamed function call of gemini-2.5-flash: one part, whole arguments, a thought signature, `STOP`. */
export const geminiRecordedCallChunk = geminiChunk(
  [{ functionCall: { name: 'getWeather', args: { location: 'Tokyo' } }, thoughtSignature: 'CikBcsjafFK168IbtVtoxVV0Tsn8O+eU45rzJahzwuKGmMbdMdfpmNpgBwplAXLI2nyA/pIFcnZw' }],
  { finishReason: 'STOP', usage: { promptTokenCount: 83, candidatesTokenCount: 14, thoughtsTokenCount: 104 } },
);

const help = { '@type': 'type.googleapis.com/google.rpc.Help', links: [{ description: 'Learn more about Gemini API quotas', url: 'https://ai.google.dev/gemini-api/docs/rate-limits' }] };
const violation = (quotaId: string, metric = 'generativelanguage.googleapis.com/generate_content_free_tier_requests') => ({
  quotaMetric: metric, quotaId, quotaDimensions: { location: 'global', model: 'gemini-2.0-flash' },
});
const retryInfo = (delay: string) => ({ '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: delay });
const PER_DAY_REQUESTS = violation('GenerateRequestsPerDayPerProjectPerModel-FreeTier');
const PER_MINUTE_REQUESTS = violation('GenerateRequestsPerMinutePerProjectPerModel-FreeTier');
const PER_MINUTE_INPUT_TOKENS = violation('GenerateContentInputTokensPerModelPerMinute-FreeTier', 'generativelanguage.googleapis.com/generate_content_free_tier_input_token_count');
/** A 429 for a spent day, its QuotaFailure listing `violations` in the order given. */
const dayQuotaSpent = (violations: ReadonlyArray<ReturnType<typeof violation>>) => ({
  error: {
    code: 429,
    message: 'You exceeded your current quota, please check your plan and billing details. For more information on this error, head to: https://ai.google.dev/gemini-api/docs/rate-limits.',
    status: 'RESOURCE_EXHAUSTED',
    details: [help, { '@type': 'type.googleapis.com/google.rpc.QuotaFailure', violations: [...violations] }, retryInfo('47s')],
  },
});

export const geminiBodies = {
  /** A per-minute 429 (continuedev/continue#10066 shape): Help, QuotaFailure, RetryInfo. */
  rateLimit: (delay = '13s') => ({
    error: {
      code: 429,
      message: `You exceeded your current quota, please check your plan and billing details. For more information on this error, head to: https://ai.google.dev/gemini-api/docs/rate-limits. To monitor your current usage, head to: https://ai.dev/rate-limit. \n* Quota exceeded for metric: generativelanguage.googleapis.com/generate_content_free_tier_requests, limit: 10, model: gemini-2.0-flash\nPlease retry in ${delay}.`,
      status: 'RESOURCE_EXHAUSTED',
      details: [help, { '@type': 'type.googleapis.com/google.rpc.QuotaFailure', violations: [violation('GenerateRequestsPerMinutePerProjectPerModel-FreeTier')] }, retryInfo(delay)],
    },
  }),
  /** The day's quota spent (googleapis/python-genai#2044): a per-day violation among per-minute ones, and a RetryInfo all the same. */
  perDayQuota: dayQuotaSpent([PER_DAY_REQUESTS, PER_MINUTE_REQUESTS, PER_MINUTE_INPUT_TOKENS]),
  /**
   * The same spent day with the per-day violation last, after the per-minute ones: Google gives the
   * violations in no promised order, so a mapping that reads only the first would call this a
   * per-minute rate limit and retry into a quota that is gone until tomorrow.
   */
  perDayQuotaLast: dayQuotaSpent([PER_MINUTE_REQUESTS, PER_MINUTE_INPUT_TOKENS, PER_DAY_REQUESTS]),
  /** The older bare 429 (google-gemini/gemini-cli#2020): no details, no hint. */
  exhausted: { error: { code: 429, message: 'Resource has been exhausted (e.g. check quota).', status: 'RESOURCE_EXHAUSTED' } },
  /** A wrong key is a 400 on this API (the troubleshooting page's example envelope). */
  invalidKey: {
    error: {
      code: 400, message: 'API key not valid. Please pass a valid API key.', status: 'INVALID_ARGUMENT',
      details: [
        { '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason: 'API_KEY_INVALID', domain: 'googleapis.com', metadata: { service: 'generativelanguage.googleapis.com' } },
        { '@type': 'type.googleapis.com/google.rpc.LocalizedMessage', locale: 'en-US', message: 'API key not valid. Please pass a valid API key.' },
      ],
    },
  },
  /** No key at all (PublicAffairs/openai-gemini#92). */
  unregistered: { error: { code: 403, message: "Method doesn't allow unregistered callers (callers without established identity). Please use API Key or other form of API consumer identity to call this API.", status: 'PERMISSION_DENIED' } },
  /** google-gemini/gemini-cli#4118. */
  contextLength: { error: { code: 400, message: 'The input token count (132478) exceeds the maximum number of tokens allowed (131072).', status: 'INVALID_ARGUMENT' } },
  /** Synthetic text, the documented shape: a malformed request. */
  badRequest: { error: { code: 400, message: 'Invalid JSON payload received. Unknown name "foo": Cannot find field.', status: 'INVALID_ARGUMENT' } },
  /** poenl/gemini-api#4. */
  location: { error: { code: 400, message: 'User location is not supported for the API use.', status: 'FAILED_PRECONDITION' } },
  /** The troubleshooting page's FAILED_PRECONDITION (its wording, synthetic body). */
  billing: { error: { code: 400, message: 'Gemini API free tier is not available in your country. Please enable billing on your project in Google AI Studio.', status: 'FAILED_PRECONDITION' } },
  /** Synthetic text in the NOT_FOUND shape the API documents. */
  notFound: (model: string) => ({ error: { code: 404, message: `models/${model} is not found for API version v1beta, or is not supported for generateContent. Call ListModels to see the list of available models and their supported methods.`, status: 'NOT_FOUND' } }),
  /** PublicAffairs/openai-gemini#15. */
  internal: { error: { code: 500, message: 'An internal error has occurred. Please retry or report in https://developers.generativeai.google/guide/troubleshooting', status: 'INTERNAL' } },
  /** google-gemini/gemini-cli#4360. */
  overloaded: { error: { code: 503, message: 'The model is overloaded. Please try again later.', status: 'UNAVAILABLE' } },
  /** Synthetic text (Google's canonical DEADLINE_EXCEEDED wording); letta-ai/letta#2861 reports the status. */
  deadline: { error: { code: 504, message: 'Deadline expired before operation could complete.', status: 'DEADLINE_EXCEEDED' } },
};

/** `batchEmbedContents`' answer: one `{values}` per request, in order. */
export const geminiEmbeddings = (vectors: number[][]) => ({ embeddings: vectors.map((values) => ({ values })) });
