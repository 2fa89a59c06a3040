import { messageText } from '../../../src/types.js';
import type { Message } from '../../../src/types.js';
import { answerLimits, withinLimits } from './answer-limits.js';
import { instructedText } from './instructed-text.js';
import { promptContext, type PromptContext } from './prompt-context.js';
import { stableHash } from './stable-hash.js';

const OPENERS = ['Sure.', 'Here is a short answer.', 'Good question.', 'In brief:', 'Happy to help.'];
const BODIES = [
  'The request reached a simulated model, so no API key or network was needed.',
  'This answer is generated deterministically from the prompt, so the same prompt always gets the same reply.',
  'Switchyard routed the call down the first healthy target of its chain.',
  'Token counts in the usage block are computed from the prompt and this reply.',
];

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** "Attached: 1 image, 2 files (a.pdf, b.pdf)." for a user turn with images or files, else ''. */
function attachments(message: Message | undefined): string {
  if (message?.role !== 'user' || typeof message.content === 'string') return '';
  const images = message.content.filter((p) => p.type === 'image').length;
  const files = message.content.flatMap((p) => (p.type === 'file' ? [p] : []));
  if (!images && !files.length) return '';
  const names = files.map((f) => f.filename).filter(Boolean);
  const parts = [images ? plural(images, 'image') : '', files.length ? `${plural(files.length, 'file')}${names.length ? ` (${names.join(', ')})` : ''}` : ''];
  return ` Attached: ${parts.filter(Boolean).join(', ')}.`;
}

/**
 * The deterministic reply a simulated model gives. When the prompt asks for something a simulator
 * can do (`instructedText`: say words back, a sum or a capital, one of the options it lists, a
 * summary, an apology, numbered steps) that is the answer. Otherwise an opener and a body picked by
 * the hash of (model, last user text), quoting the first 8 words of that text; a user turn with
 * images or files also gets "Attached: 1 image, 1 file (report.pdf)." so a test can see they
 * arrived. Either way the answer keeps the limits the prompt sets (`answerLimits`: one word, three
 * sentences, under 80 characters, upper case); a limited fallback leaves out the quote.
 */
export function fakeAnswer(messages: readonly Message[], model: string, ctx: PromptContext = promptContext(messages)): string {
  const limits = answerLimits(ctx);
  const instructed = instructedText(ctx);
  if (instructed !== undefined) return withinLimits(instructed, limits);
  const user = [...messages].reverse().find((m) => m.role === 'user');
  const last = user ? messageText(user) : '';
  const h = stableHash(`${model}\u0000${last}`);
  const opener = OPENERS[h % OPENERS.length]!;
  const body = BODIES[(h >>> 8) % BODIES.length]!;
  if (Object.keys(limits).length > 0) return withinLimits(limits.words === 1 ? opener : `${body}${attachments(user)}`, limits);
  const topic = last.trim().split(/\s+/).slice(0, 8).join(' ');
  return `${opener} You asked (${model}): "${topic}". ${body}${attachments(user)}`;
}
