import type { PromptContext } from './prompt-context.js';
import { firstSentence, limitWords } from './summary.js';

const NUMBER_WORDS: Readonly<Record<string, number>> = {
  one: 1, a: 1, single: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10, twelve: 12, fifteen: 15, twenty: 20,
};

/** A count as a prompt writes it: `3`, `three`, `a single`. */
export function countOf(word: string): number | undefined {
  const w = word.toLowerCase().replace(/^a\s+single$/, 'single');
  return /^\d+$/.test(w) ? Number(w) : NUMBER_WORDS[w];
}

const COUNT = String.raw`(\d+|one|a single|single|two|three|four|five|six|seven|eight|nine|ten|twelve|fifteen|twenty)`;
const WORDS = new RegExp(String.raw`\b(?:in|with|using|at most|no more than|max(?:imum)?(?: of)?|under|within|exactly)\s+${COUNT}\s+words?\b|\b(one|single)[- ]word\b`, 'i');
const SENTENCES = new RegExp(String.raw`\b(?:in|with|using|as)?\s*${COUNT}\s+(?:short\s+)?sentences?\b`, 'i');
const CHARACTERS = /\b(?:under|at most|no more than|within|max(?:imum)?(?: of)?|fewer than|less than)\s+(\d+)\s+(?:characters|chars|letters)\b/i;
const UPPER = /\b(?:in\s+)?(?:all\s+)?(?:upper ?case|capital letters|all caps)\b/i;
const LOWER = /\b(?:in\s+)?(?:all\s+)?lower ?case\b/i;

/** The shape a prompt asks its answer to keep: at most so many words, sentences or characters, one letter case. */
export interface AnswerLimits {
  words?: number;
  sentences?: number;
  characters?: number;
  letterCase?: 'upper' | 'lower';
}

/** The limits the prompt (its instructions and its question) sets on the answer's shape. */
export function answerLimits(ctx: PromptContext): AnswerLimits {
  const text = `${ctx.question}\n${ctx.instructions}`;
  const lower = `${ctx.lower.question}\n${ctx.lower.instructions}`;
  const limits: AnswerLimits = {};
  // Each limit needs its word: a plain substring scan first, the regex only when it is there.
  const words = lower.includes('word') ? WORDS.exec(text) : null;
  if (words) limits.words = words[2] ? 1 : countOf(words[1]!);
  const sentences = lower.includes('sentence') ? SENTENCES.exec(text) : null;
  if (sentences) limits.sentences = countOf(sentences[1]!);
  const characters = /char|letter/.test(lower) ? CHARACTERS.exec(text) : null;
  if (characters) limits.characters = Number(characters[1]);
  if (/case|caps|capital/.test(lower)) {
    if (UPPER.test(text)) limits.letterCase = 'upper';
    else if (LOWER.test(text)) limits.letterCase = 'lower';
  }
  return limits;
}

/** `text` kept within the limits: one word loses its punctuation, fewer words keep a full stop, then sentences, characters and case. */
export function withinLimits(text: string, limits: AnswerLimits): string {
  let out = text;
  if (limits.words === 1) out = (out.split(/\s+/).find((w) => /[\p{L}\p{N}]/u.test(w)) ?? out).replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, '');
  else if (limits.words !== undefined && out.split(/\s+/).filter(Boolean).length > limits.words) out = limitWords(out, limits.words);
  if (limits.sentences !== undefined) {
    const sentences: string[] = [];
    let rest = out;
    while (rest && sentences.length < limits.sentences) {
      const one = firstSentence(rest);
      sentences.push(one);
      rest = rest.replace(/\s+/g, ' ').trim().slice(one.length).trim();
    }
    out = sentences.join(' ');
  }
  if (limits.characters !== undefined && out.length > limits.characters) out = out.slice(0, limits.characters).trimEnd();
  if (limits.letterCase === 'upper') out = out.toUpperCase();
  if (limits.letterCase === 'lower') out = out.toLowerCase();
  return out;
}
