import { encodingFor, heuristicTokens, openAILimiterTokens, type CountTokens } from '../decide/token-estimate.js';

type Encoding = 'o200k_base' | 'cl100k_base';

const ready = new Map<Encoding, CountTokens>();
const loading = new Map<Encoding, Promise<void>>();
const NON_ASCII = /[^\x00-\x7f]/;

/** Starts loading an encoding once per process (~0.6 s and ~100 MB for o200k); resolves when it is ready. */
export function loadEncoding(encoding: Encoding): Promise<void> {
  let pending = loading.get(encoding);
  if (!pending) {
    pending = (async () => {
      const { Tiktoken } = await import('js-tiktoken/lite');
      const ranks = encoding === 'o200k_base'
        ? (await import('js-tiktoken/ranks/o200k_base')).default
        : (await import('js-tiktoken/ranks/cl100k_base')).default;
      const tokenizer = new Tiktoken(ranks);
      ready.set(encoding, (text) => tokenizer.encode(text).length);
    })().catch(() => {
      // Without the ranks the heuristic, which errs high, keeps standing in.
    });
    loading.set(encoding, pending);
  }
  return pending;
}

/** Texts up to this long are counted exactly; longer ones from two samples of this size (BPE on CJK costs ~15-30 µs a character). */
export const EXACT_CHARS = 64;
/** A sampled count errs high by this much, so a sample that happens to be dense does not undercount. */
const SAMPLE_MARGIN = 1.1;

/**
 * A count that never costs more than about `2 * EXACT_CHARS` characters of tokenizing, whatever the
 * text's length: short texts exactly, long ones from two samples (the start and the middle),
 * extrapolated by length with a margin. js-tiktoken's BPE is quadratic in a run without spaces
 * (CJK), so 600 CJK characters took 0.5-1 s whole and 10,000 about 110 s; the estimate only needs to
 * err high, not be exact.
 */
export function boundedCount(exact: CountTokens, text: string): number {
  if (text.length <= EXACT_CHARS) return exact(text);
  const mid = Math.floor(text.length / 2);
  const sampled = exact(text.slice(0, EXACT_CHARS)) + exact(text.slice(mid, mid + EXACT_CHARS));
  return Math.ceil((sampled / (2 * EXACT_CHARS)) * text.length * SAMPLE_MARGIN);
}

/**
 * The token counter for a target's TPM budget, always synchronous and bounded in cost. OpenAI-speaking
 * providers: characters / 4, which is what their limiter charges. Only a prompt with non-ASCII
 * characters (CJK text runs near a token a character, far above characters / 4) is also counted with
 * tiktoken where an encoding fits the model (`auto`), and the higher count wins. The encoding loads
 * in the background the first time such a prompt comes; until it is ready the heuristic stands in.
 * Other providers: the heuristic, which errs high.
 */
export function tokenCounter(model: string, mode: 'auto' | 'heuristic', speaksOpenAI: boolean): CountTokens {
  if (!speaksOpenAI) return heuristicTokens;
  const encoding = mode === 'auto' ? encodingFor(model) : undefined;
  if (!encoding) return openAILimiterTokens;
  return (text) => {
    const floor = openAILimiterTokens(text);
    if (!NON_ASCII.test(text)) return floor;
    const exact = ready.get(encoding);
    if (!exact) void loadEncoding(encoding);
    return Math.max(floor, exact ? boundedCount(exact, text) : heuristicTokens(text));
  };
}
