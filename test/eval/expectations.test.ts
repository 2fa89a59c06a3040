import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { parseCase } from '../../src/eval/case-schema.js';
import type { EvalCase, ExpectInput } from '../../src/eval/case-types.js';
import { checkAnswer, type ExpectationResult } from '../../src/eval/expectations.js';
import { parseJsonAnswer } from '../../src/calls/parse-json-answer.js';
import { chatResult } from './helpers.js';

function caseWith(expectInput: ExpectInput): EvalCase {
  const parsed = parseCase({ id: 'c', prompt: 'q', expect: expectInput });
  if (!parsed.ok) throw new Error(parsed.problems.join('; '));
  return parsed.value;
}

async function check(answer: string, expectInput: ExpectInput): Promise<ExpectationResult[]> {
  const c = caseWith(expectInput);
  return checkAnswer(answer, c.expect, { case: c, target: { provider: 'p', model: 'm', key: 'p:m' }, result: chatResult(answer) });
}

const orderSchema = { type: 'object', required: ['orderId', 'amount'], properties: { orderId: { type: 'string' }, amount: { type: 'number' } } };

describe('expectations', () => {
  it.each([
    ['contains one string, ignoring case', 'The capital is PARIS.', { contains: 'paris' }],
    ['contains every string of a list', 'red, green and blue', { contains: ['red', 'blue'] }],
    ['notContains', 'a clean summary', { notContains: ['jane@example.com', 'password'] }],
    ['regex from a string', 'Order #1043 shipped', { regex: '#\\d{4}' }],
    ['regex with flags', 'NEGATIVE', { regex: { pattern: '^negative$', flags: 'i' } }],
    ['regex as a RegExp (TypeScript form), its g flag made harmless', 'yes', { regex: /yes/g }],
    ['equals, after trimming both sides', '  Canberra\n', { equals: 'Canberra ' }],
    ['json', '{"a": 1}', { json: true }],
    ['json inside one fence around the whole answer', '```json\n{"a": 1}\n```', { json: true }],
    ['schema from JSON Schema', '{"orderId": "A-1", "amount": 2.5}', { schema: orderSchema }],
    ['schema from zod', '{"priority": "high"}', { schema: z.object({ priority: z.enum(['low', 'high']) }) }],
    ['maxLength, counting characters of the trimmed answer', '  héllo  ', { maxLength: 5 }],
    ['a scorer returning true', 'x', { score: () => true }],
    ['a scorer returning a score at minScore', 'x', { score: () => 0.7, minScore: 0.7 }],
    ['an async scorer returning { pass: true }', 'x', { score: async () => ({ pass: true }) }],
  ] as Array<[string, string, ExpectInput]>)('passes %s', async (_name, answer, expectInput) => {
    const results = await check(answer, expectInput);
    expect(results.length).toBeGreaterThan(0);
    expect(results.filter((r) => !r.pass)).toEqual([]);
  });

  it.each([
    ['contains', 'The capital is Lyon.', { contains: ['Paris', 'France'] }, 'missing "Paris", "France"'],
    ['notContains', 'Mail jane@example.com now', { notContains: 'JANE@example.com' }, 'found "JANE@example.com"'],
    ['regex', 'Negative.', { regex: { pattern: '^negative$', flags: 'i' } }, 'no match for /^negative$/i'],
    ['equals', 'canberra', { equals: 'Canberra' }, 'expected "Canberra", got "canberra"'],
    ['json', 'Sure! {"a": 1}', { json: true }, 'not valid JSON'],
    ['schema', '{"orderId": 7}', { schema: orderSchema }, 'orderId'],
    ['schema', 'not json', { schema: orderSchema }, 'not valid JSON'],
    ['schema', '{"priority": "urgent"}', { schema: z.object({ priority: z.enum(['low', 'high']) }) }, 'priority'],
    ['maxLength', 'x'.repeat(12), { maxLength: 10 }, '12 characters > 10'],
    ['score', 'x', { score: () => false }, 'scorer returned false'],
    ['score', 'x', { score: () => 0.5 }, 'score 0.5 < 1'],
    ['score', 'x', { score: () => ({ pass: false, reason: 'too vague' }) }, 'too vague'],
    ['score', 'x', { score: () => { throw new Error('boom'); } }, 'scorer threw: boom'],
    ['score', 'x', { score: () => 'yes' as unknown as boolean }, 'neither a boolean'],
  ] as Array<[string, string, ExpectInput, string]>)('fails %s with a short reason (%s)', async (name, answer, expectInput, reason) => {
    const results = await check(answer, expectInput);
    const failed = results.filter((r) => !r.pass);
    expect(failed.map((r) => r.name)).toContain(name);
    expect(failed.find((r) => r.name === name)!.reason).toContain(reason);
  });

  it('reports every expectation of a case, in a fixed order, each by name', async () => {
    const results = await check('Sure: {"a": 1}', { maxLength: 3, json: true, contains: 'a', equals: 'b' });
    expect(results.map((r) => [r.name, r.pass])).toEqual([['contains', true], ['equals', false], ['json', false], ['maxLength', false]]);
  });

  it('hands a scorer the case, the target and the whole result', async () => {
    let seen: unknown;
    await check('answer', { score: (answer, ctx) => { seen = { answer, id: ctx.case.id, target: ctx.target.key, finish: ctx.result.finishReason }; return true; } });
    expect(seen).toEqual({ answer: 'answer', id: 'c', target: 'p:m', finish: 'stop' });
  });

  it('records the number a scorer returned', async () => {
    const [result] = await check('x', { score: () => 0.25, minScore: 0.2 });
    expect(result).toEqual({ name: 'score', pass: true, score: 0.25 });
  });

  it('does not unwrap JSON from a fence with prose around it', () => {
    expect(parseJsonAnswer('Here it is:\n```json\n{"a":1}\n```').ok).toBe(false);
    expect(parseJsonAnswer('```\n[1, 2]\n```')).toEqual({ ok: true, value: [1, 2] });
  });
});
