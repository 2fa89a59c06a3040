import type { CountTokens } from './token-estimate.js';

/** A provider's per-request ceilings for embeddings: inputs, and tokens summed over them. */
export interface EmbedCeiling {
  maxInputs: number;
  maxTokens: number;
}

/**
 * Share of `maxTokens` a batch is filled to. The router splits by the heuristic (3.5 ASCII
 * characters a token, a token for any other character), but the per-request ceiling is checked
 * with the real tokenizer, which reaches about 3 characters a token on code and digits: a batch the
 * heuristic puts at three quarters of the ceiling still fits.
 */
export const TOKEN_CEILING_FILL = 0.75;

/**
 * Splits inputs into consecutive batches in input order, each with at most `maxInputs` items and at
 * most `maxTokens * TOKEN_CEILING_FILL` estimated tokens. An input estimated above that alone goes
 * in a batch of its own (the provider, not the router, says whether one input is too long).
 */
export function embedBatches(inputs: readonly string[], ceiling: EmbedCeiling, count: CountTokens): string[][] {
  const tokenRoom = ceiling.maxTokens * TOKEN_CEILING_FILL;
  const batches: string[][] = [];
  let batch: string[] = [];
  let tokens = 0;
  for (const text of inputs) {
    const n = Number.isFinite(tokenRoom) ? count(text) : 0;
    if (batch.length > 0 && (batch.length >= ceiling.maxInputs || tokens + n > tokenRoom)) {
      batches.push(batch);
      batch = [];
      tokens = 0;
    }
    batch.push(text);
    tokens += n;
  }
  if (batch.length > 0) batches.push(batch);
  return batches;
}
