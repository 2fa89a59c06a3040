import { embeddingFor, embeddingTokens } from '../../providers/shared/answers/index.js';
import type { SimEmbedRequest } from './embeddings.js';
import type { SimError } from './sim-request.js';

// Gemini API `models/{model}:batchEmbedContents` (providers/gemini/README.md). The 100-request
// ceiling's message is the real one (langchain-ai/langchainjs#4491); the others are synthetic.
/** Most requests one batch takes. */
export const GEMINI_MAX_BATCH = 100;
/** Full vector lengths of Google's embedding models (gemini-embedding-001 shortens to `outputDimensionality`). */
const NATIVE: Readonly<Record<string, number>> = { 'gemini-embedding-001': 3072, 'text-embedding-004': 768, 'embedding-001': 768 };

const invalid = (message: string): SimError => ({ kind: 'invalid_request', message });
const isObject = (x: unknown): x is Record<string, any> => typeof x === 'object' && x !== null && !Array.isArray(x);

/** A model's full vector length (768 for one the simulator does not know). */
export function geminiNativeDimensions(model: string): number {
  return NATIVE[model] ?? 768;
}

/** A `batchEmbedContents` body in the simulator's embeddings shape, or the 400 the API answers it with. */
export function parseGeminiEmbeddings(raw: string, model: string): SimEmbedRequest | SimError {
  let json: any;
  try {
    json = JSON.parse(raw);
  } catch {
    return invalid('Invalid JSON payload received. Unexpected token.');
  }
  const requests = isObject(json) ? json.requests : undefined;
  if (!Array.isArray(requests) || requests.length === 0) return invalid('* BatchEmbedContentsRequest.requests: requests is not specified');
  if (requests.length > GEMINI_MAX_BATCH) return invalid(`* BatchEmbedContentsRequest.requests: at most ${GEMINI_MAX_BATCH} requests can be in one batch`);
  const inputs: string[] = [];
  let dimensions: number | undefined;
  for (let i = 0; i < requests.length; i++) {
    const r = requests[i];
    if (r?.model !== `models/${model}`) return invalid(`* BatchEmbedContentsRequest.requests[${i}].model: the model must be the one named in the URL (models/${model}).`);
    const text = Array.isArray(r.content?.parts) ? r.content.parts.map((p: any) => (typeof p?.text === 'string' ? p.text : '')).join('') : '';
    if (!text) return invalid(`* BatchEmbedContentsRequest.requests[${i}].content: content must have at least one text part.`);
    if (r.outputDimensionality !== undefined) {
      if (!Number.isInteger(r.outputDimensionality) || r.outputDimensionality < 1 || r.outputDimensionality > geminiNativeDimensions(model)) {
        return invalid(`* BatchEmbedContentsRequest.requests[${i}].output_dimensionality: must be between 1 and ${geminiNativeDimensions(model)}.`);
      }
      dimensions ??= r.outputDimensionality;
    }
    inputs.push(text);
  }
  return { model, inputs, tokens: inputs.map(embeddingTokens), ...(dimensions ? { dimensions } : {}), encoding: 'float' };
}

/** The answer: one `{values}` per request, in order (Gemini reports no token count here). */
export function geminiEmbeddingsBody(request: SimEmbedRequest): unknown {
  return { embeddings: request.inputs.map((text) => ({ values: embeddingFor(request.model, text, request.dimensions ?? geminiNativeDimensions(request.model)) })) };
}
