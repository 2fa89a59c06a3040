import { approxTokens } from './tokens.js';

/** Cuts a reply to at most `maxTokens` of the `approxTokens` heuristic (4 characters a token); reports whether it was cut. */
export function truncateToTokens(text: string, maxTokens: number | undefined): { text: string; truncated: boolean } {
  if (maxTokens === undefined || approxTokens(text) <= maxTokens) return { text, truncated: false };
  return { text: text.slice(0, Math.max(0, maxTokens) * 4), truncated: true };
}
