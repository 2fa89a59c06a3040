import type { ViewReport } from '../../src/eval/html/report-view.js';
import type { ExpectationResult } from '../../src/eval/expectations.js';
import type { EvalReport } from '../../src/eval/report-types.js';
import { runEval } from '../../src/eval/run-eval.js';
import { silentLogger } from './helpers.js';
import { HOSTILE_ANSWER, HOSTILE_ID } from './report-fixture.js';

const asked = (req: unknown, text: string) => JSON.stringify(req).includes(text);

/**
 * A real run (4 cases × 3 targets × 2 repeats) given the fields issue 35 adds (columns, intervals,
 * comparisons, power, a baseline, a suggestion, judge verdicts with scores, a grader error, cached
 * runs), as the run and report helpers' code will write them. `plain` on good:g-1 answers differently
 * per repeat; `greet` passes everywhere; `json` passes where answered (down:d-1 errs); `plain` and
 * the hostile case divide good from evil.
 */
export async function viewerReport(): Promise<{ report: EvalReport; view: ViewReport }> {
  let plainCalls = 0;
  const report = await runEval({
    config: {
      providers: {
        good: {
          type: 'fake', respond: (req: unknown) => ({
            text: asked(req, 'JSON?') ? '{"yes": true}' : asked(req, 'Say hello') ? 'Hello there' : asked(req, 'Say yes') ? (plainCalls++ === 0 ? 'yes' : 'Yes, certainly.') : 'ok',
          }),
        },
        evil: { type: 'fake', respond: (req: unknown) => ({ text: asked(req, 'JSON?') ? '{"ok": 1}' : asked(req, 'Say hello') ? 'hello <b>friend</b>' : HOSTILE_ANSWER }) },
        down: { type: 'fake', respond: (req: unknown) => (asked(req, 'Say hello') ? { text: 'hello' } : { fail: 'content_filter' }) },
      },
      chains: { main: ['good:g-1', 'evil:e-1', 'down:d-1'] },
      prices: { 'g-1': { inputPerMTok: 1, outputPerMTok: 2 } },
    },
    chain: 'main',
    cases: [
      { id: 'plain', prompt: 'Say yes', expect: { contains: 'yes' } },
      { id: HOSTILE_ID, prompt: '<i>prompt</i>', expect: { maxLength: 10 } },
      { id: 'json', prompt: 'JSON?', expect: { json: true } },
      { id: 'greet', prompt: 'Say hello', expect: { contains: 'hello' } },
    ],
    repeat: 2,
    concurrency: 1,
    routerOptions: { logger: silentLogger },
  });
  const view = report as unknown as ViewReport;
  const judge = (pass: boolean, score: number, reason: string) => ({ name: 'judge', pass, score, reason }) as unknown as ExpectationResult;
  for (const run of view.runs) {
    run.column = run.target;
    run.weight = 1;
    if (run.caseId === 'plain' && run.target === 'good:g-1') {
      run.checks.push(judge(true, 0.9, 'answers yes clearly'));
      run.cached = true;
      run.graderCostUsd = 0.0002;
    }
    if (run.caseId === 'plain' && run.target === 'evil:e-1') run.checks.push(judge(false, 0.1, 'answer is markup, not yes'));
    if (run.caseId === 'json' && run.target === 'evil:e-1' && run.repeat === 1) run.gradeError = { expectation: 'judge', message: 'judge answered no JSON verdict' };
  }
  view.targets.forEach((t, i) => Object.assign(t, {
    column: t.key, score: t.passRate, gradeErrors: i === 1 ? 1 : 0, graderCostUsd: i === 0 ? 0.0004 : null, cachedRuns: i === 0 ? 2 : 0,
    passInterval: [[0.53, 1], [0.1, 0.7], [0, 0.5]][i],
  }));
  view.cases.forEach((c) => Object.assign(c, { weight: c.id === 'json' ? 2 : 1 }));
  view.cases.forEach((c) => c.cells.forEach((cell) => Object.assign(cell, { column: cell.target })));
  Object.assign(view, {
    version: 2,
    columns: view.targets.map((t) => t.key),
    judgeChain: 'judge',
    graderCostUsd: 0.0004,
    cache: { dir: '.switchyard/eval-cache', hits: 2, misses: 22 },
    comparisons: [
      { a: 'evil:e-1', b: 'down:d-1', n: 8, diff: 12.5, interval: [-20, 45], method: 'McNemar exact', shown: false, text: 'no difference shown at n=8' },
      { a: 'good:g-1', b: 'evil:e-1', n: 8, diff: 62.5, interval: [25, 90], method: 'McNemar exact', shown: true, text: 'good:g-1 beats evil:e-1 by +62 points [+25, +90]' },
    ],
    power: { pointsDetectable: 5, casesNeeded: 1540 },
    baseline: { file: 'old.json', regressions: [{ caseId: 'plain', column: 'evil:e-1' }], fixes: [{ caseId: 'json', column: 'good:g-1' }], missing: [] },
    suggestion: { chain: 'main', order: [{ column: 'good:g-1', reason: 'best score' }], pareto: ['good:g-1'], snippet: "chains: { main: ['good:g-1'] }" },
  });
  return { report, view };
}

/** A v1 report as large as the viewer must stay quick with: `cases` cases × 6 targets, one repeat. */
export async function largeReport(cases: number): Promise<EvalReport> {
  const providers = Object.fromEntries([0, 1, 2, 3, 4, 5].map((t) => [`p${t}`, {
    type: 'fake' as const,
    respond: (req: unknown) => {
      const i = Number(/Question (\d+)/.exec(JSON.stringify(req))?.[1]);
      return { text: (i + t) % 7 === 0 ? `no, not ${i}` : `yes ${i}: ${'an answer of some length '.repeat(8)}` };
    },
  }]));
  return runEval({
    config: { providers, chains: { main: [0, 1, 2, 3, 4, 5].map((t) => `p${t}:m${t}`) } },
    chain: 'main',
    cases: Array.from({ length: cases }, (_, i) => ({ id: `case-${i}`, prompt: `Question ${i}: say yes`, expect: { contains: 'yes' } })),
    routerOptions: { logger: silentLogger },
  });
}
