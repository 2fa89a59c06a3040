import { malformedResponse } from '../shared/transport-error.js';
import type { ProviderCallOptions, ProviderEmbedRequest, ProviderEmbedResponse } from '../types.js';
import type { GeminiClient } from './client.js';
import { modelPath } from './client.js';

/** Most requests one `batchEmbedContents` takes ("at most 100 requests can be in one batch"). */
export const GEMINI_MAX_EMBEDDING_INPUTS = 100;

interface BatchEmbedResponse {
  embeddings?: Array<{ values?: unknown }>;
}

/** The Gemini API reports no token count for embeddings: 4 characters a token, at least one an input, as the router's own estimate counts. */
function estimatedTokens(input: readonly string[]): number {
  return input.reduce((sum, text) => sum + Math.max(1, Math.ceil(text.length / 4)), 0);
}

/**
 * One `batchEmbedContents` request: one `EmbedContentRequest` per input (each naming the model, as
 * the API requires), `outputDimensionality` for `dimensions`. Vectors come back in request order.
 * An answer without exactly one vector of numbers per input, of one length (the `dimensions` asked
 * for, when given), is malformed (`transport`). Usage is an estimate: the API reports none.
 */
export async function embedGemini(client: GeminiClient, where: { provider: string; model: string }, request: ProviderEmbedRequest, options: ProviderCallOptions): Promise<ProviderEmbedResponse> {
  const model = decodeURIComponent(modelPath(request.model));
  const body = {
    requests: request.input.map((text) => ({
      model,
      content: { parts: [{ text }] },
      ...(request.dimensions !== undefined ? { outputDimensionality: request.dimensions } : {}),
    })),
  };
  const { data } = await client.json<BatchEmbedResponse>(request.model, 'batchEmbedContents', body, options);
  if (!data || !Array.isArray(data.embeddings)) throw malformedResponse(where, 'no embeddings array');
  if (data.embeddings.length !== request.input.length) throw malformedResponse(where, `${data.embeddings.length} vectors for ${request.input.length} inputs`);
  const embeddings = data.embeddings.map((e, i) => {
    const values = e?.values;
    if (!Array.isArray(values) || values.length === 0 || !values.every((x) => typeof x === 'number' && Number.isFinite(x))) throw malformedResponse(where, `vector ${i} is not a list of numbers`);
    return values as number[];
  });
  const length = request.dimensions ?? embeddings[0]!.length;
  embeddings.forEach((vector, i) => {
    if (vector.length !== length) throw malformedResponse(where, `vector ${i} has ${vector.length} dimensions, expected ${length}${request.dimensions === undefined ? ' like vector 0' : ' as requested'}`);
  });
  return { embeddings, usage: { inputTokens: estimatedTokens(request.input) }, model: request.model };
}
