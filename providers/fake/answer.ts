import { messageText } from '../../src/message-text.js';
import type { Message } from '../../src/types.js';

const OPENERS = ['Sure.', 'Here is a short answer.', 'Good question.', 'In brief:', 'Happy to help.'];
const BODIES = [
  'The request reached a simulated model, so no API key or network was needed.',
  'This answer is generated deterministically from the prompt, so the same prompt always gets the same reply.',
  'Switchyard routed the call down the first healthy target of its chain.',
  'Token counts in the usage block are computed from the prompt and this reply.',
];

/** A small stable hash (FNV-1a) so the same prompt always picks the same words. */
export function stableHash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** Roughly four characters a token, the heuristic OpenAI documents for English text; at least 1. */
export function approxTokens(text: string): number {
  return Math.max(1, Math.ceil(text.length / 4));
}

/** Prompt tokens the way chat APIs count them: every message's text plus a few tokens of framing each. */
export function promptTokens(messages: readonly Message[]): number {
  let total = 3;
  for (const m of messages) total += 4 + approxTokens(messageText(m));
  return total;
}

/** The deterministic reply a simulated model gives: same prompt and model, same words. */
export function fakeAnswer(messages: readonly Message[], model: string): string {
  const user = [...messages].reverse().find((m) => m.role === 'user');
  const last = user ? messageText(user) : '';
  const h = stableHash(`${model}\u0000${last}`);
  const topic = last.trim().split(/\s+/).slice(0, 8).join(' ');
  return `${OPENERS[h % OPENERS.length]} You asked (${model}): "${topic}". ${BODIES[(h >>> 8) % BODIES.length]}`;
}

/** Cuts a reply to at most `maxTokens` of the same heuristic; reports whether it was cut. */
export function truncateToTokens(text: string, maxTokens: number | undefined): { text: string; truncated: boolean } {
  if (maxTokens === undefined || approxTokens(text) <= maxTokens) return { text, truncated: false };
  return { text: text.slice(0, maxTokens * 4), truncated: true };
}
