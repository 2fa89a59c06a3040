import type OpenAI from 'openai';
import { readRateLimits } from '../../src/decide/rate-limit-snapshot.js';
import type { RouterError } from '../../src/errors.js';
import { sdkRequestOptions } from '../shared/request-options.js';
import { malformedResponse } from '../shared/transport-error.js';
import type { ProviderCallOptions, ProviderEmbedRequest, ProviderEmbedResponse } from '../types.js';

export interface OpenAIEmbedContext {
  client: OpenAI;
  compatible: boolean;
  map: (err: unknown) => RouterError;
  now: () => number;
  where: { provider: string; model: string };
}

/**
 * One embeddings request through `client.embeddings.create`. The SDK asks for base64 and decodes it
 * (little-endian float32) itself; vectors are put back in input order by `data[i].index`, and an
 * answer without exactly one vector per input is malformed.
 */
export async function embedOpenAI(ctx: OpenAIEmbedContext, request: ProviderEmbedRequest, options: ProviderCallOptions): Promise<ProviderEmbedResponse> {
  const body: OpenAI.EmbeddingCreateParams = { model: request.model, input: request.input };
  if (request.dimensions !== undefined) body.dimensions = request.dimensions;
  let data: OpenAI.CreateEmbeddingResponse;
  let response: Response;
  try {
    ({ data, response } = await ctx.client.embeddings.create(body, sdkRequestOptions(options)).withResponse());
  } catch (err) {
    throw ctx.map(err);
  }
  if (!data || !Array.isArray(data.data)) throw malformedResponse(ctx.where, 'no data array');
  const embeddings: number[][] = new Array(request.input.length);
  data.data.forEach((item, position) => {
    const at = typeof item.index === 'number' ? item.index : position;
    if (at >= 0 && at < embeddings.length && Array.isArray(item.embedding)) embeddings[at] = item.embedding;
  });
  for (let i = 0; i < embeddings.length; i++) {
    if (!embeddings[i]) throw malformedResponse(ctx.where, `no vector for input ${i} of ${request.input.length}`);
  }
  return {
    embeddings,
    usage: { inputTokens: data.usage?.prompt_tokens ?? 0 },
    model: data.model ?? request.model,
    requestId: response.headers.get('x-request-id') ?? undefined,
    rateLimit: readRateLimits(response.headers, ctx.now(), ctx.compatible ? 'any' : 'openai'),
  };
}
