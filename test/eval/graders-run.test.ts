import { afterEach, describe, expect, it } from 'vitest';
import type { SwitchyardConfig } from '../../src/config/index.js';
import { withEvalChains } from '../../src/eval/eval-chains.js';
import { runEval } from '../../src/eval/run-eval.js';
import { createRouter, type Router } from '../../src/router.js';
import { adapterOf, fakeJudge, fakeRequests, type FakeAdapter } from '../../src/testing/index.js';
import type { ProviderRequest } from '../../providers/types.js';
import { VirtualClock } from '../support/virtual-clock.js';
import { silentLogger } from './helpers.js';

const promptOf = (request: unknown) => String((request as ProviderRequest).messages.at(-1)!.content);
let router: Router | undefined;
afterEach(async () => { await router?.close(); router = undefined; });

/** `paris` answers "Paris" to everything, `lyon` answers "Lyon"; the judge gives 0.9 to an answer naming Paris, else 0.2. */
function build(extra: Partial<SwitchyardConfig> = {}, providers: SwitchyardConfig['providers'] = {}, chain = 'main'): Router {
  const config: SwitchyardConfig = {
    providers: {
      paris: { type: 'fake', respond: () => ({ text: 'Paris' }) },
      lyon: { type: 'fake', respond: () => ({ text: 'Lyon' }) },
      grader: fakeJudge(({ answer }) => (answer.includes('Paris') ? { score: 0.9, reason: 'names Paris' } : { score: 0.2, reason: 'does not name Paris' })),
      vectors: { type: 'fake' },
      ...providers,
    },
    chains: { main: ['paris:p-1', 'lyon:l-1'], judge: ['grader:j-1'], embed: ['vectors:e-1'] },
    retry: { maxAttempts: 2, baseDelayMs: 1, maxDelayMs: 1 },
    ...extra,
  };
  router = createRouter(withEvalChains(config, chain).config, { logger: silentLogger, clock: new VirtualClock() });
  return router;
}

const capital = { id: 'capital', prompt: 'Capital of France?', expect: { judge: { rubric: 'Names Paris as the capital.' } } };

describe('expect.judge', () => {
  it('passes the answer the judge scores at minScore or more and fails the other, one judge request per answer', async () => {
    const r = build();
    const report = await runEval({ router: r, chain: 'main', cases: [capital] });
    expect(report.runs.map((run) => [run.target, run.pass, run.checks])).toEqual([
      ['paris:p-1', true, [{ name: 'judge', pass: true, reason: 'names Paris', score: 0.9 }]],
      ['lyon:l-1', false, [{ name: 'judge', pass: false, reason: 'score 0.2 < 0.7: does not name Paris', score: 0.2 }]],
    ]);
    expect(report.judgeChain).toBe('judge');
    expect([fakeRequests(r, 'paris').length, fakeRequests(r, 'lyon').length, fakeRequests(r, 'grader').length]).toEqual([1, 1, 2]);
    expect(report.targets.map((t) => t.failuresByExpectation)).toEqual([{}, { judge: 1 }]);
  });

  it('takes the case minScore and the case chain over --judge-chain, over eval.judgeChain, over the chain "judge"', async () => {
    const strict = fakeJudge(() => ({ score: 0.95, reason: 'strict' }));
    const r = build({ eval: { judgeChain: 'fromConfig' }, chains: { main: ['paris:p-1'], judge: ['grader:j-1'], fromConfig: ['cfg:j'], fromOption: ['opt:j'], fromCase: ['own:j'] } },
      { cfg: strict, opt: strict, own: strict });
    await runEval({ router: r, chain: 'main', cases: [capital] });
    await runEval({ router: r, chain: 'main', cases: [capital], judgeChain: 'fromOption' });
    const own = await runEval({ router: r, chain: 'main', judgeChain: 'fromOption', cases: [{ ...capital, expect: { judge: { rubric: 'x', minScore: 0.99, chain: 'fromCase' } } }] });
    expect(['grader', 'cfg', 'opt', 'own'].map((p) => fakeRequests(r, p).length)).toEqual([0, 1, 1, 1]);
    expect(own.runs[0]).toMatchObject({ pass: false, checks: [{ name: 'judge', score: 0.95, reason: 'score 0.95 < 0.99: strict' }] });
  });

  it('records a malformed verdict as a grader error: neither pass nor fail, in gradeErrors, the target asked once', async () => {
    const r = build({}, { grader: fakeJudge(({ answer }) => (answer === 'Lyon' ? 'I would say 8/10.' : { score: 1 })) });
    const report = await runEval({ router: r, chain: 'main', cases: [capital, { id: 'other', prompt: 'Say something', expect: { contains: 'Lyon' } }] });
    const lyon = report.runs.find((run) => run.target === 'lyon:l-1' && run.caseId === 'capital')!;
    expect(lyon).toMatchObject({ ok: true, pass: false, gradeError: { expectation: 'judge', message: expect.stringMatching(/not a verdict/) } });
    expect(lyon.error).toBeUndefined();
    const summary = report.targets.find((t) => t.key === 'lyon:l-1')!;
    // Graded: only "other", which Lyon passes. The malformed verdict blames neither.
    expect(summary).toMatchObject({ runs: 2, passed: 1, failed: 0, errored: 0, gradeErrors: 1, passRate: 1, score: 1, failuresByExpectation: {} });
    expect(report.cases[0]!.cells[1]).toMatchObject({ column: 'lyon:l-1', status: 'error', errorKinds: ['grade_error'] });
    expect([fakeRequests(r, 'lyon').length, fakeRequests(r, 'grader').length]).toEqual([2, 2]);
  });

  it('records an unreachable judge as a grader error after the router retried it', async () => {
    const r = build({}, { grader: fakeJudge(() => ({ fail: 'server' })) });
    const report = await runEval({ router: r, chain: 'main', cases: [capital], targets: ['paris'] });
    expect(report.runs[0]).toMatchObject({ ok: true, requests: 1, gradeError: { expectation: 'judge', message: expect.stringMatching(/judge \(chain "judge"\) did not answer/) } });
    expect(report.targets[0]).toMatchObject({ gradeErrors: 1, passRate: 0, errored: 0 });
    expect(fakeRequests(r, 'grader')).toHaveLength(2);
  });

  it('reports the judge\'s cost apart from the targets\' cost', async () => {
    const r = build({ prices: { 'grader:j-1': { inputPerMTok: 1_000_000, outputPerMTok: 0 }, 'paris:p-1': { inputPerMTok: 0, outputPerMTok: 0 } } });
    const report = await runEval({ router: r, chain: 'main', cases: [capital], targets: ['paris'] });
    const run = report.runs[0]!;
    expect(run.costUsd).toBe(0);
    expect(run.graderCostUsd).toBeGreaterThan(0);
    expect(report.targets[0]).toMatchObject({ costUsd: 0, graderCostUsd: run.graderCostUsd });
    expect(report.graderCostUsd).toBe(run.graderCostUsd);
  });

  it('refuses, before any request, a judge case with no judge chain, naming the case', async () => {
    const r = build({ chains: { main: ['paris:p-1'] } });
    await expect(runEval({ router: r, chain: 'main', cases: [capital] })).rejects.toMatchObject({ kind: 'config', message: expect.stringMatching(/case "capital": expect\.judge needs a judge chain/) });
    await expect(runEval({ router: r, chain: 'main', cases: [capital], judgeChain: 'nope' })).rejects.toThrow(/case "capital": expect\.judge: unknown chain "nope"/);
    expect(fakeRequests(r, 'paris')).toHaveLength(0);
  });
});

describe('expect.similar', () => {
  it('passes an answer whose embedding is near one of the references and fails one below minScore, embedding the references once per run', async () => {
    // The fake's vectors are a hash of the text: the same text is similarity 1, another text near 0.
    const r = build();
    const report = await runEval({ router: r, chain: 'main', cases: [{ id: 'sim', prompt: 'Capital?', expect: { similar: { to: ['The capital is Paris.', 'Paris'] } } }] });
    expect(report.runs.map((run) => [run.target, run.pass, run.checks[0]!.score! > 0.999])).toEqual([['paris:p-1', true, true], ['lyon:l-1', false, false]]);
    expect(report.runs[0]!.checks[0]!.reason).toBe('similarity 1 >= 0.8 (nearest: reference 2 of 2)');
    expect(report.runs[1]!.checks[0]!.reason).toMatch(/^similarity -?0\.\d+ < 0\.8/);
    expect(report.embedChain).toBe('embed');
    // One request for the two references; an answer is embedded unless the run already has its vector
    // ("Paris" is a reference): two requests in all.
    expect((adapterOf(r, 'vectors') as FakeAdapter).embedRequests.map((q) => q.input)).toEqual([['The capital is Paris.', 'Paris'], ['Lyon']]);
  });
});

describe('maxLatencyMs, maxCostUsd and weight', () => {
  it('fails an answer slower than maxLatencyMs, dearer than maxCostUsd, or with no price to check', async () => {
    const r = build({ prices: { 'paris:p-1': { inputPerMTok: 1_000_000, outputPerMTok: 0 } } }, { lyon: { type: 'fake', latencyMs: 500, respond: () => ({ text: 'Lyon' }) } });
    // One call at a time: the virtual clock moves only by the slow target's own latency.
    const report = await runEval({ router: r, chain: 'main', concurrency: 1, cases: [
      { id: 'fast', prompt: 'q', expect: { maxLatencyMs: 100 } },
      { id: 'cheap', prompt: 'q', expect: { maxCostUsd: 0.5 } },
      { id: 'affordable', prompt: 'q', expect: { maxCostUsd: 1_000 } },
    ] });
    const verdicts = report.runs.map((run) => [run.caseId, run.target, run.pass, run.checks[0]!.reason]);
    expect(verdicts).toEqual([
      ['fast', 'paris:p-1', true, undefined], ['fast', 'lyon:l-1', false, '500 ms > 100 ms'],
      ['cheap', 'paris:p-1', false, expect.stringMatching(/^\$\d+ > \$0\.5$/)], ['cheap', 'lyon:l-1', false, 'cost unknown (no price for the target)'],
      ['affordable', 'paris:p-1', true, undefined], ['affordable', 'lyon:l-1', false, 'cost unknown (no price for the target)'],
    ]);
  });

  it('scores a column by the weighted mean of pass, while passRate stays unweighted', async () => {
    const r = build();
    const report = await runEval({ router: r, chain: 'main', cases: [
      { id: 'heavy', prompt: 'q', weight: 3, expect: { equals: 'Paris' } },
      { id: 'light', prompt: 'q', expect: { equals: 'Lyon' } },
    ] });
    expect(report.targets.map((t) => [t.column, t.passRate, t.score])).toEqual([['paris:p-1', 0.5, 0.75], ['lyon:l-1', 0.5, 0.25]]);
    expect(report.cases.map((c) => c.weight)).toEqual([3, 1]);
    expect(report.runs.map((run) => run.weight)).toEqual([3, 3, 1, 1]);
  });
});

describe('prompts x targets x cases', () => {
  const prompts = [{ id: 'terse', template: 'Capital of {{country}}? One word.' }, { id: 'chatty', template: 'Tell me about {{ country }}.' }];

  it('runs every case under every prompt on every target, one column per target and prompt', async () => {
    const r = build({}, { paris: { type: 'fake', respond: (req: unknown) => ({ text: promptOf(req).includes('One word') ? 'Paris' : 'France is lovely' }) } });
    const report = await runEval({ router: r, chain: 'main', prompts, cases: [
      { id: 'fr', vars: { country: 'France' }, expect: { equals: 'Paris' } },
      { id: 'de', system: 'Be brief.', vars: { country: 'Germany' }, expect: { contains: 'Paris' } },
    ] });
    expect(report.columns).toEqual(['paris:p-1 · terse', 'paris:p-1 · chatty', 'lyon:l-1 · terse', 'lyon:l-1 · chatty']);
    expect(report.prompts).toEqual(prompts);
    expect(report.runs.map((run) => [run.caseId, run.column, run.prompt, run.pass])).toEqual([
      ['fr', 'paris:p-1 · terse', 'terse', true], ['fr', 'paris:p-1 · chatty', 'chatty', false], ['fr', 'lyon:l-1 · terse', 'terse', false], ['fr', 'lyon:l-1 · chatty', 'chatty', false],
      ['de', 'paris:p-1 · terse', 'terse', true], ['de', 'paris:p-1 · chatty', 'chatty', false], ['de', 'lyon:l-1 · terse', 'terse', false], ['de', 'lyon:l-1 · chatty', 'chatty', false],
    ]);
    expect(report.targets.map((t) => [t.column, t.key, t.prompt, t.passed])).toEqual([
      ['paris:p-1 · terse', 'paris:p-1', 'terse', 2], ['paris:p-1 · chatty', 'paris:p-1', 'chatty', 0], ['lyon:l-1 · terse', 'lyon:l-1', 'terse', 0], ['lyon:l-1 · chatty', 'lyon:l-1', 'chatty', 0],
    ]);
    expect(report.cases[0]!.cells.map((c) => [c.column, c.target, c.prompt, c.status])).toEqual([
      ['paris:p-1 · terse', 'paris:p-1', 'terse', 'pass'], ['paris:p-1 · chatty', 'paris:p-1', 'chatty', 'fail'], ['lyon:l-1 · terse', 'lyon:l-1', 'terse', 'fail'], ['lyon:l-1 · chatty', 'lyon:l-1', 'chatty', 'fail'],
    ]);
    const sent = fakeRequests(r, 'paris').map((q) => q.messages.map((m) => m.content));
    expect(sent).toEqual([['Capital of France? One word.'], ['Tell me about France.'], ['Be brief.', 'Capital of Germany? One word.'], ['Be brief.', 'Tell me about Germany.']]);
    expect(fakeRequests(r, 'lyon')).toHaveLength(4);
  });

  it('refuses an unknown {{var}} before any request, naming the case and the prompt', async () => {
    const r = build();
    await expect(runEval({ router: r, chain: 'main', prompts, cases: [{ id: 'fr', vars: { country: 'France' } }, { id: 'it', vars: { pays: 'Italie' } }] }))
      .rejects.toThrow('case "it", prompt "terse": unknown {{country}} (the case\'s vars: pays); case "it", prompt "chatty": unknown {{country}} (the case\'s vars: pays)');
    await expect(runEval({ router: r, chain: 'main', cases: [{ id: 'fr', vars: { country: 'France' } }] })).rejects.toThrow(/case "fr" has no prompt or messages/);
    expect(fakeRequests(r, 'paris')).toHaveLength(0);
  });
});
