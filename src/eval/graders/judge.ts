import { parseJsonAnswer } from '../../calls/parse-json-answer.js';
import { isRouterError } from '../../errors.js';
import type { Router } from '../../router.js';
import { messageText, type Message } from '../../types.js';
import { GraderError } from './grader-error.js';

/** What the judge is asked to grade. */
export interface JudgeInput {
  /** The judge's chain: a chain of the same router, so its calls get its retries, budgets and breakers. */
  chain: string;
  /** What a good answer does, in the case author's words. */
  rubric: string;
  /** The conversation the target answered (after templating). */
  question: Message[];
  /** The target's answer. */
  answer: string;
  signal?: AbortSignal;
}

/** The judge's verdict: a score in 0..1, its reason, and what the judge's call cost (null when unpriced). */
export interface JudgeVerdict {
  score: number;
  reason: string;
  costUsd: number | null;
}

const MAX_REASON_CHARS = 300;

/** The judge's instruction, documented in docs/eval.md ("The judge"). */
export const JUDGE_SYSTEM_PROMPT = [
  'You grade an answer against a rubric. Read the conversation, the answer and the rubric.',
  'Reply with one JSON object and nothing else: {"score": <number from 0 to 1>, "reason": "<one short sentence>"}.',
  'score 1 means the answer fully meets the rubric, 0 that it does not meet it at all.',
].join('\n');

/** The judge's user turn: the conversation, the answer and the rubric, each in its own tagged block. */
export function judgePrompt(rubric: string, question: readonly Message[], answer: string): string {
  const conversation = question.map((m) => `${m.role}: ${messageText(m)}`).join('\n');
  return `<conversation>\n${conversation}\n</conversation>\n<answer>\n${answer}\n</answer>\n<rubric>\n${rubric}\n</rubric>`;
}

/** Reads the judge's answer as a verdict; throws GraderError when it is not one. */
export function readVerdict(text: string, costUsd: number | null): JudgeVerdict {
  const json = parseJsonAnswer(text);
  if (!json.ok) throw new GraderError('judge', `the judge's answer is not a verdict: ${json.reason}`, costUsd);
  const value = json.value as { score?: unknown; reason?: unknown } | null;
  const score = typeof value === 'object' && value !== null ? value.score : undefined;
  if (typeof score !== 'number' || !Number.isFinite(score) || score < 0 || score > 1) {
    throw new GraderError('judge', `the judge's verdict has no score in 0..1 (got ${JSON.stringify(score) ?? 'none'})`, costUsd);
  }
  const reason = typeof value!.reason === 'string' ? value!.reason.slice(0, MAX_REASON_CHARS) : '';
  return { score, reason, costUsd };
}

/**
 * Asks a judge chain to grade `answer` against `rubric`, as one `router.chat` call (retries, budgets and
 * breakers apply). The judge must answer `{"score": 0..1, "reason": "..."}`; one Markdown fence around
 * it is tolerated. Throws GraderError when the judge is unreachable or its verdict is malformed; the
 * target is never asked again.
 */
export async function judgeAnswer(router: Router, input: JudgeInput): Promise<JudgeVerdict> {
  let text: string;
  let costUsd: number | null;
  try {
    const result = await router.chat({
      chain: input.chain,
      messages: [
        { role: 'system', content: JUDGE_SYSTEM_PROMPT },
        { role: 'user', content: judgePrompt(input.rubric, input.question, input.answer) },
      ],
      signal: input.signal,
    });
    text = result.text;
    costUsd = result.costUsd ?? null;
  } catch (err) {
    const why = isRouterError(err) ? `${err.kind}: ${err.message}` : err instanceof Error ? err.message : String(err);
    throw new GraderError('judge', `the judge (chain "${input.chain}") did not answer: ${why}`.slice(0, 400), null, { cause: err });
  }
  return readVerdict(text, costUsd);
}
