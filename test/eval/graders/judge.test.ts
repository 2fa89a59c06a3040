import { afterEach, describe, expect, it } from 'vitest';
import type { SwitchyardConfig } from '../../../src/config/index.js';
import { GraderError, isGraderError } from '../../../src/eval/graders/grader-error.js';
import { JUDGE_SYSTEM_PROMPT, judgeAnswer } from '../../../src/eval/graders/judge.js';
import { createRouter, type Router } from '../../../src/router.js';
import { fakeRequests } from '../../../src/testing/index.js';
import type { ProviderRequest } from '../../../providers/types.js';
import { silentLogger } from '../helpers.js';

const question = [{ role: 'user' as const, content: 'What is the capital of France?' }];
let router: Router | undefined;
afterEach(async () => { await router?.close(); router = undefined; });

/** A router whose `judge` chain is one fake judge that answers `verdict` to every request. */
function judgeRouter(verdict: (req: ProviderRequest) => unknown, extra: Partial<SwitchyardConfig> = {}): Router {
  router = createRouter({
    providers: { grader: { type: 'fake', respond: (req: unknown) => verdict(req as ProviderRequest) as never } },
    chains: { judge: ['grader:j-1'] },
    retry: { maxAttempts: 2, baseDelayMs: 1, maxDelayMs: 1 },
    ...extra,
  }, { logger: silentLogger });
  return router;
}

const ask = (r: Router, answer: string) => judgeAnswer(r, { chain: 'judge', rubric: 'Names Paris.', question, answer });

describe('judgeAnswer', () => {
  it('sends one request with the documented prompt and returns the score and reason', async () => {
    const r = judgeRouter((req) => ({ text: String(req.messages.at(-1)!.content).includes('<answer>\nParis') ? '{"score": 0.9, "reason": "names Paris"}' : '{"score": 0.1, "reason": "no Paris"}' }));
    expect(await ask(r, 'Paris.')).toEqual({ score: 0.9, reason: 'names Paris', costUsd: null });
    expect(await ask(r, 'Lyon.')).toEqual({ score: 0.1, reason: 'no Paris', costUsd: null });
    const sent = fakeRequests(r, 'grader');
    expect(sent).toHaveLength(2);
    expect(sent[0]!.messages[0]).toMatchObject({ role: 'system', content: JUDGE_SYSTEM_PROMPT });
    expect(sent[0]!.messages[1]!.content).toBe('<conversation>\nuser: What is the capital of France?\n</conversation>\n<answer>\nParis.\n</answer>\n<rubric>\nNames Paris.\n</rubric>');
  });

  it('tolerates one Markdown fence around the verdict', async () => {
    const r = judgeRouter(() => ({ text: '```json\n{"score": 1, "reason": "ok"}\n```' }));
    expect(await ask(r, 'Paris')).toMatchObject({ score: 1, reason: 'ok' });
  });

  it('reports what the judge call cost at the judge target\'s price', async () => {
    const r = judgeRouter(() => ({ text: '{"score": 1, "reason": "ok"}' }), { prices: { 'grader:j-1': { inputPerMTok: 1_000_000, outputPerMTok: 0 } } });
    const verdict = await ask(r, 'Paris');
    // $1 a prompt token: the cost is the judge's whole prompt, a positive whole number of dollars.
    expect(verdict.costUsd).toBeGreaterThan(0);
    expect(Number.isInteger(verdict.costUsd)).toBe(true);
  });

  it.each([
    ['prose', 'I think it is fine.', /not a verdict/],
    ['a score above 1', '{"score": 7, "reason": "great"}', /no score in 0\.\.1 \(got 7\)/],
    ['a negative score', '{"score": -0.5}', /no score in 0\.\.1/],
    ['no score', '{"reason": "fine"}', /no score in 0\.\.1 \(got none\)/],
    ['a score as a string', '{"score": "0.9"}', /no score in 0\.\.1 \(got "0\.9"\)/],
    ['two fences', '```json\n{"score": 1}\n```\n```json\n{"score": 1}\n```', /not a verdict/],
  ])('throws a GraderError for a malformed verdict (%s), asking the judge once', async (_name, text, message) => {
    const r = judgeRouter(() => ({ text }));
    const err = await ask(r, 'Paris').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(GraderError);
    expect(isGraderError(err)).toBe(true);
    expect(err).toMatchObject({ expectation: 'judge', message: expect.stringMatching(message) });
    expect(fakeRequests(r, 'grader')).toHaveLength(1);
  });

  it('throws a GraderError when the judge is unreachable, after the router\'s retries', async () => {
    const r = judgeRouter(() => ({ fail: 'server' }));
    const err = await ask(r, 'Paris').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(GraderError);
    expect((err as GraderError).message).toMatch(/the judge \(chain "judge"\) did not answer: exhausted/);
    expect(fakeRequests(r, 'grader')).toHaveLength(2);
  });
});
