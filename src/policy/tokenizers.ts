import { encodingFor, heuristicTokens, type CountTokens } from '../decide/token-estimate.js';

type Encoding = 'o200k_base' | 'cl100k_base';

const loaded = new Map<Encoding, Promise<CountTokens>>();

async function load(encoding: Encoding): Promise<CountTokens> {
  const { Tiktoken } = await import('js-tiktoken/lite');
  const ranks = encoding === 'o200k_base'
    ? (await import('js-tiktoken/ranks/o200k_base')).default
    : (await import('js-tiktoken/ranks/cl100k_base')).default;
  const tokenizer = new Tiktoken(ranks);
  return (text) => tokenizer.encode(text).length;
}

/**
 * The token counter for a model: tiktoken where an OpenAI encoding fits (loaded once per process,
 * ~0.6 s and ~100 MB for o200k, so only when a TPM budget needs it), the heuristic otherwise.
 */
export function tokenCounter(model: string, mode: 'auto' | 'heuristic'): Promise<CountTokens> | CountTokens {
  const encoding = mode === 'auto' ? encodingFor(model) : undefined;
  if (!encoding) return heuristicTokens;
  let counter = loaded.get(encoding);
  if (!counter) {
    counter = load(encoding).catch(() => heuristicTokens);
    loaded.set(encoding, counter);
  }
  return counter;
}
