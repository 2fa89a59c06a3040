import { defineConfig, type FakeStep, type Message } from '../../src/index.js';

/**
 * An offline eval config: the `support` chain has four targets on the in-process `fake` provider,
 * each answering the example cases the way a model of its kind might.
 *  - steady:gpt-4o-mini       right and in shape every time
 *  - backup:claude-haiku-4-5  right, but fences its JSON (tolerated) and gets one case wrong;
 *                             its first request is rate limited, so a retry shows up in the attempts
 *  - budget:llama-3.1-8b      cheaper and faster, wrong on format, and answers differently on repeats
 *  - broke:gpt-4o             its account is out of credit: every call fails with insufficient_quota
 * Run it: npx tsx src/cli/main.ts eval --config examples/eval/eval.config.ts --chain support \
 *   --cases examples/eval/cases.jsonl --repeat 3 --json reports/eval.json --html reports/eval.html
 */

type Persona = 'steady' | 'backup' | 'budget';
/** Answers by case topic; an array answers differently on successive asks of the same prompt. */
type Script = Record<string, Record<Persona, string | string[]>>;

const ANSWERS: Script = {
  'capital of Australia': { steady: 'Canberra', backup: 'Canberra', budget: ['Sydney', 'Canberra', 'Sydney'] },
  'Refund order A-1043': {
    steady: '{"orderId": "A-1043", "amount": 25.5, "currency": "EUR"}',
    backup: '```json\n{"orderId": "A-1043", "amount": 25.5, "currency": "EUR"}\n```',
    budget: 'Sure! Here is the JSON you asked for: {"orderId": "A-1043", "amount": "25,50"}',
  },
  'Classify the sentiment': { steady: 'negative', backup: 'negative', budget: ['Negative.', 'negative', 'The sentiment is negative.'] },
  'without repeating the customer': {
    steady: 'The customer cannot log in since resetting their password.',
    backup: 'A customer has been locked out of their account since a password reset.',
    budget: 'jane@example.com cannot log in <b>since the password reset</b> <script>alert("not escaped")</script>',
  },
  'apologise for the late delivery': {
    steady: 'We are sorry your order arrived late; a 10% voucher is on its way.',
    backup: 'Sorry for the delay! We have refunded your shipping cost.',
    budget: 'Dear valued customer, we would like to take this opportunity to express our sincerest apologies for any inconvenience that the unfortunate delay of your delivery may have caused you and your family.',
  },
  'Which team handles': { steady: 'billing', backup: 'payments', budget: 'billing' },
  'Triage this ticket': {
    steady: '{"priority": "high", "team": "platform", "summary": "Checkout is down for every customer"}',
    backup: '{"priority": "high", "team": "platform", "summary": "Checkout outage"}',
    budget: '{"priority": "urgent", "team": "platform"}',
  },
  'three steps': {
    steady: '1. Open Settings. 2. Choose Security and reset your password. 3. Sign in again with the new password.',
    backup: 'Open Settings, reset your password under Security, then sign in again.',
    budget: ['Reset your password.', 'Open Settings and reset your password.', 'Reset your password.'],
  },
};

function lastUserMessage(request: unknown): string {
  const messages = (request as { messages: Message[] }).messages;
  const content = [...messages].reverse().find((m) => m.role === 'user')?.content;
  return typeof content === 'string' ? content : '';
}

/** A `respond` function for one persona: finds the case by its prompt; counts asks per prompt, so repeats are deterministic. */
function persona(name: Persona, baseLatencyMs: number) {
  const asked = new Map<string, number>();
  return (request: unknown, n: number): FakeStep => {
    if (name === 'backup' && n === 1) return { fail: 'rate_limited', retryAfterMs: 30 };
    const prompt = lastUserMessage(request);
    const k = asked.get(prompt) ?? 0;
    asked.set(prompt, k + 1);
    const topic = Object.keys(ANSWERS).find((t) => prompt.includes(t));
    const answer = topic ? ANSWERS[topic]![name] : undefined;
    const latencyMs = baseLatencyMs + ((prompt.length * 7 + k * 13) % 40);
    if (answer === undefined) return { latencyMs };
    return { text: Array.isArray(answer) ? answer[k % answer.length]! : answer, latencyMs };
  };
}

export default defineConfig({
  providers: {
    steady: { type: 'fake', respond: persona('steady', 60) },
    backup: { type: 'fake', respond: persona('backup', 110) },
    budget: { type: 'fake', respond: persona('budget', 20) },
    broke: { type: 'fake', respond: () => ({ fail: 'quota_exhausted', message: 'You exceeded your current quota, please check your plan and billing details.', latencyMs: 5 }) },
  },
  chains: {
    support: ['steady:gpt-4o-mini', 'backup:claude-haiku-4-5', 'budget:llama-3.1-8b', 'broke:gpt-4o'],
  },
  retry: { maxAttempts: 3, baseDelayMs: 20, maxDelayMs: 200, maxInlineWaitMs: 1_000 },
  prices: {
    'gpt-4o-mini': { inputPerMTok: 0.15, outputPerMTok: 0.6 },
    'backup:claude-haiku-4-5': { inputPerMTok: 1, outputPerMTok: 5 },
    'gpt-4o': { inputPerMTok: 2.5, outputPerMTok: 10 },
    // No price for llama-3.1-8b: its cost is reported as unknown, never as $0.
  },
  log: { level: 'warn' },
});
