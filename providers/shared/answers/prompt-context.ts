import { messageText } from '../../../src/types.js';
import type { Message } from '../../../src/types.js';
import { extractEntities, type Entities } from './entities.js';

/** What a request's prompt says, read once for every rule that answers it (what costs a scan, only when a rule asks). */
export interface PromptContext {
  /** The system and developer turns' text, joined by newlines. */
  readonly instructions: string;
  /** The last user turn's text ('' when there is none). */
  readonly question: string;
  /** What the answer is about: the passages the question quotes, or else the question itself. */
  readonly subject: string;
  /** The passages the question quotes, in order. */
  readonly quoted: string[];
  /** Entities of the question, then of the instructions. */
  readonly entities: Entities;
  /** The question and the instructions in lower case, for the rules' quick substring checks. */
  readonly lower: { readonly question: string; readonly instructions: string };
}

// A single quote opens after a space or a colon and closes before punctuation or the end, so an
// apostrophe ("customer's") is neither; one followed by a letter inside ("can't") stays in.
const QUOTED = /"([^"\n]{2,})"|“([^”\n]{2,})”|(?<=^|[\s:(])'((?:[^'\n]|'(?=\p{L}))+?)'(?=$|[\s.,:;!?)])/gu;

/** The passages a text quotes, in order: `"..."`, `“...”` and `'...'`. */
export function quotedPassages(text: string): string[] {
  if (!/["“']/.test(text)) return [];
  return [...text.matchAll(QUOTED)].map((m) => (m[1] ?? m[2] ?? m[3]!).trim()).filter(Boolean);
}

/** The lazily read parts of a prompt (a class: its getters live on the prototype, which keeps the object cheap). */
class LazyPrompt implements PromptContext {
  private quotedCache: string[] | undefined;
  private entitiesCache: Entities | undefined;
  private lowerCache: PromptContext['lower'] | undefined;

  constructor(readonly instructions: string, readonly question: string) {}

  get quoted(): string[] {
    return (this.quotedCache ??= quotedPassages(this.question));
  }

  get subject(): string {
    return this.quoted.length > 0 ? this.quoted.join(' ') : this.question;
  }

  get entities(): Entities {
    return (this.entitiesCache ??= extractEntities(`${this.question}\n${this.instructions}`));
  }

  get lower(): PromptContext['lower'] {
    return (this.lowerCache ??= { question: this.question.toLowerCase(), instructions: this.instructions.toLowerCase() });
  }
}

/**
 * The prompt of a conversation as the answer rules read it: instructions, the last question, its
 * subject and entities. The quoted passages and the entities are found on first use: most answers
 * need neither, and both scan the whole prompt.
 */
export function promptContext(messages: readonly Message[]): PromptContext {
  let instructions = '';
  let question: string | undefined;
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i]!;
    if (m.role === 'system' || m.role === 'developer') instructions = instructions ? `${messageText(m)}\n${instructions}` : messageText(m);
    else if (m.role === 'user' && question === undefined) question = messageText(m);
  }
  return new LazyPrompt(instructions, question ?? '');
}
