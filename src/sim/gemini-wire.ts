import type { IncomingHttpHeaders } from 'node:http';
import { approxTokens } from '../../providers/shared/answers/index.js';
import { geminiFamily, parseGeminiRequest } from './gemini-request.js';
import { randomChars } from './random.js';
import type { SimAnswer, SimError, SimRequest } from './sim-request.js';
import { thinkingSignature, thinkingText } from './thinking.js';
import type { StreamChunk, Wire, WireContext, WireError } from './wire.js';

// Bodies follow the Gemini API's recorded answers and errors (providers/gemini/README.md names the
// sources). Gemini sends no request-id or rate-limit headers: its answer carries `responseId`, and
// a 429 its wait in `RetryInfo.retryDelay` and its quota in `QuotaFailure`.
const BASE64URL = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
const HELP = { '@type': 'type.googleapis.com/google.rpc.Help', links: [{ description: 'Learn more about Gemini API quotas', url: 'https://ai.google.dev/gemini-api/docs/rate-limits' }] };
const QUOTA_TEXT = 'You exceeded your current quota, please check your plan and billing details. For more information on this error, head to: https://ai.google.dev/gemini-api/docs/rate-limits. To monitor your current usage, head to: https://ai.dev/rate-limit. ';
const UNAVAILABLE = 'The model is overloaded. Please try again later.';

/** An SSE event as Google's front end frames it: one `data:` line, CRLF line ends. */
const sseFrame = (data: unknown) => `data: ${JSON.stringify(data)}\r\n\r\n`;

const envelope = (code: number, status: string, message: string, details?: unknown[]) => ({ error: { code, message, status, ...(details ? { details } : {}) } });

/** A protobuf Duration in JSON, as RetryInfo sends it: whole seconds with up to nine decimals. */
export function retryDelay(ms: number): string {
  return `${Number((Math.max(0, ms) / 1000).toFixed(9))}s`;
}

function quotaFailure(violations: Array<{ quotaId: string; metric: string; model: string; value?: number }>) {
  return {
    '@type': 'type.googleapis.com/google.rpc.QuotaFailure',
    violations: violations.map((v) => ({
      quotaMetric: `generativelanguage.googleapis.com/${v.metric}`, quotaId: v.quotaId, quotaDimensions: { location: 'global', model: v.model },
      ...(v.value !== undefined ? { quotaValue: String(v.value) } : {}),
    })),
  };
}

function error(err: SimError, _ctx: WireContext): WireError {
  switch (err.kind) {
    case 'server_error':
      return { status: err.status ?? 500, headers: {}, body: envelope(err.status ?? 500, 'INTERNAL', 'An internal error has occurred. Please retry or report in https://developers.generativeai.google/guide/troubleshooting') };
    case 'unavailable':
    case 'overloaded':
      return { status: err.status ?? 503, headers: {}, body: envelope(err.status ?? 503, 'UNAVAILABLE', UNAVAILABLE, err.retryAfterMs !== undefined ? [{ '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: retryDelay(err.retryAfterMs) }] : undefined) };
    case 'insufficient_quota':
      // The day's quota is spent: the per-day violation comes with per-minute ones and a RetryInfo all the same.
      return {
        status: 429, headers: {}, body: envelope(429, 'RESOURCE_EXHAUSTED', QUOTA_TEXT, [HELP, quotaFailure([
          { quotaId: 'GenerateRequestsPerDayPerProjectPerModel-FreeTier', metric: 'generate_content_free_tier_requests', model: 'gemini' },
          { quotaId: 'GenerateRequestsPerMinutePerProjectPerModel-FreeTier', metric: 'generate_content_free_tier_requests', model: 'gemini' },
        ]), { '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: '47s' }]),
      };
    case 'unauthorized':
      return {
        status: 400, headers: {}, body: envelope(400, 'INVALID_ARGUMENT', 'API key not valid. Please pass a valid API key.', [
          { '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason: 'API_KEY_INVALID', domain: 'googleapis.com', metadata: { service: 'generativelanguage.googleapis.com' } },
          { '@type': 'type.googleapis.com/google.rpc.LocalizedMessage', locale: 'en-US', message: 'API key not valid. Please pass a valid API key.' },
        ]),
      };
    case 'missing_key':
      return { status: 403, headers: {}, body: envelope(403, 'PERMISSION_DENIED', "Method doesn't allow unregistered callers (callers without established identity). Please use API Key or other form of API consumer identity to call this API.") };
    case 'rate_limited': {
      const requests = err.window === 'requests';
      const metric = requests ? 'generate_content_free_tier_requests' : 'generate_content_free_tier_input_token_count';
      const quotaId = requests ? 'GenerateRequestsPerMinutePerProjectPerModel-FreeTier' : 'GenerateContentInputTokensPerModelPerMinute-FreeTier';
      const message = `${QUOTA_TEXT}\n* Quota exceeded for metric: generativelanguage.googleapis.com/${metric}, limit: ${err.limit}, model: ${err.model}\nPlease retry in ${retryDelay(err.waitMs)}.`;
      const details: unknown[] = [HELP, quotaFailure([{ quotaId, metric, model: err.model, value: err.limit }])];
      if (!err.tooLarge) details.push({ '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: retryDelay(err.waitMs) });
      return { status: 429, headers: {}, body: envelope(429, 'RESOURCE_EXHAUSTED', message, details) };
    }
    case 'invalid_request':
      return { status: 400, headers: {}, body: envelope(400, 'INVALID_ARGUMENT', err.message) };
    case 'context_length':
      return { status: 400, headers: {}, body: envelope(400, 'INVALID_ARGUMENT', `The input token count (${err.tokens}) exceeds the maximum number of tokens allowed (${err.limit}).`) };
    case 'model_not_found':
      return { status: 404, headers: {}, body: envelope(404, 'NOT_FOUND', `models/${err.model} is not found for API version v1beta, or is not supported for generateContent. Call ListModels to see the list of available models and their supported methods.`) };
    case 'invalid_url':
      return { status: 404, headers: {}, body: envelope(404, 'NOT_FOUND', `The requested URL ${err.path} was not found on this server.`) };
    case 'too_large':
      return { status: 400, headers: {}, body: envelope(400, 'INVALID_ARGUMENT', 'Request payload size exceeds the limit: 20971520 bytes.') };
  }
}

function usage(answer: SimAnswer, outputTokens = answer.outputTokens) {
  const thoughts = Math.min(answer.reasoningTokens, outputTokens);
  const candidates = outputTokens - thoughts;
  return {
    promptTokenCount: answer.inputTokens,
    candidatesTokenCount: candidates,
    totalTokenCount: answer.inputTokens + outputTokens,
    ...(answer.cachedInputTokens ? { cachedContentTokenCount: answer.cachedInputTokens } : {}),
    promptTokensDetails: [{ modality: 'TEXT', tokenCount: answer.inputTokens }],
    ...(thoughts ? { thoughtsTokenCount: thoughts } : {}),
  };
}

/** Thinking models return a signature on the first function call of an answer when the request declared tools. */
function signatureOf(request: SimRequest): string | undefined {
  return request.reasoning && request.tools?.length && geminiFamily(request.model).thinks ? thinkingSignature(thinkingText(request.messages), 'gemini') : undefined;
}

function callPart(call: SimAnswer['toolCalls'][number], signature: string | undefined) {
  return { functionCall: { name: call.name, args: call.arguments }, ...(signature ? { thoughtSignature: signature } : {}) };
}

function finishOf(answer: SimAnswer): { finishReason: string; finishMessage?: string } {
  if (answer.finish === 'length') return { finishReason: 'MAX_TOKENS' };
  return answer.toolCalls.length ? { finishReason: 'STOP', finishMessage: 'Model generated function call(s).' } : { finishReason: 'STOP' };
}

/** The Gemini API: `x-goog-api-key`, `models/{model}:generateContent` and `:streamGenerateContent?alt=sse`. */
export const geminiWire: Wire = {
  type: 'gemini',
  // None: Gemini's answers name themselves in the body's `responseId`.
  requestIdHeader: '',
  keyOf(headers: IncomingHttpHeaders) {
    const key = headers['x-goog-api-key'];
    if (typeof key === 'string' && key) return key;
    const auth = headers.authorization;
    return auth?.startsWith('Bearer ') && auth.length > 7 ? auth.slice(7) : undefined;
  },
  parse: (raw, _headers, route) => parseGeminiRequest(raw, route ?? { model: '', stream: false }),
  textBeforeToolCalls: () => false,
  headers(ctx) {
    return { 'server-timing': `gfet4t7; dur=${Math.max(1, Math.round(ctx.processingMs ?? 1))}`, vary: 'Origin, X-Origin, Referer' };
  },
  error,
  completion(request, answer, ids) {
    const signature = signatureOf(request);
    const parts: unknown[] = [];
    if (answer.text || !answer.toolCalls.length) parts.push({ text: answer.text });
    // A JSON body can only carry whole calls: one cut short by maxOutputTokens is not sent.
    answer.toolCalls.filter((c) => c.complete).forEach((call, i) => parts.push(callPart(call, i === 0 ? signature : undefined)));
    return {
      candidates: [{ content: { parts, role: 'model' }, ...finishOf(answer), index: 0 }],
      usageMetadata: usage(answer),
      modelVersion: request.model,
      responseId: ids.id,
    };
  },
  stream(request, answer, ids) {
    const signature = signatureOf(request);
    let spent = Math.min(answer.reasoningTokens, answer.outputTokens);
    const frame = (parts: unknown[], extra: object = {}, outputTokens = spent) => sseFrame({
      candidates: [{ content: { parts, role: 'model' }, ...extra, index: 0 }],
      usageMetadata: usage(answer, outputTokens),
      modelVersion: request.model,
      responseId: ids.id,
    });
    const chunks: StreamChunk[] = answer.chunks.map((c) => {
      if (c.type === 'text') {
        spent += approxTokens(c.text);
        return { data: frame([{ text: c.text }]), tokens: approxTokens(c.text) };
      }
      // A function call arrives whole, in the chunk of its start; its argument fragments send nothing.
      if (c.type === 'tool_start') {
        if (!c.call.complete) return { data: '', tokens: 1 };
        spent += approxTokens(c.call.argumentsJson);
        return { data: frame([callPart(c.call, c.index === 0 ? signature : undefined)]), tokens: approxTokens(c.call.argumentsJson) };
      }
      return { data: '', tokens: 0 };
    });
    return {
      head: [],
      chunks,
      tail: [frame([{ text: '' }], finishOf(answer), answer.outputTokens)],
      error: sseFrame(envelope(503, 'UNAVAILABLE', UNAVAILABLE)),
    };
  },
  ids(random) {
    const id = randomChars(random, 23, BASE64URL);
    return { requestId: id, answerId: id };
  },
};
