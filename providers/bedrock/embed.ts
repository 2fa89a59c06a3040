import type { BedrockRuntimeClient } from '@aws-sdk/client-bedrock-runtime';
import type { RouterError } from '../../src/errors.js';
import { malformedResponse } from '../shared/transport-error.js';
import { unsupported } from '../shared/content-source.js';
import type { ProviderCallOptions, ProviderEmbedRequest, ProviderEmbedResponse } from '../types.js';
import { announceSend } from './send-hook.js';
import type { BedrockSdk } from './load-sdk.js';
import { baseModelId } from './model-family.js';

/** Cohere Embed takes at most 96 texts a request (model-parameters-embed). */
export const COHERE_MAX_TEXTS = 96;
/** The header InvokeModel answers carry the input token count in (Cohere's body has none). */
const INPUT_TOKENS_HEADER = 'x-amzn-bedrock-input-token-count';

/** Which body an embeddings model takes: Titan's one `inputText`, or Cohere's `texts`. */
export function embeddingFamily(model: string): 'titan' | 'cohere' | undefined {
  const id = baseModelId(model);
  if (id.startsWith('amazon.titan-embed')) return 'titan';
  if (id.startsWith('cohere.embed')) return 'cohere';
  return undefined;
}

/** Most inputs one request to this model carries: Titan 1, Cohere 96; other models have no embeddings here. */
export function maxEmbeddingInputsFor(model: string): number {
  return embeddingFamily(model) === 'titan' ? 1 : COHERE_MAX_TEXTS;
}

export interface BedrockEmbedContext {
  sdk: BedrockSdk;
  client: BedrockRuntimeClient;
  map: (err: unknown) => RouterError;
  where: { provider: string; model: string };
  httpOptions: (options: ProviderCallOptions) => { abortSignal?: AbortSignal; requestTimeout?: number };
}

interface Invoked {
  json: any;
  requestId?: string;
  inputTokens?: number;
}

async function invoke(ctx: BedrockEmbedContext, body: unknown, options: ProviderCallOptions): Promise<Invoked> {
  const command = new ctx.sdk.client.InvokeModelCommand({
    modelId: ctx.where.model, body: JSON.stringify(body), contentType: 'application/json', accept: 'application/json',
  });
  let tokens: string | undefined;
  // The token count is a response header the SDK's output does not model: read it on the way through.
  command.middlewareStack.add((next) => async (args) => {
    const result = await next(args);
    const headers = (result.response as { headers?: Record<string, string> }).headers ?? {};
    tokens = headers[INPUT_TOKENS_HEADER];
    return result;
  }, { step: 'deserialize', name: 'switchyardInputTokens' });
  let out;
  try {
    out = await ctx.client.send(announceSend(command, options), ctx.httpOptions(options));
  } catch (err) {
    throw ctx.map(err);
  }
  let json: any;
  try {
    json = JSON.parse(new TextDecoder().decode(out.body));
  } catch {
    throw malformedResponse(ctx.where, 'an embeddings body that is not JSON');
  }
  const count = tokens === undefined ? NaN : Number(tokens);
  return { json, requestId: out.$metadata.requestId, ...(Number.isFinite(count) ? { inputTokens: count } : {}) };
}

const isVector = (v: unknown): v is number[] => Array.isArray(v) && v.length > 0 && v.every((x) => typeof x === 'number' && Number.isFinite(x));
/** Cohere reports no token count in its body; when the header is missing too, about four characters a token. */
const estimate = (texts: readonly string[]) => texts.reduce((n, t) => n + Math.max(1, Math.ceil(t.length / 4)), 0);

async function titan(ctx: BedrockEmbedContext, text: string, dimensions: number | undefined, options: ProviderCallOptions): Promise<Invoked & { vector: number[] }> {
  const v2 = !baseModelId(ctx.where.model).startsWith('amazon.titan-embed-text-v1');
  if (dimensions !== undefined && !v2) throw unsupported(ctx.where, 'a dimensions setting (Titan Embeddings G1 has one size)');
  const answer = await invoke(ctx, { inputText: text, ...(v2 && dimensions !== undefined ? { dimensions } : {}), ...(v2 ? { normalize: true } : {}) }, options);
  const vector = answer.json?.embedding ?? answer.json?.embeddingsByType?.float;
  if (!isVector(vector)) throw malformedResponse(ctx.where, 'no embedding vector');
  const counted = typeof answer.json.inputTextTokenCount === 'number' ? answer.json.inputTextTokenCount : answer.inputTokens;
  return Object.assign({}, answer, { vector, inputTokens: counted ?? estimate([text]) });
}

async function cohere(ctx: BedrockEmbedContext, texts: string[], dimensions: number | undefined, options: ProviderCallOptions): Promise<ProviderEmbedResponse> {
  const v4 = baseModelId(ctx.where.model).startsWith('cohere.embed-v4');
  if (dimensions !== undefined && !v4) throw unsupported(ctx.where, 'a dimensions setting (Cohere Embed v3 has one size)');
  const body = { texts, input_type: 'search_document', embedding_types: ['float'], ...(dimensions !== undefined ? { output_dimension: dimensions } : {}) };
  const answer = await invoke(ctx, body, options);
  // With `embedding_types` the vectors are `embeddings.float`; without, `embeddings` itself.
  const raw = answer.json?.embeddings;
  const vectors: unknown = Array.isArray(raw) ? raw : raw?.float;
  if (!Array.isArray(vectors) || vectors.length !== texts.length || !vectors.every(isVector)) {
    throw malformedResponse(ctx.where, `expected ${texts.length} embedding vectors`);
  }
  return {
    embeddings: vectors, model: ctx.where.model, usage: { inputTokens: answer.inputTokens ?? estimate(texts) },
    ...(answer.requestId ? { requestId: answer.requestId } : {}),
  };
}

/**
 * Embeddings through InvokeModel: Titan (`amazon.titan-embed-*`) one `inputText` a request (the
 * router sends one input at a time, its traits say so; several given here go as parallel requests),
 * `dimensions` on v2 and vectors normalised; Cohere Embed (`cohere.embed-*`) up to 96 `texts` a
 * request as `search_document`, `output_dimension` on v4. Other models have no embeddings API here.
 */
export async function embedBedrock(ctx: BedrockEmbedContext, request: ProviderEmbedRequest, options: ProviderCallOptions): Promise<ProviderEmbedResponse> {
  const family = embeddingFamily(request.model);
  if (family === 'cohere') return cohere(ctx, request.input, request.dimensions, options);
  if (family !== 'titan') throw unsupported(ctx.where, `embeddings with ${request.model} (Bedrock embeddings here are Titan amazon.titan-embed-* and Cohere cohere.embed-*)`);
  const answers = await Promise.all(request.input.map((text) => titan(ctx, text, request.dimensions, options)));
  return {
    embeddings: answers.map((a) => a.vector),
    model: request.model,
    usage: { inputTokens: answers.reduce((n, a) => n + (a.inputTokens ?? 0), 0) },
    ...(answers[0]?.requestId ? { requestId: answers[0].requestId } : {}),
  };
}
