import { messageText } from '../message-text.js';
import type { Message } from '../types.js';
import { extractEntities, type Entities } from './entities.js';

/** What a request's prompt says, read once for every rule that answers it. */
export interface PromptContext {
  /** The system and developer turns' text, joined by newlines. */
  instructions: string;
  /** The last user turn's text ('' when there is none). */
  question: string;
  /** What the answer is about: the passages the question quotes, or else the question itself. */
  subject: string;
  /** The passages the question quotes, in order. */
  quoted: string[];
  /** Entities of the question, then of the instructions. */
  entities: Entities;
}

// A single quote opens after a space or a colon and closes before punctuation or the end, so an
// apostrophe ("customer's") is neither; one followed by a letter inside ("can't") stays in.
const QUOTED = /"([^"\n]{2,})"|“([^”\n]{2,})”|(?<=^|[\s:(])'((?:[^'\n]|'(?=\p{L}))+?)'(?=$|[\s.,:;!?)])/gu;

/** The passages a text quotes, in order: `"..."`, `“...”` and `'...'`. */
export function quotedPassages(text: string): string[] {
  return [...text.matchAll(QUOTED)].map((m) => (m[1] ?? m[2] ?? m[3]!).trim()).filter(Boolean);
}

/** The prompt of a conversation as the answer rules read it: instructions, the last question, its subject and entities. */
export function promptContext(messages: readonly Message[]): PromptContext {
  const instructions = messages.filter((m) => m.role === 'system' || m.role === 'developer').map(messageText).join('\n');
  const user = [...messages].reverse().find((m) => m.role === 'user');
  const question = user ? messageText(user) : '';
  const quoted = quotedPassages(question);
  return { instructions, question, subject: quoted.length > 0 ? quoted.join(' ') : question, quoted, entities: extractEntities(`${question}\n${instructions}`) };
}
