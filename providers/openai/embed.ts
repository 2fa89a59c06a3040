import type OpenAI from 'openai';
import { readRateLimits } from '../shared/rate-limit-snapshot.js';
import type { RouterError } from '../../src/errors.js';
import { sdkRequestOptions } from '../shared/request-options.js';
import { malformedResponse } from '../shared/transport-error.js';
import type { ProviderCallOptions, ProviderEmbedRequest, ProviderEmbedResponse } from '../types.js';
import type { HeaderBag } from '../shared/headers.js';
import { embeddingVector } from './embedding-vector.js';
import type { Wire } from './wire.js';

export interface OpenAIEmbedContext {
  client: OpenAI;
  /** Pass-through: the wire to `/embeddings` a `raw` body goes on. */
  wire?: Wire;
  compatible: boolean;
  map: (err: unknown) => RouterError;
  now: () => number;
  where: { provider: string; model: string };
}

/**
 * One embeddings request through `client.embeddings.create`. `encoding_format: "base64"` is sent
 * explicitly, so the SDK hands back the raw answer instead of decoding it blindly: left to itself it
 * base64-decodes whatever comes back, and a server that ignores the format and sends floats (Ollama,
 * LiteLLM, §7.1) turns into short garbage vectors with no error. Each vector is decoded here by its
 * own shape and put back in input order by `data[i].index`. An answer without exactly one vector per
 * input, with vectors of different lengths, or of a length other than the `dimensions` asked for is
 * malformed (kind `transport`, code `malformed_response`): the decision table retries it and then
 * falls through to the next deployment of the same model, and it is never returned as vectors.
 */
export async function embedOpenAI(ctx: OpenAIEmbedContext, request: ProviderEmbedRequest, options: ProviderCallOptions): Promise<ProviderEmbedResponse> {
  const body: OpenAI.EmbeddingCreateParams = { model: request.model, input: request.input, encoding_format: 'base64' };
  if (request.dimensions !== undefined) body.dimensions = request.dimensions;
  let data: OpenAI.CreateEmbeddingResponse;
  let headers: HeaderBag;
  let text: string | undefined;
  try {
    if (request.raw !== undefined && ctx.wire) {
      const answer = await ctx.wire.answer(request.raw, options);
      text = answer.text;
      headers = answer.headers;
      data = JSON.parse(text) as OpenAI.CreateEmbeddingResponse;
    } else {
      const sdk = await ctx.client.embeddings.create(body, sdkRequestOptions(options, body)).withResponse();
      data = sdk.data;
      headers = sdk.response.headers;
    }
  } catch (err) {
    throw ctx.map(err);
  }
  if (!data || !Array.isArray(data.data)) throw malformedResponse(ctx.where, 'no data array');
  const embeddings: number[][] = new Array(request.input.length);
  data.data.forEach((item, position) => {
    const at = typeof item.index === 'number' ? item.index : position;
    const vector = embeddingVector(item.embedding);
    if (at >= 0 && at < embeddings.length && vector) embeddings[at] = vector;
  });
  const length = request.dimensions ?? embeddings[0]?.length;
  for (let i = 0; i < embeddings.length; i++) {
    const vector = embeddings[i];
    if (!vector) throw malformedResponse(ctx.where, `no vector for input ${i} of ${request.input.length}`);
    if (vector.length === 0 || vector.length !== length) {
      throw malformedResponse(ctx.where, `vector ${i} has ${vector.length} dimensions, expected ${length}${request.dimensions === undefined ? ' like vector 0' : ' as requested'}`);
    }
  }
  return {
    embeddings,
    usage: { inputTokens: data.usage?.prompt_tokens ?? 0 },
    model: data.model ?? request.model,
    requestId: headers.get('x-request-id') ?? undefined,
    rateLimit: readRateLimits(headers, ctx.now(), ctx.compatible ? 'any' : 'openai'),
    // Relayed as it came only in the encoding the client asked: a server that ignores it (§7.1) gets the gateway's own answer.
    ...(text !== undefined && data.data.every((item) => typeof item.embedding === (request.rawEncoding === 'base64' ? 'string' : 'object')) ? { raw: text } : {}),
  };
}
