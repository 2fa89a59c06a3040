import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { pino } from 'pino';
import { isRouterError } from '../../errors.js';
import { CasesError } from '../../eval/case-schema.js';
import type { EvalCase } from '../../eval/case-types.js';
import { renderHtmlReport } from '../../eval/html/html-report.js';
import { DEFAULT_CACHE_DIR } from '../../eval/cache/disk-cache.js';
import type { PromptVariant } from '../../eval/case-types.js';
import { loadEvalFile } from '../../eval/load-cases.js';
import { applyMinPass, parseMinPass } from '../../eval/min-pass.js';
import { progressReporter } from '../../eval/progress.js';
import { EVAL_DEFAULTS, runEval } from '../../eval/run-eval.js';
import { renderTerminalReport } from '../../eval/terminal-report.js';
import { parseShadowLog, renderShadowReport, summariseShadows } from '../../eval/shadow-report.js';
import { REDACT_PATHS } from '../../observe/redact.js';
import { UsageError, type CliCommand, type CliIO } from '../command.js';
import { cliConfig } from '../config-source.js';
import { compareBaseline } from '../../eval/baseline/compare-baseline.js';
import { renderMarkdownReport } from '../../eval/markdown/markdown-report.js';
import { suggestChain } from '../../eval/suggest/suggest-chain.js';
import { readBaselineRuns } from './eval-baseline.js';

const USAGE = `Usage: switchyard eval --cases FILE [--chain NAME] [options]
       switchyard eval --shadow-report FILE

Sends every case to every target of a chain directly (no fall-through: the point is to compare),
with the router's retries, breakers and budgets, and reports per target: pass rate, failed
expectations, error kinds, latency p50/p95, tokens, estimated cost and, with --repeat, stability;
per case, which targets disagree.

Options:
  --cases FILE        .jsonl (one case a line), .json (an array) or .ts (export default defineCases([...]))
  --chain NAME        the chain whose targets are compared (default: default)
  --config FILE       router config (default: ./router.config.ts if there is one, else the built-in default)
  --targets a,b       only these targets: provider:model, provider or model names
  --repeat N          runs of every case on every target (default: 1); N > 1 measures stability
  --concurrency N     calls in flight at once, across all targets (default: 4)
  --json OUT          write the full report as JSON
  --html OUT          write a self-contained HTML report: charts and a case-by-target grid
  --min-pass RATE     exit 1 when a target's pass rate is under RATE: 0.9 or 90%
  --baseline OLD.json compare with an earlier --json report: regressions (passed before, fail now) and fixes
  --fail-on-regression  with --baseline: exit 1 when any case regressed, naming each
  --md OUT            write a short Markdown summary (for a pull-request comment)
  --suggest           propose a chain order from score, cost and latency, as a chains.<name> snippet
  --judge-chain NAME  the chain that grades expect.judge (over eval.judgeChain; default: chain "judge")
  --embed-chain NAME  the embeddings chain of expect.similar (over eval.embedChain; default: "embed")
  --cache DIR         keep answers, judge verdicts and embeddings on disk (default: ${DEFAULT_CACHE_DIR})
  --no-cache          send every request again and store nothing
  --log-level LEVEL   router log lines on stderr (default: silent; the report records every failure)
  --shadow-report FILE  read the shadow events a gateway wrote (gateway.shadowLog, JSON lines) and print,
                      per chain and candidate: n, agreement, pass rate, judge mean, latency and cost vs real

Exit codes: 0 when every target is at or above --min-pass (or none was given), 1 when one is under
it, when --fail-on-regression finds a regression, or the run failed, 2 for a usage error.`;

const LOG_LEVELS = new Set(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']);

function count(flag: string, text: string | undefined, fallback: number): number {
  if (text === undefined) return fallback;
  if (!/^\d+$/.test(text) || Number(text) < 1) throw new UsageError(`--${flag} expects a whole number of at least 1, got "${text}"`);
  return Number(text);
}

function parse(argv: string[]) {
  try {
    return parseArgs({
      args: argv,
      strict: true,
      allowPositionals: false,
      options: {
        cases: { type: 'string' }, chain: { type: 'string' }, config: { type: 'string' }, targets: { type: 'string' },
        repeat: { type: 'string' }, concurrency: { type: 'string' }, json: { type: 'string' }, html: { type: 'string' },
        'min-pass': { type: 'string' }, 'log-level': { type: 'string' }, 'shadow-report': { type: 'string' },
        baseline: { type: 'string' }, 'fail-on-regression': { type: 'boolean' }, md: { type: 'string' }, suggest: { type: 'boolean' },
        'judge-chain': { type: 'string' }, 'embed-chain': { type: 'string' }, cache: { type: 'string' }, 'no-cache': { type: 'boolean' },
      },
    }).values;
  } catch (err) {
    throw new UsageError((err as Error).message.split('\n')[0]!);
  }
}

async function write(io: CliIO, file: string, text: string): Promise<string> {
  const path = resolve(io.cwd, file);
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, text);
  return path;
}

export const command: CliCommand = {
  name: 'eval',
  summary: 'compare every target of a chain on the same cases',
  usage: USAGE,
  async run(argv, io) {
    const values = parse(argv);
    if (values['shadow-report'] !== undefined) return shadowReport(io, values['shadow-report']);
    if (!values.cases) throw new UsageError('--cases FILE is required (a .jsonl, .json or .ts file of cases)');
    const repeat = count('repeat', values.repeat, EVAL_DEFAULTS.repeat);
    const concurrency = count('concurrency', values.concurrency, EVAL_DEFAULTS.concurrency);
    const minPass = values['min-pass'] === undefined ? undefined : parseMinPass(values['min-pass']);
    if (minPass && 'error' in minPass) throw new UsageError(minPass.error);
    const level = values['log-level'] ?? 'silent';
    if (!LOG_LEVELS.has(level)) throw new UsageError(`--log-level must be one of ${[...LOG_LEVELS].join(', ')}, got "${level}"`);
    const targets = values.targets?.split(',').map((t) => t.trim()).filter(Boolean);
    if (values['fail-on-regression'] && !values.baseline) throw new UsageError('--fail-on-regression needs --baseline OLD.json');
    const baselineRuns = values.baseline ? await readBaselineRuns(io, values.baseline) : undefined;

    if (values.cache !== undefined && values['no-cache']) throw new UsageError('give --cache DIR or --no-cache, not both');
    const cache = values['no-cache'] ? false : resolve(io.cwd, values.cache ?? DEFAULT_CACHE_DIR);
    let cases: EvalCase[];
    let prompts: PromptVariant[] | undefined;
    try {
      ({ cases, prompts } = await loadEvalFile(values.cases, io.cwd));
    } catch (err) {
      if (err instanceof CasesError) throw new UsageError(err.message);
      throw err;
    }
    const config = await cliConfig(io, values.config, io.env).catch((err: unknown) => {
      throw isRouterError(err) ? new UsageError(err.message) : err;
    });
    const logger = pino({ name: 'switchyard', level, redact: { paths: [...REDACT_PATHS], censor: '[REDACTED]' } }, { write: (line: string) => io.stderr(line) });
    const progress = progressReporter({ write: io.stderr, isTTY: io.isTTY });

    let report;
    try {
      report = await runEval({
        config, chain: values.chain ?? EVAL_DEFAULTS.chain, cases, repeat, concurrency,
        ...(targets && targets.length > 0 ? { targets } : {}),
        ...(prompts ? { prompts } : {}),
        ...(values['judge-chain'] ? { judgeChain: values['judge-chain'] } : {}),
        ...(values['embed-chain'] ? { embedChain: values['embed-chain'] } : {}),
        cache,
        onProgress: (p) => progress.update(p),
        routerOptions: { logger, env: io.env },
      });
    } catch (err) {
      // An unknown chain or target, or a config the router refuses, is the user's to fix.
      if (isRouterError(err) && (err.kind === 'invalid_request' || err.kind === 'config')) throw new UsageError(err.message);
      throw err;
    } finally {
      progress.finish();
    }
    if (minPass) report = applyMinPass(report, minPass.rate);
    if (baselineRuns) report = Object.assign({}, report, { baseline: compareBaseline(values.baseline!, baselineRuns, report.runs) });
    if (values.suggest) report = Object.assign({}, report, { suggestion: suggestChain(report) });
    const regressed = values['fail-on-regression'] ? report.baseline?.regressions ?? [] : [];

    io.stdout(renderTerminalReport(report));
    if (values.json) io.stdout(`JSON report: ${await write(io, values.json, `${JSON.stringify(report, null, 2)}\n`)}\n`);
    if (values.html) io.stdout(`HTML report: ${await write(io, values.html, renderHtmlReport(report))}\n`);
    if (values.md) io.stdout(`Markdown summary: ${await write(io, values.md, renderMarkdownReport(report))}\n`);
    if (regressed.length > 0) io.stdout(`--fail-on-regression: ${regressed.length} regressed: ${regressed.map((r) => `${r.caseId} on ${r.column}`).join(', ')}\n`);
    return (report.minPass && report.minPass.below.length > 0) || regressed.length > 0 ? 1 : 0;
  },
};

/** `--shadow-report FILE`: the shadow events a gateway wrote, summarised per chain and candidate. */
async function shadowReport(io: CliIO, file: string): Promise<number> {
  let text: string;
  try {
    text = await readFile(resolve(io.cwd, file), 'utf8');
  } catch (err) {
    throw new UsageError(`--shadow-report: cannot read ${file}: ${(err as Error).message}`);
  }
  io.stdout(renderShadowReport(summariseShadows(parseShadowLog(text))));
  return 0;
}
