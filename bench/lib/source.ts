import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { REPO_ROOT } from './profile.js';

/**
 * The folder the harness takes the project's own code from (simulator, token helpers): this checkout,
 * or with `--ref-now REF` the folder REF was materialised in (bench/run.ts sets BENCH_SRC_ROOT before
 * it loads any scenario, and child processes inherit it). The harness then runs even while the
 * working tree is mid-change and does not load.
 */
export const SRC_ROOT: string = process.env.BENCH_SRC_ROOT ?? REPO_ROOT;

/** Imports `rel` (e.g. `src/sim/index.ts`) from SRC_ROOT. */
export function srcImport<T>(rel: string): Promise<T> {
  return import(pathToFileURL(join(SRC_ROOT, rel)).href) as Promise<T>;
}
