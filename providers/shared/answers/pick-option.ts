import { cueCount } from './lexicon.js';

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** `text` without the spans that list two or more of the options ("positive, negative or neutral"). */
export function withoutOptionLists(text: string, options: readonly string[]): string {
  const alt = options.map(escape).join('|');
  const list = new RegExp(`(?<![\\p{L}\\p{N}])(?:${alt})(?:\\s*(?:,|/|\\||\\bor\\b|\\band\\b)\\s*(?:or\\s+|and\\s+)?(?:${alt}))+(?![\\p{L}\\p{N}])`, 'giu');
  return text.replace(list, ' ');
}

/**
 * The option a simulated model picks for `subject`: one the subject names itself (outside any list
 * of the options), else the one whose cues (`cueCount`) occur most, the earlier on a tie; undefined
 * when nothing in the subject points to any.
 */
export function pickOption<T>(options: readonly T[], subject: string): T | undefined {
  const labels = options.map((o) => String(o));
  const text = withoutOptionLists(subject, labels);
  let best: T | undefined;
  let bestScore = 0;
  options.forEach((option, i) => {
    const label = labels[i]!;
    const named = label.trim() === '' ? 0 : (text.match(new RegExp(`(?<![\\p{L}\\p{N}])${escape(label)}(?![\\p{L}\\p{N}])`, 'giu')) ?? []).length;
    const score = named * 100 + cueCount(label, text);
    if (score > bestScore) [best, bestScore] = [option, score];
  });
  return best;
}
