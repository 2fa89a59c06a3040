import type OpenAI from 'openai';
import type { HeaderBag } from '../shared/headers.js';
import { readRateLimits } from '../shared/rate-limit-snapshot.js';
import { providerTransport } from '../shared/http-fetch.js';
import { sdkRequestOptions } from '../shared/request-options.js';
import { announcingSends } from '../shared/send-hook.js';
import type { AdapterContext, ProviderAdapter, ProviderCallOptions, ProviderRequest, ProviderResponse, ProviderStreamEvent } from '../types.js';
import { openAIBody } from './adapter-body.js';
import { isAzure, openAIClient } from './client.js';
import { embedOpenAI } from './embed.js';
import { mapOpenAIError } from './map-error.js';
import { openAIAnswer } from './response.js';
import { streamOpenAI } from './stream.js';
import { openAIUsage } from './usage.js';
import { aliasedHeaders } from '../shared/presets/dialect.js';
import { presetDialect } from '../shared/presets/dialects.js';
import { withErrorEnvelope } from '../shared/presets/error-envelope.js';
import { embeddedError } from './embedded-error.js';
import { isReasoningModel } from './parameters.js';
import { rawEndpoint, sendRaw } from './raw-chat.js';
import { streamRaw } from './raw-stream.js';
import { plainEndpoint, postRaw } from './raw-post.js';
import { chatResponses } from './responses/chat.js';
import { sentResponsesSchema } from './responses/body.js';
import type { ResponsesContext } from './responses/context.js';
import { chatResponsesRaw, streamResponsesRaw } from './responses/raw.js';
import { streamResponses } from './responses/stream.js';

export { openAIBody } from './adapter-body.js';

/** Most inputs one OpenAI embeddings request takes. */
export const OPENAI_MAX_EMBEDDING_INPUTS = 2048;
/** Most tokens one OpenAI embeddings request takes, summed over its inputs (wire formats §7.1). */
export const OPENAI_MAX_EMBEDDING_TOKENS = 300_000;

/**
 * The `openai` and `openai-compatible` adapter (Azure OpenAI too, with `azure: true`): Chat
 * Completions (or, with `api: 'responses'`, the Responses API) and embeddings through the official
 * SDK with its retries off (`maxRetries: 0`); Switchyard owns the one retry loop.
 * @example const adapter = openAIAdapter({ provider, clock, logger, redact });
 */
export function openAIAdapter(ctx: AdapterContext): ProviderAdapter {
  const { provider, clock, redact } = ctx;
  const compatible = provider.type === 'openai-compatible';
  const transport = providerTransport(provider);
  const dialect = provider.type === 'openai-compatible' && provider.preset ? presetDialect(provider.preset) : undefined;
  // Compatible servers' own error bodies are rewritten into OpenAI's envelope before the SDK reads them.
  const base = transport?.fetch ?? ((input, init) => globalThis.fetch(input, init));
  const fetch = compatible ? withErrorEnvelope(base) : base;
  // Every request tells the router when its bytes go (onSend): after the SDK serialised its body.
  const client = announcingSends(openAIClient(provider, ctx.logger, fetch));
  const mapper = (model: string) => (err: unknown) => mapOpenAIError(err, { provider: provider.name, model, nowMs: clock.now(), redact, dialect });
  const headersOf = (headers: HeaderBag) => aliasedHeaders(headers, dialect?.headerAliases);
  const onResponses = provider.type === 'openai' && provider.api === 'responses';
  // Pass-through on the Responses API too: the client's Responses bodies to `/responses` as they are (not Azure's deployments).
  const rawResponses = onResponses && !isAzure(provider) ? rawEndpoint(provider, 'responses') : undefined;
  const responses: ResponsesContext | undefined = onResponses ? {
    client,
    where: (model) => ({ provider: provider.name, model }),
    map: mapper,
    rateLimits: (headers) => readRateLimits(headers, clock.now(), 'openai'),
    ...(rawResponses ? { raw: { fetch, endpoint: rawResponses, ...(transport ? { plain: { transport, endpoint: plainEndpoint(rawResponses) } } : {}) } } : {}),
  } : undefined;
  // Pass-through: Chat Completions bodies sent as they are, where nothing about the provider maps them.
  const raw = !responses && !dialect && !isAzure(provider) ? rawEndpoint(provider) : undefined;
  const rawEmbed = raw ? { fetch, endpoint: rawEndpoint(provider, 'embeddings') } : undefined;
  // On our transport a plain pass-through answer skips fetch's Web objects (`postRaw`).
  const plain = raw && transport ? plainEndpoint(raw) : undefined;

  return {
    name: provider.name,
    type: provider.type,
    traits: { tokenCounting: 'characters', maxEmbeddingInputs: OPENAI_MAX_EMBEDDING_INPUTS, maxEmbeddingTokens: OPENAI_MAX_EMBEDDING_TOKENS, timeoutCoversBody: transport !== undefined },
    ...(rawEmbed ? { rawEmbeddings: true } : {}),
    ...(raw ? { rawTarget: (model: string) => ({ dialect: compatible ? 'openai-compatible' as const : 'openai' as const, reasoning: isReasoningModel(model) }) } : {}),
    ...(responses?.raw ? { rawResponsesTarget: (model: string) => ({ reasoning: isReasoningModel(model), sentSchema: sentResponsesSchema }) } : {}),
    async chat(request: ProviderRequest, options: ProviderCallOptions): Promise<ProviderResponse> {
      if (responses) return responses.raw && request.raw !== undefined ? chatResponsesRaw(responses, responses.raw, request, options) : chatResponses(responses, request, options);
      const where = { provider: provider.name, model: request.model };
      let data: OpenAI.ChatCompletion;
      let response: { headers: HeaderBag };
      let body: string | undefined;
      // The headers an embedded error carries: a web Headers already there, or the plain answer that builds one on demand (no closure per call).
      let webHeaders: Headers | { webHeaders(): Headers };
      try {
        if (plain && request.raw !== undefined) {
          const answer = await postRaw(transport!, plain, request.raw, options, compatible);
          body = answer.text;
          data = JSON.parse(body) as OpenAI.ChatCompletion;
          response = answer;
          webHeaders = answer;
        } else if (raw && request.raw !== undefined) {
          const web = await sendRaw(fetch, raw, request.raw, options, false);
          body = await web.text();
          data = JSON.parse(body) as OpenAI.ChatCompletion;
          response = web;
          webHeaders = web.headers;
        } else {
          const sdkBody = openAIBody(request, compatible, provider.name);
          const sdk = await client.chat.completions.create(sdkBody, sdkRequestOptions(options, sdkBody)).withResponse();
          data = sdk.data;
          response = sdk.response;
          webHeaders = sdk.response.headers;
        }
      } catch (err) {
        throw mapper(request.model)(err);
      }
      const failed = embeddedError(data, webHeaders);
      if (failed) throw mapper(request.model)(failed);
      const { text, toolCalls, finishReason } = openAIAnswer(data, where);
      const answer: ProviderResponse = {
        text, toolCalls, finishReason,
        usage: openAIUsage(data.usage),
        model: data.model ?? request.model,
        requestId: response.headers.get('x-request-id') ?? undefined,
        rateLimit: readRateLimits(headersOf(response.headers), clock.now(), compatible ? 'any' : 'openai'),
      };
      if (body !== undefined) answer.raw = body;
      return answer;
    },
    stream(request: ProviderRequest, options: ProviderCallOptions): AsyncIterable<ProviderStreamEvent> {
      if (responses) return responses.raw && request.raw !== undefined ? streamResponsesRaw(responses, responses.raw, request, options) : streamResponses(responses, request, options);
      const where = { provider: provider.name, model: request.model };
      if (raw && request.raw !== undefined) return streamRaw({ fetch, endpoint: raw, compatible, where, now: () => clock.now(), map: mapper(request.model), headers: headersOf }, request, options);
      return streamOpenAI({ client, compatible, where, now: () => clock.now(), map: mapper(request.model), headers: headersOf }, request, options);
    },
    embed(request, options) {
      const where = { provider: provider.name, model: request.model };
      return embedOpenAI({ client, compatible, where, now: () => clock.now(), map: mapper(request.model), raw: rawEmbed }, request, options);
    },
    async close() {
      // The pooled sockets are the adapter's own: none is left open after the router closes.
      transport?.close();
    },
  };
}
