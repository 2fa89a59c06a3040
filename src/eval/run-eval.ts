import { systemClock } from '../time/system-clock.js';
import type { Clock } from '../types.js';
import type { SwitchyardConfig, Target } from '../config/index.js';
import { providerSecrets } from '../config/secret-fields.js';
import { RouterError } from '../errors.js';
import { secretRedactor } from '../observe/redact.js';
import { createRouter, type Router, type RouterOptions } from '../router.js';
import { DiskCache } from './cache/disk-cache.js';
import { parseCases } from './case-schema.js';
import type { CaseInput, EvalCase, PromptVariant } from './case-types.js';
import { EmbedMemo } from './graders/embed-memo.js';
import { graderChains } from './graders/grader-chains.js';
import { checkPrompts, columnOf } from './prompts.js';
import { priceFor } from './cost.js';
import { evalChainName, selectTargets, withEvalChains } from './eval-chains.js';
import { withAnalysis, type UnanalysedReport } from './analyse.js';
import { runPool } from './pool.js';
import type { EvalReport, RunRecord } from './report-types.js';
import { runOnce, type RunJob } from './run-once.js';
import { summariseCase } from './summarise-case.js';
import { summariseTarget } from './summarise-target.js';

/** Where a running eval is, after each finished run. */
export interface EvalProgress {
  done: number;
  total: number;
  passed: number;
  failed: number;
  errored: number;
  /** Runs a grader gave no verdict for (neither passed nor failed); counted in none of the three above. */
  gradeErrors?: number;
  last: RunRecord;
}

/** Options for `runEval`. Give `config` (eval builds and closes its own router) or a `router` built from `withEvalChains`. */
export interface EvalOptions {
  config?: SwitchyardConfig;
  router?: Router;
  /** Logger, clock, store, env for the router eval builds from `config`. */
  routerOptions?: RouterOptions;
  /** @default 'default' */
  chain?: string;
  /** Cases from `loadCases`, or written inline (validated the same way). */
  cases: ReadonlyArray<CaseInput | EvalCase>;
  /** Only these targets (`provider:model`, provider or model). @default every target of the chain */
  targets?: readonly string[];
  /** Runs of every case on every target. @default 1 */
  repeat?: number;
  /** Calls in flight at once, across all targets. @default 4 */
  concurrency?: number;
  /**
   * The longest one run waits, in total, for a target that is only out of capacity for a while
   * (cooling after a 429, its `limits` full) before the run is recorded as an error. @default 60000
   */
  capacityWaitMs?: number;
  /** Prompt variants: every case runs under each (`{{var}}` filled from its `vars`), one column per target x prompt. */
  prompts?: readonly PromptVariant[];
  /** The judge chain, over the config's `eval.judgeChain` (a case's `expect.judge.chain` wins). @default 'judge' when declared */
  judgeChain?: string;
  /** The embeddings chain of `similar`, over `eval.embedChain` (a case's own `chain` wins). @default 'embed' (else 'embeddings') when declared */
  embedChain?: string;
  /**
   * The disk cache of answers, judge verdicts and embeddings: a directory, or `false` for none.
   * A re-run with nothing changed sends no request. The CLI's default is DEFAULT_CACHE_DIR
   * (`.switchyard/eval-cache`); a library call writes nothing unless asked. @default false
   */
  cache?: string | false;
  /** Called after every run; an error it throws is ignored. */
  onProgress?: (progress: EvalProgress) => void;
  /** Stops starting calls and aborts the ones in flight; `runEval` then rejects with kind `aborted`. */
  signal?: AbortSignal;
}

export const EVAL_DEFAULTS = Object.freeze({ chain: 'default', repeat: 1, concurrency: 4, capacityWaitMs: 60_000 });

function positiveInt(name: string, value: number): number {
  if (!Number.isInteger(value) || value < 1) throw new RouterError('invalid_request', `${name} must be a positive integer, got ${value}`);
  return value;
}

function prepare(options: EvalOptions, chain: string): { router: Router; targets: Target[]; owned: boolean } {
  if (options.router) {
    const router = options.router;
    const chains = router.config.chains;
    const chainTargets = Object.hasOwn(chains, chain) ? chains[chain] : undefined;
    if (!chainTargets) throw new RouterError('invalid_request', `unknown chain "${chain}" (declared: ${Object.keys(router.config.chains).join(', ')})`);
    const targets = selectTargets(chainTargets, chain, options.targets);
    const missing = targets.filter((t) => !Object.hasOwn(chains, evalChainName(t)));
    if (missing.length > 0) {
      throw new RouterError('invalid_request', `the router has no eval chain for ${missing.map((t) => t.key).join(', ')}: build it from withEvalChains(config, chain)`);
    }
    return { router, targets, owned: false };
  }
  if (!options.config) throw new RouterError('invalid_request', 'runEval needs a config or a router');
  const prepared = withEvalChains(options.config, chain, options.targets, options.routerOptions?.env);
  return { router: createRouter(prepared.config, options.routerOptions), targets: prepared.targets, owned: true };
}

/**
 * Runs every case against every target of a chain directly (no fall-through), `repeat` times, with at
 * most `concurrency` calls in flight (under each of `prompts`, when given), and summarises per column
 * (target x prompt) and per case. A failing target is recorded, never fatal; a failing grader is a
 * run's `gradeError`. Answers, verdicts and embeddings are kept in the disk cache (`cache`). The
 * report's order is fixed (case, column, repeat) whatever finishes first.
 * @example
 * const report = await runEval({ config, chain: 'default', cases: await loadCases('cases.jsonl') });
 */
export async function runEval(options: EvalOptions): Promise<EvalReport> {
  const chain = options.chain ?? EVAL_DEFAULTS.chain;
  const repeat = positiveInt('repeat', options.repeat ?? EVAL_DEFAULTS.repeat);
  const concurrency = positiveInt('concurrency', options.concurrency ?? EVAL_DEFAULTS.concurrency);
  const capacityWaitMs = options.capacityWaitMs ?? EVAL_DEFAULTS.capacityWaitMs;
  if (!(capacityWaitMs >= 0)) throw new RouterError('invalid_request', `capacityWaitMs must be 0 or more, got ${capacityWaitMs}`);
  const cases = parseCases(options.cases, (i) => `cases[${i}]`);
  const clock: Clock = options.routerOptions?.clock ?? systemClock;
  const prompts = options.prompts && options.prompts.length > 0 ? options.prompts : undefined;
  checkPrompts(prompts, cases);
  const { router, targets, owned } = prepare(options, chain);
  let chains;
  try {
    chains = graderChains(cases, { judgeOption: options.judgeChain, embedOption: options.embedChain, config: router.config.eval, chains: router.config.chains });
  } catch (err) {
    if (owned) await router.close();
    throw err;
  }
  const cache = typeof options.cache === 'string' ? new DiskCache(options.cache) : undefined;
  const models = cases.some((c) => c.expect.judge || c.expect.similar)
    ? { router, chains, embeds: new EmbedMemo(router, cache, options.signal), cache, signal: options.signal }
    : undefined;

  // Columns: each target, under each prompt in order.
  const columns = targets.flatMap((target) => (prompts ?? [undefined]).map((prompt) => ({ target, prompt, column: columnOf(target.key, prompt) })));
  const jobs: RunJob[] = [];
  // Interleaved so every column advances at the same pace and the progress bar is representative.
  for (const evalCase of cases) for (let r = 0; r < repeat; r++) for (const { target, prompt } of columns) jobs.push(prompt ? { evalCase, target, repeat: r, prompt } : { evalCase, target, repeat: r });
  const prices = router.config.prices;
  const redact = secretRedactor(Object.values(router.config.providers).flatMap(providerSecrets));
  const startedAtMs = clock.now();
  const tally = { done: 0, passed: 0, failed: 0, errored: 0, gradeErrors: 0 };
  let runs: RunRecord[];
  try {
    runs = await runPool(jobs, concurrency, async (job) => {
      const run = await runOnce(job, { router, clock, price: priceFor(prices, job.target, router.config.providers), redact, signal: options.signal, capacityWaitMs, cache, models });
      tally.done++;
      if (run.gradeError) tally.gradeErrors++;
      else if (run.pass) tally.passed++;
      else if (run.ok) tally.failed++;
      else tally.errored++;
      try {
        options.onProgress?.({ ...tally, total: jobs.length, last: run });
      } catch {
        // A broken progress display must not abandon calls in flight; the report still comes back.
      }
      return run;
    }, options.signal);
  } finally {
    if (owned) await router.close();
  }
  if (options.signal?.aborted) throw new RouterError('aborted', `eval aborted after ${tally.done} of ${jobs.length} runs`, { cause: options.signal.reason });

  const caseIndex = new Map(cases.map((c, i) => [c.id, i]));
  const columnIndex = new Map(columns.map((c, i) => [c.column, i]));
  runs.sort((a, b) => caseIndex.get(a.caseId)! - caseIndex.get(b.caseId)! || columnIndex.get(a.column)! - columnIndex.get(b.column)! || a.repeat - b.repeat);
  const runsByCase = new Map<string, RunRecord[]>();
  for (const run of runs) {
    const list = runsByCase.get(run.caseId);
    if (list) list.push(run);
    else runsByCase.set(run.caseId, [run]);
  }

  const refs = columns.map((c) => Object.assign({ column: c.column, target: c.target.key }, c.prompt ? { prompt: c.prompt.id } : {}));
  const graderCosts = runs.filter((r) => r.graderCostUsd !== undefined);
  const report: UnanalysedReport = {
    version: 2,
    chain,
    startedAt: new Date(startedAtMs).toISOString(),
    durationMs: clock.now() - startedAtMs,
    repeat,
    concurrency,
    targets: columns.map((c, i) => summariseTarget(c.target, runs.filter((r) => r.column === c.column), repeat, priceFor(prices, c.target, router.config.providers), refs[i])),
    columns: columns.map((c) => c.column),
    graderCostUsd: graderCosts.length === 0 ? null : graderCosts.reduce((sum, r) => sum + r.graderCostUsd!, 0),
    cases: cases.map((c) => summariseCase(c, refs, runsByCase.get(c.id) ?? [])),
    runs,
  };
  if (prompts) report.prompts = prompts.map((p) => ({ id: p.id, template: p.template }));
  if (chains.judge !== undefined && cases.some((c) => c.expect.judge)) report.judgeChain = chains.judge;
  if (chains.embed !== undefined && cases.some((c) => c.expect.similar)) report.embedChain = chains.embed;
  if (cache) report.cache = { dir: cache.dir, hits: cache.hits, misses: cache.misses };
  return withAnalysis(report);
}
