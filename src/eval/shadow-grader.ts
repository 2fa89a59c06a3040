import type { Router } from '../router.js';
import type { ShadowGrader } from '../runtime/shadow-grader.js';
import type { ChatRequest, ChatResult } from '../types.js';
import type { Expectations } from './case-types.js';
import { parseCase } from './case-schema.js';
import { checkAnswer } from './expectations.js';
import { judgeAnswer } from './graders/judge.js';

/** The judge chain a shadow's `judge` uses when it names none and the config's `eval.judgeChain` is unset: eval's default. */
const DEFAULT_JUDGE_CHAIN = 'judge';

/**
 * Scores shadow answers as `switchyard eval` scores a case's (src/runtime/shadow-book.ts calls it):
 * a chain's `shadow.expect` is read as a case's `expect` (parsed once per chain, with the request's
 * tools and response format), checked by `checkAnswer`; `shadow.judge` asks `judgeAnswer` through
 * the same router, with the real answer added to the rubric as the reference. Pass it to
 * `createRouter(config, { shadowGrader: evalShadowGrader })` (`switchyard serve` does).
 */
export function evalShadowGrader(router: Router): ShadowGrader {
  const parsed = new WeakMap<Record<string, unknown>, Expectations>();
  const expectationsOf = (expect: Record<string, unknown>, request: ChatRequest): Expectations => {
    let known = parsed.get(expect);
    if (known) return known;
    const input: Record<string, unknown> = { id: 'shadow', prompt: 'shadow', expect };
    if (request.tools !== undefined) input.tools = request.tools;
    if (request.responseFormat !== undefined) input.responseFormat = request.responseFormat;
    const result = parseCase(input);
    if (!result.ok) throw new Error(`shadow.expect: ${result.problems.join('; ')}`);
    // checkAnswer leaves the model-graded expectations to src/eval/graders; a shadow has its own judge.
    for (const graded of ['judge', 'similar'] as const) {
      if (result.value.expect[graded] !== undefined) throw new Error(`shadow.expect: ${graded} is not checked on shadow answers; use the chain's shadow.judge`);
    }
    parsed.set(expect, (known = result.value.expect));
    return known;
  };
  return {
    expect: (expect, answer: ChatResult, request) => {
      const expectations = expectationsOf(expect, request);
      const target = { provider: answer.provider, model: answer.model, key: `${answer.provider}:${answer.model}` };
      const evalCase = { id: 'shadow', messages: request.messages, options: {}, expect: expectations, weight: 1 };
      return checkAnswer(answer.text, expectations, { case: evalCase, target, result: answer });
    },
    judge: async ({ chain, rubric, question, answer, reference, signal }) => {
      const withReference = `${rubric}\n\nFor reference, the production target answered:\n${reference}`;
      const verdict = await judgeAnswer(router, { chain: chain ?? router.config.eval?.judgeChain ?? DEFAULT_JUDGE_CHAIN, rubric: withReference, question, answer, signal });
      return verdict.costUsd === null ? { score: verdict.score, reason: verdict.reason } : { score: verdict.score, reason: verdict.reason, costUsd: verdict.costUsd };
    },
  };
}
