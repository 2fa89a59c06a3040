import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import type { SwitchyardConfig } from '../../src/config/index.js';
import { withEvalChains } from '../../src/eval/eval-chains.js';
import { runEval } from '../../src/eval/run-eval.js';
import { createRouter, type Router } from '../../src/router.js';
import { adapterOf, fakeJudge, fakeRequests, type FakeAdapter } from '../../src/testing/index.js';
import { VirtualClock } from '../support/virtual-clock.js';
import { silentLogger } from './helpers.js';

const root = mkdtempSync(join(tmpdir(), 'switchyard-eval-cache-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let dirs = 0;
const freshDir = () => join(root, `c${++dirs}`);
const routers: Router[] = [];
afterEach(async () => { await Promise.all(routers.splice(0).map((r) => r.close())); });

/** A fresh router (as a new `switchyard eval` process would have): nothing in memory, only the disk. */
function build(providers: SwitchyardConfig['providers'] = {}, maxTokens?: number): Router {
  const config: SwitchyardConfig = {
    providers: {
      a: { type: 'fake', respond: () => ({ text: 'Paris' }) },
      b: { type: 'fake', respond: () => ({ text: 'Lyon' }) },
      grader: fakeJudge(({ answer }) => ({ score: answer === 'Paris' ? 1 : 0, reason: 'checked' })),
      vectors: { type: 'fake' },
      ...providers,
    },
    chains: { main: [maxTokens ? { provider: 'a', model: 'a-1', maxTokens } : 'a:a-1', 'b:b-1'], judge: ['grader:j-1'], embed: ['vectors:e-1'] },
    retry: { maxAttempts: 2, baseDelayMs: 1, maxDelayMs: 1 },
  };
  const router = createRouter(withEvalChains(config, 'main').config, { logger: silentLogger, clock: new VirtualClock() });
  routers.push(router);
  return router;
}

const sentTo = (r: Router) => ({
  a: fakeRequests(r, 'a').length, b: fakeRequests(r, 'b').length, grader: fakeRequests(r, 'grader').length,
  vectors: (adapterOf(r, 'vectors') as FakeAdapter).embedRequests.length,
});
const cases = [
  { id: 'judged', prompt: 'Capital of France?', expect: { judge: { rubric: 'Names Paris.' } } },
  { id: 'similar', prompt: 'Say the capital.', expect: { similar: { to: 'Paris' } } },
  { id: 'plain', prompt: 'Anything', expect: { contains: 'a' } },
];

describe('the eval disk cache', () => {
  it('sends 0 requests on a second run with nothing changed, and reports the same verdicts from the cache', async () => {
    const cache = freshDir();
    const first = build();
    const one = await runEval({ router: first, chain: 'main', cases, repeat: 2, cache });
    expect(sentTo(first)).toEqual({ a: 6, b: 6, grader: 4, vectors: 2 });
    expect(one.cache).toMatchObject({ dir: cache, hits: 0 });
    expect(one.runs.every((r) => r.cached === undefined)).toBe(true);

    const second = build();
    const two = await runEval({ router: second, chain: 'main', cases, repeat: 2, cache });
    expect(sentTo(second)).toEqual({ a: 0, b: 0, grader: 0, vectors: 0 });
    expect(two.runs.every((r) => r.cached === true && r.requests === 0)).toBe(true);
    expect(two.runs.map((r) => [r.caseId, r.target, r.repeat, r.pass, r.text, r.latencyMs])).toEqual(one.runs.map((r) => [r.caseId, r.target, r.repeat, r.pass, r.text, r.latencyMs]));
    expect(two.runs.map((r) => r.checks)).toEqual(one.runs.map((r) => r.checks));
    expect(two.targets.map((t) => t.cachedRuns)).toEqual([6, 6]);
    expect(two.cache).toMatchObject({ misses: 0 });
    expect(two.cache!.hits).toBe(12 + 4 + 2);
    // One file per entry: 12 answers, 2 verdicts (one per distinct answer to the judged case: a verdict's
    // key is the rubric, question and answer, not the repeat), 2 vectors ("Paris", "Lyon").
    expect(readdirSync(cache).filter((f) => f.endsWith('.json'))).toHaveLength(12 + 2 + 2);
  });

  it('re-sends only the changed case, and only to the target whose config changed', async () => {
    const cache = freshDir();
    await runEval({ router: build(), chain: 'main', cases, cache });
    const edited = [cases[0]!, { ...cases[1]!, prompt: 'Say the capital city.' }, cases[2]!];
    const second = build();
    const report = await runEval({ router: second, chain: 'main', cases: edited, cache });
    expect(sentTo(second)).toEqual({ a: 1, b: 1, grader: 0, vectors: 0 });
    expect(report.runs.filter((r) => !r.cached).map((r) => [r.caseId, r.target])).toEqual([['similar', 'a:a-1'], ['similar', 'b:b-1']]);
    // A target's maxTokens changes its answers: its runs are asked again, the other target's are not.
    const third = build({}, 50);
    await runEval({ router: third, chain: 'main', cases: edited, cache });
    expect(sentTo(third)).toEqual({ a: 3, b: 0, grader: 0, vectors: 0 });
  });

  it('re-grades without re-asking when only an expectation changed', async () => {
    const cache = freshDir();
    await runEval({ router: build(), chain: 'main', cases, cache });
    const second = build();
    const report = await runEval({ router: second, chain: 'main', cache, cases: [{ ...cases[2]!, expect: { contains: 'Lyon' } }] });
    expect(sentTo(second)).toEqual({ a: 0, b: 0, grader: 0, vectors: 0 });
    expect(report.runs.map((r) => [r.target, r.cached, r.pass])).toEqual([['a:a-1', true, false], ['b:b-1', true, true]]);
  });

  it('never caches an error: a failed answer or a failed judge is asked again next run', async () => {
    const cache = freshDir();
    const down = build({ b: { type: 'fake', respond: () => ({ fail: 'server' }) }, grader: fakeJudge(() => 'no verdict here') });
    const first = await runEval({ router: down, chain: 'main', cases: [cases[0]!], cache });
    expect(first.runs.map((r) => [r.target, r.ok, r.gradeError?.expectation])).toEqual([['a:a-1', true, 'judge'], ['b:b-1', false, undefined]]);
    expect(sentTo(down)).toMatchObject({ a: 1, b: 2, grader: 1 });

    const up = build();
    const second = await runEval({ router: up, chain: 'main', cases: [cases[0]!], cache });
    // a's answer was stored (it answered); its verdict was not, so only the judge is asked again.
    expect(sentTo(up)).toMatchObject({ a: 0, b: 1, grader: 2 });
    expect(second.runs.map((r) => [r.target, r.cached, r.pass])).toEqual([['a:a-1', true, true], ['b:b-1', undefined, false]]);
  });

  it('is off unless asked for: runEval without cache (or with cache: false) asks every time and reports no cache', async () => {
    for (const cache of [undefined, false, undefined] as const) {
      const r = build();
      const report = await runEval({ router: r, chain: 'main', cases: [cases[2]!], ...(cache === false ? { cache } : {}) });
      expect(report.cache).toBeUndefined();
      expect(sentTo(r)).toMatchObject({ a: 1, b: 1 });
    }
  });
});
