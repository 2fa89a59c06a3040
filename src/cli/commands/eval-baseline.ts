import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { RunRecord } from '../../eval/report-types.js';
import { UsageError, type CliIO } from '../command.js';

/** The runs of a `--json` report given to `--baseline` (any version from 1); a file that is not one is a usage error. */
export async function readBaselineRuns(io: CliIO, file: string): Promise<RunRecord[]> {
  let text: string;
  try {
    text = await readFile(resolve(io.cwd, file), 'utf8');
  } catch (err) {
    throw new UsageError(`--baseline ${file}: cannot read it (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
  }
  let report: { version?: unknown; runs?: unknown };
  try {
    report = JSON.parse(text) as typeof report;
  } catch (err) {
    throw new UsageError(`--baseline ${file}: not JSON (${(err as Error).message})`);
  }
  const version = typeof report?.version === 'number' ? report.version : 0;
  if (version < 1 || !Array.isArray(report.runs)) throw new UsageError(`--baseline ${file}: not a switchyard eval report (write one with --json)`);
  return report.runs as RunRecord[];
}
