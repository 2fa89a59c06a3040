/**
 * A grader (the judge, an embedding comparison) could not give a verdict: its chain was unreachable,
 * or it answered something that is not a verdict. It is the grader's failure, never the target's:
 * the run is recorded with `gradeError` and counts in no pass rate.
 */
export class GraderError extends Error {
  constructor(
    /** The expectation that could not be graded: `judge` or `similar`. */
    readonly expectation: 'judge' | 'similar',
    message: string,
    /** USD the grader's calls cost before it failed; null when none was priced. */
    readonly costUsd: number | null = null,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'GraderError';
  }
}

/** True for a GraderError (also one from another copy of the package). */
export function isGraderError(err: unknown): err is GraderError {
  return err instanceof Error && err.name === 'GraderError' && typeof (err as GraderError).expectation === 'string';
}
