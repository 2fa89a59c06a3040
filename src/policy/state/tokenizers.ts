import { encodingFor, heuristicTokens, openAILimiterTokens, type CountTokens } from '../../decide/token-estimate.js';

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

/** Characters one estimate tokenizes in all: one long text's two samples, shared by every text of a prompt or an embed call. */
export const ESTIMATE_BUDGET_CHARS = 2 * EXACT_CHARS;

/** Characters `boundedCount` tokenizes for a text this long. */
function boundedCost(length: number): number {
  if (length <= EXACT_CHARS) return length;
  return EXACT_CHARS + Math.min(EXACT_CHARS, length - Math.floor(length / 2));
}

/**
 * A count for one estimate (one prompt's messages, parts and tools, or one embed call's inputs):
 * texts go through `boundedCount` while the estimate's budget of tokenized characters lasts, and the
 * rest through the heuristic, which errs high. So 2,000 short CJK messages cost what one long text
 * does, not 2,000 samples; a single text is counted exactly as `boundedCount` counts it.
 */
export function budgetedCount(exact: CountTokens, budgetChars = ESTIMATE_BUDGET_CHARS): CountTokens {
  let left = budgetChars;
  return (text) => {
    const cost = boundedCost(text.length);
    if (cost > left) return heuristicTokens(text);
    left -= cost;
    return boundedCount(exact, text);
  };
}

/** Makes a fresh count for one estimate; every text of that estimate shares its sampling budget. */
export type TokenCounter = () => CountTokens;

/**
 * The token counter for a target's TPM budget, always synchronous and bounded in cost per estimate.
 * OpenAI-speaking providers: characters / 4, which is what their limiter charges. Only a text with
 * non-ASCII characters (CJK text runs near a token a character, far above characters / 4) is also
 * counted with tiktoken where an encoding fits the model (`auto`), within the estimate's budget, and
 * the higher count wins. The first such text starts loading the encoding; its ranks are parsed on
 * the event loop (once per process, about 0.6 s for o200k), and until it is ready the heuristic
 * stands in. Other providers: the heuristic, which errs high.
 */
export function tokenCounter(model: string, mode: 'auto' | 'heuristic', speaksOpenAI: boolean): TokenCounter {
  if (!speaksOpenAI) return () => heuristicTokens;
  const encoding = mode === 'auto' ? encodingFor(model) : undefined;
  if (!encoding) return () => openAILimiterTokens;
  return () => {
    const exact = ready.get(encoding);
    const sampled = exact ? budgetedCount(exact) : undefined;
    return (text) => {
      const floor = openAILimiterTokens(text);
      if (!NON_ASCII.test(text)) return floor;
      if (!sampled) void loadEncoding(encoding);
      return Math.max(floor, sampled ? sampled(text) : heuristicTokens(text));
    };
  };
}
