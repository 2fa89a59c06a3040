import type { Router } from '../../router.js';
import type { Message } from '../../types.js';
import type { DiskCache } from '../cache/disk-cache.js';
import { chainIdentity } from '../cache/cache-keys.js';
import type { EvalCase } from '../case-types.js';
import type { ExpectationResult } from '../expectations.js';
import type { EmbedMemo } from './embed-memo.js';
import type { GraderChains } from './grader-chains.js';
import { isGraderError } from './grader-error.js';
import { bestSimilarity } from './similar.js';
import { judgeAnswer } from './judge.js';

/** What the model-graded expectations need: the router, their chains, the run's memo and cache. */
export interface ModelGradeContext {
  router: Router;
  chains: GraderChains;
  embeds: EmbedMemo;
  cache: DiskCache | undefined;
  signal?: AbortSignal;
}

/** The model-graded checks of one answer; `gradeError` when a grader gave no verdict. */
export interface ModelGrade {
  checks: ExpectationResult[];
  /** What the graders' calls cost in this run; null when none was priced (or none was sent). */
  graderCostUsd: number | null;
  gradeError?: { expectation: string; message: string };
}

const add = (a: number | null, b: number | null) => (a === null ? b : b === null ? a : a + b);
const round = (n: number) => Math.round(n * 1000) / 1000;

async function judge(evalCase: EvalCase, question: Message[], answer: string, ctx: ModelGradeContext): Promise<{ check: ExpectationResult; costUsd: number | null }> {
  const spec = evalCase.expect.judge!;
  const chain = spec.chain ?? ctx.chains.judge!;
  const key = { kind: 'judge', chain: chainIdentity(ctx.router.config.chains, chain), rubric: spec.rubric, question, answer };
  let verdict = ctx.cache ? await ctx.cache.get<{ score: number; reason: string }>(key) : undefined;
  let costUsd: number | null = null;
  if (!verdict) {
    const judged = await judgeAnswer(ctx.router, { chain, rubric: spec.rubric, question, answer, signal: ctx.signal });
    verdict = { score: judged.score, reason: judged.reason };
    costUsd = judged.costUsd;
    await ctx.cache?.put(key, verdict);
  }
  const pass = verdict.score >= spec.minScore;
  const reason = pass ? verdict.reason : `score ${verdict.score} < ${spec.minScore}: ${verdict.reason}`;
  return { check: { name: 'judge', pass, reason, score: verdict.score }, costUsd };
}

async function similar(evalCase: EvalCase, answer: string, ctx: ModelGradeContext): Promise<{ check: ExpectationResult; costUsd: number | null }> {
  const spec = evalCase.expect.similar!;
  const chain = spec.chain ?? ctx.chains.embed!;
  // The references first: they are the same for every target, so they are embedded once per run.
  const to = await ctx.embeds.embed(chain, spec.to);
  const mine = await ctx.embeds.embed(chain, [answer]);
  const best = bestSimilarity(mine.vectors[0]!, to.vectors);
  const pass = best.score >= spec.minScore;
  const reason = `similarity ${round(best.score)} ${pass ? '>=' : '<'} ${spec.minScore} (nearest: reference ${best.index + 1} of ${spec.to.length})`;
  return { check: { name: 'similar', pass, reason, score: best.score }, costUsd: add(to.costUsd, mine.costUsd) };
}

/**
 * Checks an answer's `judge` and `similar` expectations through the router. A grader that gives no
 * verdict (unreachable, malformed) ends grading with `gradeError`; it never fails the target.
 */
export async function gradeWithModels(evalCase: EvalCase, question: Message[], answer: string, ctx: ModelGradeContext): Promise<ModelGrade> {
  const checks: ExpectationResult[] = [];
  let graderCostUsd: number | null = null;
  const steps: Array<[string, () => Promise<{ check: ExpectationResult; costUsd: number | null }>]> = [];
  if (evalCase.expect.judge) steps.push(['judge', () => judge(evalCase, question, answer, ctx)]);
  if (evalCase.expect.similar) steps.push(['similar', () => similar(evalCase, answer, ctx)]);
  for (const [name, step] of steps) {
    try {
      const { check, costUsd } = await step();
      checks.push(check);
      graderCostUsd = add(graderCostUsd, costUsd);
    } catch (err) {
      if (!isGraderError(err)) throw err;
      graderCostUsd = add(graderCostUsd, err.costUsd);
      return { checks, graderCostUsd, gradeError: { expectation: name, message: err.message } };
    }
  }
  return { checks, graderCostUsd };
}
