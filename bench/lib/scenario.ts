import type { StoppingRule } from './noise.js';
import type { RouterSource } from './refs.js';
import type { ScenarioReport } from './report.js';

/** What every scenario gets from bench/run.ts. */
export interface BenchContext {
  /** Small and fast: a smoke test of the harness, not a measurement. */
  quick: boolean;
  /** Where result files (and profiles) go. */
  outDir: string;
  /** A progress line on stderr. */
  log(line: string): void;
  /**
   * Where the router's code comes from: `now` is the working tree (or `--ref-now REF`); `before`, only
   * with `--baseline-ref REF`, is the extra arm "router (before: REF)" of the overhead and memory scenarios;
   * `beforeTwin` is REF materialised a second time, so that the overhead scenario's A/A twin imports its
   * own copy of the router's modules, as the router now and before do.
   */
  sources: { now: RouterSource; before?: RouterSource; beforeTwin?: RouterSource };
  /**
   * Overrides of the stopping rule (bench/lib/noise.ts) from --ci-width, --min-rounds, --max-rounds and
   * --max-minutes; each scenario that adds rounds until its intervals are tight has its own defaults.
   */
  stopping?: Partial<StoppingRule>;
}

export interface BenchScenario {
  name: string;
  title: string;
  run(ctx: BenchContext): Promise<ScenarioReport>;
}
