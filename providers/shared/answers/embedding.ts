import { randomFor } from './prng.js';
import { approxTokens } from './tokens.js';

/** Vector length of an embeddings model that does not say otherwise. */
export const DEFAULT_EMBEDDING_DIMENSIONS = 1536;
/** Native vector lengths of the models whose length is known and not the default. */
const NATIVE_DIMENSIONS: Readonly<Record<string, number>> = {
  'text-embedding-3-large': 3072,
  // Bedrock: Titan Text Embeddings V2 and Cohere Embed v3 answer 1024 components by default.
  'amazon.titan-embed-text-v2:0': 1024, 'cohere.embed-english-v3': 1024, 'cohere.embed-multilingual-v3': 1024,
};

/** A model's full vector length: 3072 for `text-embedding-3-large`, 1536 for any other. */
export function nativeDimensions(model: string): number {
  return NATIVE_DIMENSIONS[model] ?? DEFAULT_EMBEDDING_DIMENSIONS;
}

/** Only `text-embedding-3*` models (and later) take `dimensions`. */
export function acceptsDimensions(model: string): boolean {
  return model.startsWith('text-embedding-3');
}

/**
 * A deterministic unit-length vector for (model, text): the model's full vector drawn uniformly from
 * [-1, 1) by a PRNG seeded with the hash of `model \0 text`, shortened to `dimensions` (its first
 * components, as `text-embedding-3` shortens) and scaled to length 1. Components are float32 values,
 * so a vector sent as base64 float32 decodes to exactly these numbers.
 */
export function embeddingFor(model: string, text: string, dimensions = nativeDimensions(model)): number[] {
  const random = randomFor(`${model}\u0000${text}`);
  const raw = Array.from({ length: dimensions }, () => random() * 2 - 1);
  const norm = Math.sqrt(raw.reduce((sum, x) => sum + x * x, 0)) || 1;
  return raw.map((x) => Math.fround(x / norm));
}

/** A vector as OpenAI sends it under `encoding_format: "base64"`: little-endian float32, base64. */
export function embeddingToBase64(vector: readonly number[]): string {
  const bytes = Buffer.alloc(vector.length * 4);
  vector.forEach((x, i) => bytes.writeFloatLE(x, i * 4));
  return bytes.toString('base64');
}

/** Tokens an embeddings input counts (the chat heuristic: 4 characters a token, at least 1). */
export function embeddingTokens(text: string): number {
  return approxTokens(text);
}
