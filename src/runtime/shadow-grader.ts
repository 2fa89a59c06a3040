import type { ChatRequest, ChatResult, Message } from '../types.js';

/** One eval expectation checked against a shadow answer (src/eval/expectations.ts's result). */
export interface ShadowExpectation {
  name: string;
  pass: boolean;
  reason?: string;
}

/** A judge's verdict on a shadow answer (src/eval/graders/judge.ts's `judgeAnswer`). */
export interface ShadowVerdictOfJudge {
  score: number;
  reason: string;
  costUsd?: number;
}

/**
 * What scores a shadow answer beyond agreement: the eval expectations and the eval judge. They live
 * above the router (src/eval/), so the router is handed them (`RouterOptions.shadowGrader`, made with
 * the router itself, which the judge calls through); `switchyard serve` hands `evalShadowGrader`.
 */
export interface ShadowGrader {
  /** Checks a chain's `shadow.expect` (the same object every call) against a shadow answer to `request`. */
  expect(expect: Record<string, unknown>, answer: ChatResult, request: ChatRequest): Promise<ShadowExpectation[]>;
  /** Scores a shadow answer to the conversation against the rubric; the real answer is given as the reference. */
  judge(input: { chain?: string; rubric: string; question: Message[]; answer: string; reference: string; signal?: AbortSignal }): Promise<ShadowVerdictOfJudge>;
}
