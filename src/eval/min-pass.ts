import type { EvalReport } from './report-types.js';

/**
 * Reads a `--min-pass` value: a rate from 0 to 1 (`0.9`) or a percentage with its sign (`90%`).
 * A bare number above 1 is refused rather than guessed at. Returns the rate, or an error message.
 */
export function parseMinPass(text: string): { rate: number } | { error: string } {
  const trimmed = text.trim();
  const percent = trimmed.endsWith('%');
  const body = percent ? trimmed.slice(0, -1).trim() : trimmed;
  const value = body === '' ? Number.NaN : Number(body);
  if (!Number.isFinite(value)) return { error: `--min-pass expects a rate like 0.9 or a percentage like 90%, got "${text}"` };
  const rate = percent ? value / 100 : value;
  if (rate < 0 || rate > 1) {
    return { error: percent || value < 0
      ? `--min-pass must be between 0% and 100%, got "${text}"`
      : `--min-pass must be a rate between 0 and 1 (write ${value}% for a percentage), got "${text}"` };
  }
  return { rate };
}

/** The report with `minPass` set: the columns (target keys, without prompts) whose pass rate is under `rate`. */
export function applyMinPass(report: EvalReport, rate: number): EvalReport {
  return { ...report, minPass: { rate, below: report.targets.filter((t) => t.passRate < rate - 1e-12).map((t) => t.column ?? t.key) } };
}
