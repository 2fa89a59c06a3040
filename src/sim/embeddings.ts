import { acceptsDimensions, embeddingFor, embeddingTokens, embeddingToBase64, nativeDimensions } from '../../providers/shared/answers/index.js';
import { BAD_JSON, invalid } from './openai-request.js';
import { PROVIDER_DEFAULTS } from './options.js';
import type { SimError } from './sim-request.js';

// OpenAI POST /v1/embeddings, ../shared/reference/provider-wire-formats-wave2.md §7.1.
const INPUT_INVALID = "'$.input' is invalid. Please check the API reference: https://platform.openai.com/docs/api-reference.";

/** An embeddings request in the simulator's shape. */
export interface SimEmbedRequest {
  model: string;
  /** One text per input (a token array becomes its numbers joined by spaces). */
  inputs: string[];
  /** Tokens of each input: the text heuristic, or the length of a token array. */
  tokens: number[];
  dimensions?: number;
  encoding: 'float' | 'base64';
}

const isObject = (x: unknown): x is Record<string, any> => typeof x === 'object' && x !== null && !Array.isArray(x);
const isTokenArray = (x: unknown): x is number[] => Array.isArray(x) && x.length > 0 && x.every((n) => Number.isInteger(n) && n >= 0);

/** The inputs of a request: a string, strings, one token array or token arrays; undefined when invalid. */
function inputsOf(input: unknown): { inputs: string[]; tokens: number[] } | undefined {
  if (typeof input === 'string') return input === '' ? undefined : { inputs: [input], tokens: [embeddingTokens(input)] };
  if (!Array.isArray(input) || input.length === 0 || input.length > PROVIDER_DEFAULTS.maxEmbeddingInputs) return undefined;
  if (input.every((x) => typeof x === 'string')) {
    if (input.some((x) => x === '')) return undefined;
    return { inputs: input as string[], tokens: (input as string[]).map(embeddingTokens) };
  }
  if (isTokenArray(input)) return { inputs: [input.join(' ')], tokens: [input.length] };
  if (input.every(isTokenArray)) return { inputs: (input as number[][]).map((t) => t.join(' ')), tokens: (input as number[][]).map((t) => t.length) };
  return undefined;
}

/** An OpenAI embeddings body in the simulator's shape, or the 400 the API answers it with. */
export function parseEmbeddings(raw: string): SimEmbedRequest | SimError {
  let json: any;
  try {
    json = JSON.parse(raw);
  } catch {
    return invalid(BAD_JSON);
  }
  if (!isObject(json)) return invalid(BAD_JSON);
  if (typeof json.model !== 'string' || json.model === '') return invalid('you must provide a model parameter');
  if (json.input === undefined || json.input === null) return invalid("Missing required parameter: 'input'.", 'input', 'missing_required_parameter');
  const parsed = inputsOf(json.input);
  if (!parsed) return invalid(INPUT_INVALID);
  const encoding = json.encoding_format ?? 'float';
  if (encoding !== 'float' && encoding !== 'base64') {
    return invalid(`Invalid value: '${String(encoding)}'. Supported values are: 'float' and 'base64'.`, 'encoding_format', 'invalid_value');
  }
  let dimensions: number | undefined;
  if (json.dimensions !== undefined && json.dimensions !== null) {
    if (!Number.isInteger(json.dimensions) || json.dimensions < 1) {
      return invalid(`Invalid 'dimensions': integer below minimum value. Expected a value >= 1, but got ${JSON.stringify(json.dimensions)} instead.`, 'dimensions', 'integer_below_min_value');
    }
    if (!acceptsDimensions(json.model)) return invalid('This model does not support specifying dimensions.');
    const native = nativeDimensions(json.model);
    if (json.dimensions > native) return invalid(`Invalid value for 'dimensions' = ${json.dimensions}. Must be less than or equal to ${native}.`, 'dimensions', 'invalid_value');
    dimensions = json.dimensions;
  }
  const longest = Math.max(...parsed.tokens);
  const limit = PROVIDER_DEFAULTS.embeddingInputTokens;
  if (longest > limit) {
    return invalid(`This model's maximum context length is ${limit} tokens, however you requested ${longest} tokens (${longest} in your prompt; 0 for the completion). Please reduce your prompt; or completion length.`);
  }
  const total = parsed.tokens.reduce((a, b) => a + b, 0);
  if (total > PROVIDER_DEFAULTS.embeddingRequestTokens) {
    return invalid(`Requested ${total} tokens, max ${PROVIDER_DEFAULTS.embeddingRequestTokens} tokens per request`, 'input', 'max_tokens_per_request');
  }
  return { model: json.model, ...parsed, ...(dimensions ? { dimensions } : {}), encoding };
}

/** Tokens the request is charged (and reports as `usage.prompt_tokens`). */
export function embeddingTokensOf(request: SimEmbedRequest): number {
  return request.tokens.reduce((a, b) => a + b, 0);
}

/** The response body: one deterministic vector per input, in order, as floats or base64 float32. */
export function embeddingsBody(request: SimEmbedRequest): unknown {
  const tokens = embeddingTokensOf(request);
  return {
    object: 'list',
    data: request.inputs.map((text, index) => {
      const vector = embeddingFor(request.model, text, request.dimensions);
      return { object: 'embedding', index, embedding: request.encoding === 'base64' ? embeddingToBase64(vector) : vector };
    }),
    model: request.model,
    usage: { prompt_tokens: tokens, total_tokens: tokens },
  };
}
