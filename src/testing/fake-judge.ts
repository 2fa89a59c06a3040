import { readJudgePrompt } from '../eval/graders/judge.js';

/** What a fake judge is asked: the rubric, the target's answer, and the conversation as one text. */
export interface JudgeQuestion {
  rubric: string;
  answer: string;
  conversation: string;
}

/** A fake judge's answer: a verdict (sent as its JSON), raw text (to test malformed verdicts), or a scripted failure. */
export type FakeJudgeReply = { score: number; reason?: string } | string | { fail: 'server' | 'rate_limited' | 'timeout' | 'auth' };

/**
 * A `fake` provider that plays eval's judge: `grade` sees the rubric and the answer of each judge
 * prompt and says what the judge answers. Anything that is not a judge prompt gets `{"score": 0}`.
 * @example
 * providers: { grader: fakeJudge(({ answer }) => ({ score: answer.includes('Paris') ? 1 : 0, reason: 'names Paris?' })) },
 * chains: { judge: ['grader:judge-1'] },
 */
export function fakeJudge(grade: (question: JudgeQuestion) => FakeJudgeReply): { type: 'fake'; respond: (request: unknown) => unknown } {
  return {
    type: 'fake',
    respond: (request: unknown) => {
      const last = (request as { messages: Array<{ content: unknown }> }).messages.at(-1)?.content;
      const question = typeof last === 'string' ? readJudgePrompt(last) : undefined;
      if (!question) return { text: '{"score": 0, "reason": "not a judge prompt"}' };
      const reply = grade(question);
      if (typeof reply === 'string') return { text: reply };
      if ('fail' in reply) return { fail: reply.fail };
      return { text: JSON.stringify({ score: reply.score, reason: reply.reason ?? '' }) };
    },
  };
}
