import { UsageError } from './command.js';

/**
 * Runs a strict `node:util` parseArgs and turns its errors into one-line `UsageError`s
 * ("Unknown option '--bogus'"), never a stack trace.
 * @example const { values } = parseFlags(() => parseArgs({ args: argv, options, strict: true }));
 */
export function parseFlags<T>(parse: () => T): T {
  try {
    return parse();
  } catch (err) {
    // Node appends advice about `--` to unknown options; the first sentence is the useful part.
    throw new UsageError((err as Error).message.split('\n')[0]!.replace(/\. To specify a positional.*$/, ''));
  }
}

/** A whole-number flag: undefined when absent, a `UsageError` naming the flag when malformed. */
export function wholeNumberFlag(flag: string, text: string | undefined, min = 1, max = Number.MAX_SAFE_INTEGER): number | undefined {
  if (text === undefined) return undefined;
  const n = Number(text);
  if (!/^\d+$/.test(text) || n < min || n > max) {
    throw new UsageError(`--${flag} expects a whole number ${max < Number.MAX_SAFE_INTEGER ? `from ${min} to ${max}` : `of at least ${min}`}, got "${text}"`);
  }
  return n;
}
