import type { ScenarioReport } from './report.js';

/** What every scenario gets from bench/run.ts. */
export interface BenchContext {
  /** Small and fast: a smoke test of the harness, not a measurement. */
  quick: boolean;
  /** Where result files (and profiles) go. */
  outDir: string;
  /** A progress line on stderr. */
  log(line: string): void;
}

export interface BenchScenario {
  name: string;
  title: string;
  run(ctx: BenchContext): Promise<ScenarioReport>;
}
