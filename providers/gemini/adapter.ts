import type { AdapterContext, ProviderAdapter, ProviderCallOptions, ProviderRequest, ProviderResponse, ProviderStreamEvent } from '../types.js';
import { geminiClient } from './client.js';
import { embedGemini, GEMINI_MAX_EMBEDDING_INPUTS } from './embed.js';
import { geminiBody } from './request-body.js';
import { geminiAnswer } from './response.js';
import { streamGemini } from './stream.js';
import { geminiModelTraits } from './model-traits.js';
import { geminiThinkingTraits } from './thinking.js';
import { geminiUsage } from './usage.js';
import type { GeminiResponse } from './wire-types.js';

export { geminiBody } from './request-body.js';
export { GEMINI_MAX_EMBEDDING_INPUTS } from './embed.js';

/**
 * The `gemini` adapter: the Gemini API (`generateContent`, `streamGenerateContent?alt=sse`,
 * `batchEmbedContents`) over plain HTTP on the router's transport, the key in `x-goog-api-key`. It
 * never retries and never decides; every failure leaves as a `RouterError` with facts (README.md
 * beside it says why no SDK, and what the wire looks like).
 * @example const adapter = geminiAdapter({ provider, clock, logger, redact });
 */
export function geminiAdapter(ctx: AdapterContext): ProviderAdapter {
  const { provider, clock } = ctx;
  const client = geminiClient(ctx);

  return {
    name: provider.name,
    type: provider.type,
    // Our own timer covers a plain answer whole, body included, on either transport.
    traits: { tokenCounting: 'heuristic', maxEmbeddingInputs: GEMINI_MAX_EMBEDDING_INPUTS, timeoutCoversBody: true },
    thinkingTraits: (model) => geminiThinkingTraits(model, geminiModelTraits(model)),
    async chat(request: ProviderRequest, options: ProviderCallOptions): Promise<ProviderResponse> {
      const where = { provider: provider.name, model: request.model };
      const { data } = await client.json<GeminiResponse>(request.model, 'generateContent', geminiBody(request, provider.name), options);
      return Object.assign({}, geminiAnswer(data, where), { usage: geminiUsage(data.usageMetadata), model: data.modelVersion ?? request.model }, (data.responseId ? { requestId: data.responseId } : {}));
    },
    stream(request: ProviderRequest, options: ProviderCallOptions): AsyncIterable<ProviderStreamEvent> {
      const where = { provider: provider.name, model: request.model };
      return streamGemini({ client, where, now: () => clock.now() }, request, options);
    },
    embed(request, options) {
      return embedGemini(client, { provider: provider.name, model: request.model }, request, options);
    },
    async close() {
      client.close();
    },
  };
}
