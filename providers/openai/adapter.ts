import type { HeaderBag } from '../shared/headers.js';
import { readRateLimits } from '../shared/rate-limit-snapshot.js';
import { providerTransport } from '../shared/http-fetch.js';
import { announcingSends } from '../shared/send-hook.js';
import type { AdapterContext, ProviderAdapter, ProviderCallOptions, ProviderRequest, ProviderResponse, ProviderStreamEvent, RawTarget } from '../types.js';
import type { OpenAIApi } from './api.js';
import { chatCompletionsApi } from './chat-completions.js';
import { isAzure, openAIClient } from './client.js';
import { embedOpenAI } from './embed.js';
import { mapOpenAIError } from './map-error.js';
import { aliasedHeaders } from '../shared/presets/dialect.js';
import { presetDialect } from '../shared/presets/dialects.js';
import { withErrorEnvelope } from '../shared/presets/error-envelope.js';
import { isReasoningModel, openAIThinkingTraits } from './parameters.js';
import { rawEndpoint } from './raw-chat.js';
import { responsesApi } from './responses/api.js';
import { sentResponsesSchema } from './responses/body.js';
import { endpointWire } from './wire.js';

export { openAIBody } from './adapter-body.js';

/** Most inputs one OpenAI embeddings request takes. */
export const OPENAI_MAX_EMBEDDING_INPUTS = 2048;
/** Most tokens one OpenAI embeddings request takes, summed over its inputs (wire formats §7.1). */
export const OPENAI_MAX_EMBEDDING_TOKENS = 300_000;

/**
 * The `openai` and `openai-compatible` adapter (Azure OpenAI too, with `azure: true`): Chat
 * Completions (or, with `api: 'responses'`, the Responses API) and embeddings through the official
 * SDK with its retries off (`maxRetries: 0`); Switchyard owns the one retry loop. Everything a
 * request could ask of the set-up is settled here, once: which API (`OpenAIApi`), and for
 * pass-through which wire its bytes go on (`Wire`: the `node:http` transport or the SDK's fetch).
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
  const map = (model: string) => (err: unknown) => mapOpenAIError(err, { provider: provider.name, model, nowMs: clock.now(), redact, dialect });
  const now = () => clock.now();
  const onResponses = provider.type === 'openai' && provider.api === 'responses';
  // Pass-through where nothing about the provider maps a body: not Azure's deployments, not a preset's dialect.
  const passes = !isAzure(provider) && !dialect;
  const wireTo = (path: string) => endpointWire(rawEndpoint(provider, path), fetch, transport, compatible);
  let api: OpenAIApi;
  if (onResponses) {
    api = responsesApi({
      client, map,
      where: (model) => ({ provider: provider.name, model }),
      rateLimits: (headers) => readRateLimits(headers, clock.now(), 'openai'),
      ...(passes ? { wire: wireTo('responses') } : {}),
    });
  } else {
    api = chatCompletionsApi({
      client, compatible, provider: provider.name, map, now,
      headers: (headers: HeaderBag) => aliasedHeaders(headers, dialect?.headerAliases),
      ...(passes ? { wire: wireTo('chat/completions') } : {}),
    });
  }
  const dialectName = compatible ? 'openai-compatible' as const : 'openai' as const;
  const chatTarget = (model: string): RawTarget => ({ api: 'chat', dialect: dialectName, reasoning: isReasoningModel(model) });
  const responsesTarget = (model: string): RawTarget => ({ api: 'responses', reasoning: isReasoningModel(model), sentSchema: sentResponsesSchema });
  // Embeddings pass through beside Chat Completions (a Responses provider's embeddings are translated, as before).
  const embedWire = passes && !onResponses ? wireTo('embeddings') : undefined;

  return {
    name: provider.name,
    type: provider.type,
    traits: { tokenCounting: 'characters', maxEmbeddingInputs: OPENAI_MAX_EMBEDDING_INPUTS, maxEmbeddingTokens: OPENAI_MAX_EMBEDDING_TOKENS, timeoutCoversBody: transport !== undefined },
    // openai-compatible servers' models are not known: their max_tokens goes as asked.
    thinkingTraits: (model: string) => (compatible ? undefined : openAIThinkingTraits(model)),
    ...(embedWire ? { rawEmbeddings: true } : {}),
    ...(passes ? { rawTarget: onResponses ? responsesTarget : chatTarget } : {}),
    chat(request: ProviderRequest, options: ProviderCallOptions): Promise<ProviderResponse> {
      return api.chat(request, options);
    },
    stream(request: ProviderRequest, options: ProviderCallOptions): AsyncIterable<ProviderStreamEvent> {
      return api.stream(request, options);
    },
    embed(request, options) {
      const where = { provider: provider.name, model: request.model };
      return embedOpenAI({ client, compatible, where, now, map: map(request.model), wire: embedWire }, request, options);
    },
    async close() {
      // The pooled sockets are the adapter's own: none is left open after the router closes.
      transport?.close();
    },
  };
}
