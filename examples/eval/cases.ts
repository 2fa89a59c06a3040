import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { defineCases, loadCases } from '../../src/eval/index.js';

// The TypeScript form: everything in cases.jsonl, plus cases that need code (a zod schema, scorers).
const fromJsonl = await loadCases(fileURLToPath(new URL('./cases.jsonl', import.meta.url)));

const triage = z.object({
  priority: z.enum(['low', 'medium', 'high']),
  team: z.string(),
  summary: z.string().min(1),
});

export default defineCases([
  ...fromJsonl,
  {
    id: 'triage',
    system: 'You triage support tickets. Answer with JSON: priority (low, medium or high), team, summary.',
    prompt: 'Triage this ticket: "Checkout fails with a 500 for every customer since 09:12."',
    expect: {
      schema: triage,
      // An outage for every customer is high priority, whatever the wording.
      score: (answer) => {
        const parsed = triage.safeParse(JSON.parse(answer.replace(/^```(json)?|```$/g, '')));
        return parsed.success && parsed.data.priority === 'high' ? true : { pass: false, reason: 'an outage must be high priority' };
      },
    },
  },
  {
    id: 'steps',
    prompt: 'Explain in three steps how a customer resets a forgotten password.',
    expect: {
      maxLength: 200,
      // The share of the three steps the answer mentions; two of three is good enough.
      score: (answer) => ['settings', 'password', 'sign in'].filter((step) => answer.toLowerCase().includes(step)).length / 3,
      minScore: 0.66,
    },
  },
]);
