import { embeddingFor, embeddingTokens } from '../../providers/shared/answers/index.js';
import type { SimEmbedRequest } from './embeddings.js';
import type { SimError } from './sim-request.js';
import type { WireEmbeddings } from './wire.js';

// InvokeModel bodies of the embedding models (model-parameters-titan-embed-text, model-parameters-embed).
const invalid = (message: string): SimError => ({ kind: 'invalid_request', message });
const isObject = (x: unknown): x is Record<string, any> => typeof x === 'object' && x !== null && !Array.isArray(x);
const TITAN_V2_DIMENSIONS = [256, 512, 1024];
const COHERE_V4_DIMENSIONS = [256, 512, 1024, 1536];
/** Titan Text Embeddings V2 takes up to 8,192 tokens; Cohere 96 texts of 2,048 characters each. */
const TITAN_MAX_TOKENS = 8_192;
const COHERE_MAX_TEXTS = 96;
const COHERE_MAX_CHARS = 2_048;

const family = (model: string) => (model.includes('titan-embed') ? 'titan' : model.includes('cohere.embed') ? 'cohere' : undefined);

function titan(json: Record<string, any>, model: string): SimEmbedRequest | SimError {
  if (typeof json.inputText !== 'string' || json.inputText === '') return invalid('Malformed input request: #: required key [inputText] not found, please reformat your input and try again.');
  const v1 = model.includes('titan-embed-text-v1');
  if (json.dimensions !== undefined && (v1 || !TITAN_V2_DIMENSIONS.includes(json.dimensions))) {
    return invalid(`Malformed input request: #/dimensions: ${String(json.dimensions)} is not a valid enum value, please reformat your input and try again.`);
  }
  const tokens = embeddingTokens(json.inputText);
  if (tokens > TITAN_MAX_TOKENS) return invalid('400 Bad Request: Too many input tokens. Max input tokens: 8192, request input token count: ' + tokens);
  return { model, inputs: [json.inputText], tokens: [tokens], ...(json.dimensions !== undefined ? { dimensions: json.dimensions } : {}), encoding: 'float' };
}

function cohere(json: Record<string, any>, model: string): SimEmbedRequest | SimError {
  const texts = json.texts;
  if (!Array.isArray(texts) || texts.some((t) => typeof t !== 'string')) return invalid('Malformed input request: #: required key [texts] not found, please reformat your input and try again.');
  if (texts.length > COHERE_MAX_TEXTS) return invalid(`Malformed input request: #/texts: expected maximum item count: ${COHERE_MAX_TEXTS}, found: ${texts.length}, please reformat your input and try again.`);
  if (texts.some((t: string) => t.length > COHERE_MAX_CHARS)) return invalid(`Malformed input request: #/texts: expected maxLength: ${COHERE_MAX_CHARS}, please reformat your input and try again.`);
  if (typeof json.input_type !== 'string') return invalid('Malformed input request: #: required key [input_type] not found, please reformat your input and try again.');
  const dims = json.output_dimension;
  if (dims !== undefined && (!model.includes('embed-v4') || !COHERE_V4_DIMENSIONS.includes(dims))) {
    return invalid('Malformed input request: extraneous key [output_dimension] is not permitted, please reformat your input and try again.');
  }
  return { model, inputs: texts, tokens: texts.map(embeddingTokens), ...(dims !== undefined ? { dimensions: dims } : {}), encoding: 'float' };
}

/** Titan's `{inputText}` and Cohere's `{texts, input_type}` InvokeModel bodies; their answers, with the token-count header. */
export const bedrockEmbeddings: WireEmbeddings = {
  parse(raw, route) {
    const model = route?.model ?? '';
    let json: unknown;
    try {
      json = JSON.parse(raw);
    } catch {
      return invalid('Malformed input request, please reformat your input and try again.');
    }
    if (!isObject(json)) return invalid('Malformed input request, please reformat your input and try again.');
    const kind = family(model);
    if (kind === 'titan') return titan(json, model);
    if (kind === 'cohere') return cohere(json, model);
    return invalid(`The provided model identifier is invalid.`);
  },
  body(request) {
    const vectors = request.inputs.map((text) => embeddingFor(request.model, text, request.dimensions));
    if (family(request.model) === 'titan') {
      return { embedding: vectors[0], inputTextTokenCount: request.tokens[0], embeddingsByType: { float: vectors[0] } };
    }
    return { id: `emb-${request.tokens.join('-')}`, texts: request.inputs, embeddings: { float: vectors }, response_type: 'embeddings_by_type' };
  },
  headers(ctx, tokens) {
    return { 'x-amzn-requestid': ctx.requestId, 'x-amzn-bedrock-input-token-count': String(tokens), 'x-amzn-bedrock-invocation-latency': String(Math.max(1, Math.round(ctx.processingMs ?? 1))) };
  },
};
