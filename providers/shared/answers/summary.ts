import type { PromptContext } from './prompt-context.js';

const MAX_WORDS = 25;
const EMAIL = /[\w.+-]+@[\w-]+(?:\.[\w-]+)+/g;
const PHONE = /\+?\d[\d ()-]{7,}\d/g;

/** The first sentence of a text: up to the first `.`, `!` or `?` that ends a word. */
export function firstSentence(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  const m = /^.*?[.!?](?=\s|$)/.exec(flat);
  return (m ? m[0] : flat).trim();
}

/** A text with its email addresses and phone numbers replaced by who they belong to: a summary repeats no contact details. */
export function withoutContacts(text: string): string {
  return text.replace(EMAIL, 'the customer').replace(PHONE, 'a phone number').replace(/^the customer/, 'The customer');
}

/** Cuts a sentence to `words` words, ending it with a full stop. */
export function limitWords(sentence: string, words: number): string {
  const all = sentence.split(/\s+/).filter(Boolean);
  const kept = all.length > words ? all.slice(0, words).join(' ') : all.join(' ');
  return /[.!?]$/.test(kept) ? kept : `${kept.replace(/[,;:]$/, '')}.`;
}

/**
 * A one-sentence summary of what the prompt is about: the first sentence of the passage it quotes
 * (or of what follows its first colon, or of the question), contact details left out, at most 25
 * words, capitalised, ending in a full stop.
 */
export function summarySentence(ctx: PromptContext): string {
  const afterColon = /:\s*(\S[\s\S]*)$/.exec(ctx.question)?.[1];
  const source = ctx.quoted.length > 0 ? ctx.quoted.join(' ') : afterColon ?? ctx.question;
  const sentence = limitWords(withoutContacts(firstSentence(source)), MAX_WORDS);
  return sentence.charAt(0).toUpperCase() + sentence.slice(1);
}
