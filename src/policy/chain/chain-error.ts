import { RouterError, type RouterErrorFacts } from '../../errors.js';

/**
 * The `exhausted` / `unsupported` a walk of a chain throws once no target answered, with the
 * per-target reasons its message lists as data (`failures`: "target kind status (back in …)" for
 * `exhausted`, "target: why it refused" for `unsupported`), so a caller that joins several walks
 * (hedging) combines the lists, not the message text.
 */
export class ChainError extends RouterError {
  readonly failures: readonly string[];

  /** `note` ends the message with what no single target's reason says (why the call did not wait). */
  constructor(kind: 'exhausted' | 'unsupported', chain: string, failures: readonly string[], facts: RouterErrorFacts = {}, note = '') {
    super(kind, ChainError.describe(kind, chain, failures) + note, facts);
    this.failures = failures;
  }

  /** The message of a chain's walk that ended with these per-target reasons. */
  static describe(kind: 'exhausted' | 'unsupported', chain: string, failures: readonly string[]): string {
    return kind === 'unsupported'
      ? `no target of chain "${chain}" can carry this request: ${failures.join('; ')}`
      : `every target of chain "${chain}" failed or was skipped: ${failures.join('; ')}`;
  }
}
