import { encodingFor, heuristicTokens, openAILimiterTokens, type CountTokens } from '../decide/token-estimate.js';

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

/** Never below what OpenAI's limiter charges (characters / 4), never below the real count. */
const withLimiterFloor = (count: CountTokens): CountTokens => (text) => Math.max(openAILimiterTokens(text), count(text));

/**
 * The token counter for a target's TPM budget. OpenAI-speaking providers: characters / 4, as their
 * limiter counts, raised to tiktoken's count where an encoding fits the model (`auto`; loaded once per
 * process, ~0.6 s and ~100 MB for o200k, so only when a TPM budget needs it). Others: the heuristic,
 * which errs high.
 */
export function tokenCounter(model: string, mode: 'auto' | 'heuristic', speaksOpenAI: boolean): Promise<CountTokens> | CountTokens {
  if (!speaksOpenAI) return heuristicTokens;
  const encoding = mode === 'auto' ? encodingFor(model) : undefined;
  if (!encoding) return openAILimiterTokens;
  let counter = loaded.get(encoding);
  if (!counter) {
    counter = load(encoding).then(withLimiterFloor, () => openAILimiterTokens);
    loaded.set(encoding, counter);
  }
  return counter;
}
