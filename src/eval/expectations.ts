import type { Expectations, ScoreContext, ScoreResult } from './case-types.js';
import { parseJsonAnswer } from '../calls/parse-json-answer.js';

/** The expectation types, in the order they are checked and reported. */
export const EXPECTATION_NAMES = ['contains', 'notContains', 'regex', 'equals', 'json', 'schema', 'maxLength', 'toolCall', 'object', 'score', 'maxLatencyMs', 'maxCostUsd', 'judge', 'similar'] as const;
export type ExpectationName = (typeof EXPECTATION_NAMES)[number];

/** One expectation checked against one answer; a failure carries a short reason. */
export interface ExpectationResult {
  name: ExpectationName;
  pass: boolean;
  reason?: string;
  /** What a numeric scorer, the judge or `similar` returned (0..1). */
  score?: number;
}

const DEFAULT_MIN_SCORE = 1;

function quote(text: string, max = 40): string {
  const oneLine = text.replace(/\s+/g, ' ');
  return JSON.stringify(oneLine.length > max ? `${oneLine.slice(0, max - 1)}…` : oneLine);
}

function listed(items: string[]): string {
  const shown = items.slice(0, 3).map((s) => quote(s)).join(', ');
  return items.length > 3 ? `${shown} (+${items.length - 3} more)` : shown;
}

function verdict(name: ExpectationName, pass: boolean, reason?: string): ExpectationResult {
  return pass ? { name, pass } : { name, pass, reason };
}

function scoreVerdict(result: ScoreResult, minScore: number): ExpectationResult {
  if (typeof result === 'boolean') return verdict('score', result, 'scorer returned false');
  if (typeof result === 'number') {
    if (!Number.isFinite(result)) return verdict('score', false, `scorer returned ${result}`);
    return { ...verdict('score', result >= minScore, `score ${result} < ${minScore}`), score: result };
  }
  if (typeof result === 'object' && result !== null && typeof result.pass === 'boolean') {
    return verdict('score', result.pass, result.reason ?? 'scorer said fail');
  }
  return verdict('score', false, 'scorer returned neither a boolean, a number nor { pass }');
}

/**
 * Checks an answer against every expectation a case sets, in `EXPECTATION_NAMES` order. Text
 * matching (`contains`, `notContains`) ignores case; `equals` compares trimmed text exactly;
 * `maxLength` counts characters of the trimmed answer. A scorer that throws fails its expectation.
 * `maxLatencyMs` and `maxCostUsd` read the call's result. The model-graded `judge` and `similar`
 * are checked apart, by src/eval/graders (they call the router).
 */
export async function checkAnswer(answer: string, expect: Expectations, ctx: ScoreContext): Promise<ExpectationResult[]> {
  const results: ExpectationResult[] = [];
  const lower = answer.toLowerCase();
  const trimmed = answer.trim();
  if (expect.contains) {
    const missing = expect.contains.filter((s) => !lower.includes(s.toLowerCase()));
    results.push(verdict('contains', missing.length === 0, `missing ${listed(missing)}`));
  }
  if (expect.notContains) {
    const found = expect.notContains.filter((s) => lower.includes(s.toLowerCase()));
    results.push(verdict('notContains', found.length === 0, `found ${listed(found)}`));
  }
  if (expect.regex) {
    results.push(verdict('regex', expect.regex.test(answer), `no match for ${String(expect.regex).slice(0, 60)}`));
  }
  if (expect.equals !== undefined) {
    results.push(verdict('equals', trimmed === expect.equals.trim(), `expected ${quote(expect.equals.trim())}, got ${quote(trimmed)}`));
  }
  if (expect.json || expect.schema) {
    const json = parseJsonAnswer(answer);
    if (expect.json) results.push(verdict('json', json.ok, json.ok ? undefined : json.reason));
    if (expect.schema) {
      if (!json.ok) results.push(verdict('schema', false, json.reason));
      else {
        const parsed = expect.schema.safeParse(json.value);
        const issues = parsed.success ? [] : parsed.error.issues;
        const first = issues[0];
        const where = first && first.path.length > 0 ? `${first.path.map(String).join('.')}: ` : '';
        const more = issues.length > 1 ? ` (+${issues.length - 1} more)` : '';
        results.push(verdict('schema', parsed.success, first ? `${where}${first.message}${more}` : 'does not match the schema'));
      }
    }
  }
  if (expect.maxLength !== undefined) {
    const length = Array.from(trimmed).length;
    results.push(verdict('maxLength', length <= expect.maxLength, `${length} characters > ${expect.maxLength}`));
  }
  if (expect.toolCall) {
    const calls = ctx.result.toolCalls ?? [];
    const missing = expect.toolCall.filter((want) => !calls.some((c) => c.name === want.name && (!want.arguments || holds(c.arguments, want.arguments))));
    const seen = calls.length === 0 ? 'no tool call' : calls.map((c) => `${c.name}(${JSON.stringify(c.arguments)})`).join(', ');
    results.push(verdict('toolCall', missing.length === 0, `expected ${missing.map((m) => `${m.name}(${m.arguments ? JSON.stringify(m.arguments) : '...'})`).join(', ')}, got ${quote(seen, 120)}`));
  }
  if (expect.object) {
    const object = ctx.result.object;
    results.push(verdict('object', object !== undefined && holds(object, expect.object), object === undefined ? 'no object in the answer' : `got ${quote(JSON.stringify(object), 120)}`));
  }
  if (expect.score) {
    try {
      results.push(scoreVerdict(await expect.score(answer, ctx), expect.minScore ?? DEFAULT_MIN_SCORE));
    } catch (err) {
      results.push(verdict('score', false, `scorer threw: ${err instanceof Error ? err.message : String(err)}`.slice(0, 200)));
    }
  }
  if (expect.maxLatencyMs !== undefined) {
    results.push(verdict('maxLatencyMs', ctx.result.latencyMs <= expect.maxLatencyMs, `${ctx.result.latencyMs} ms > ${expect.maxLatencyMs} ms`));
  }
  if (expect.maxCostUsd !== undefined) {
    const cost = ctx.result.costUsd;
    results.push(verdict('maxCostUsd', cost !== undefined && cost <= expect.maxCostUsd, cost === undefined ? 'cost unknown (no price for the target)' : `$${cost} > $${expect.maxCostUsd}`));
  }
  return results;
}

/** True when `actual` holds every field of `expected`, deep equal (arrays element by element, exactly). */
export function holds(actual: unknown, expected: unknown): boolean {
  if (Array.isArray(expected)) return Array.isArray(actual) && actual.length === expected.length && expected.every((e, i) => holds(actual[i], e));
  if (typeof expected === 'object' && expected !== null) {
    if (typeof actual !== 'object' || actual === null || Array.isArray(actual)) return false;
    return Object.entries(expected).every(([k, v]) => Object.hasOwn(actual, k) && holds((actual as Record<string, unknown>)[k], v));
  }
  return Object.is(actual, expected);
}
