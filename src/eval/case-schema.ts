import { z } from 'zod';
import { formatIssues } from '../config/index.js';
import type { Message } from '../types.js';
import type { CaseInput, EvalCase, Expectations, SchemaLike, Scorer } from './case-types.js';

const objectLike = z.custom<Record<string, unknown>>((v) => typeof v === 'object' && v !== null && !Array.isArray(v), { message: 'expected an object' });
// Messages, tools and formats are checked in full by the router's own request validation when the case runs.
const messageSchema = z.object({ role: z.enum(['system', 'developer', 'user', 'assistant', 'tool']) }).passthrough();
const toolCallExpectation = z.object({ name: z.string().min(1), arguments: objectLike.optional() }).strict();
const nonEmptyStrings = z.union([z.string().min(1), z.array(z.string().min(1)).min(1)]);

const expectSchema = z.object({
  contains: nonEmptyStrings.optional(),
  notContains: nonEmptyStrings.optional(),
  regex: z.union([
    z.string().min(1),
    z.object({ pattern: z.string().min(1), flags: z.string().optional() }).strict(),
    z.instanceof(RegExp),
  ]).optional(),
  equals: z.string().optional(),
  json: z.boolean().optional(),
  schema: z.custom<SchemaLike | Record<string, unknown>>((v) => typeof v === 'object' && v !== null && !Array.isArray(v), {
    message: 'expected a zod schema or a JSON Schema object',
  }).optional(),
  maxLength: z.number().int().positive().optional(),
  score: z.custom<Scorer>((v) => typeof v === 'function', {
    message: 'expected a function (answer, ctx) => boolean | number | { pass, reason } (TypeScript cases only)',
  }).optional(),
  minScore: z.number().min(0).max(1).optional(),
  toolCall: z.union([toolCallExpectation, z.array(toolCallExpectation).min(1)]).optional(),
  object: objectLike.optional(),
  judge: z.object({ rubric: z.string().min(1), minScore: z.number().min(0).max(1).optional(), chain: z.string().min(1).optional() }).strict().optional(),
  similar: z.object({ to: nonEmptyStrings, minScore: z.number().min(-1).max(1).optional(), chain: z.string().min(1).optional() }).strict().optional(),
  maxLatencyMs: z.number().positive().optional(),
  maxCostUsd: z.number().nonnegative().optional(),
}).strict();

const caseSchema = z.object({
  id: z.string().trim().min(1, { message: 'a case needs a non-empty id' }),
  messages: z.array(messageSchema).optional(),
  prompt: z.string().min(1).optional(),
  system: z.string().optional(),
  options: z.object({
    maxTokens: z.number().int().positive().optional(),
    temperature: z.number().min(0).max(2).optional(),
    timeoutMs: z.number().positive().optional(),
    reasoning: z.object({ effort: z.enum(['minimal', 'low', 'medium', 'high']) }).strict().optional(),
  }).strict().optional(),
  tools: z.array(z.object({ name: z.string().min(1), description: z.string().optional(), parameters: objectLike, strict: z.boolean().optional() }).strict()).min(1).optional(),
  toolChoice: z.union([z.enum(['auto', 'none', 'required']), z.object({ name: z.string().min(1) }).strict()]).optional(),
  responseFormat: z.union([
    z.object({ type: z.literal('json') }).strict(),
    z.object({ type: z.literal('json_schema'), schema: objectLike, name: z.string().optional(), strict: z.boolean().optional() }).strict(),
  ]).optional(),
  expect: expectSchema.optional(),
  weight: z.number().finite().nonnegative().optional(),
  vars: z.record(z.string(), z.string()).optional(),
}).strict();

const JUDGE_MIN_SCORE = 0.7;
const SIMILAR_MIN_SCORE = 0.8;

/** The outcome of validating one case: the case, or every problem as `path: message`. */
export type ParsedCase = { ok: true; value: EvalCase } | { ok: false; problems: string[] };

function isSchemaLike(v: unknown): v is SchemaLike {
  return typeof (v as SchemaLike | undefined)?.safeParse === 'function';
}

function compileRegex(input: NonNullable<CaseInput['expect']>['regex']): RegExp {
  const source = input instanceof RegExp ? input.source : typeof input === 'string' ? input : input!.pattern;
  const flags = input instanceof RegExp ? input.flags : typeof input === 'string' ? '' : input!.flags ?? '';
  // `g` and `y` make `test` stateful across answers; a single match is all an expectation needs.
  return new RegExp(source, flags.replace(/[gy]/g, ''));
}

/**
 * Validates one case (JSONL or TypeScript form) and normalises it: `prompt`/`system` become
 * messages, strings become lists, patterns are compiled and JSON Schemas become zod schemas.
 */
export function parseCase(input: unknown): ParsedCase {
  const parsed = caseSchema.safeParse(input);
  if (!parsed.success) return { ok: false, problems: formatIssues(parsed.error.issues).map((p) => p.replace(/^\(root\): /, '')) };
  const raw = parsed.data;
  const problems: string[] = [];
  if (raw.messages && raw.prompt !== undefined) problems.push('prompt: give either messages or prompt, not both');
  // A case with vars may leave its user turn to the run's prompt templates (checked when it runs).
  if (!raw.messages && raw.prompt === undefined && raw.vars === undefined) problems.push('messages: a case needs messages or a prompt');
  if (raw.messages && raw.messages.length === 0 && raw.vars === undefined) problems.push('messages: at least one message is required');
  if (raw.messages && raw.system !== undefined) problems.push('system: only with prompt (put a system message in messages instead)');

  const e = raw.expect ?? {};
  const expect: Expectations = {};
  const list = (v: string | string[] | undefined) => (v === undefined ? undefined : typeof v === 'string' ? [v] : v);
  if (e.contains !== undefined) expect.contains = list(e.contains);
  if (e.notContains !== undefined) expect.notContains = list(e.notContains);
  if (e.regex !== undefined) {
    try {
      expect.regex = compileRegex(e.regex);
    } catch (err) {
      problems.push(`expect.regex: ${(err as Error).message}`);
    }
  }
  if (e.equals !== undefined) expect.equals = e.equals;
  if (e.json !== undefined) expect.json = e.json;
  if (e.schema !== undefined) {
    try {
      expect.schema = isSchemaLike(e.schema) ? e.schema : z.fromJSONSchema(e.schema as Parameters<typeof z.fromJSONSchema>[0]);
    } catch (err) {
      problems.push(`expect.schema: not a usable JSON Schema: ${(err as Error).message}`);
    }
  }
  if (e.maxLength !== undefined) expect.maxLength = e.maxLength;
  if (e.score !== undefined) expect.score = e.score;
  if (e.minScore !== undefined) {
    if (e.score === undefined) problems.push('expect.minScore: only with score');
    expect.minScore = e.minScore;
  }
  if (e.toolCall !== undefined) expect.toolCall = Array.isArray(e.toolCall) ? e.toolCall : [e.toolCall];
  if (e.object !== undefined) {
    if (!raw.responseFormat) problems.push('expect.object: needs responseFormat (the object is the answer parsed as JSON)');
    expect.object = e.object;
  }
  if (e.judge !== undefined) expect.judge = Object.assign({ rubric: e.judge.rubric, minScore: e.judge.minScore ?? JUDGE_MIN_SCORE }, e.judge.chain ? { chain: e.judge.chain } : {});
  if (e.similar !== undefined) expect.similar = Object.assign({ to: list(e.similar.to)!, minScore: e.similar.minScore ?? SIMILAR_MIN_SCORE }, e.similar.chain ? { chain: e.similar.chain } : {});
  if (e.maxLatencyMs !== undefined) expect.maxLatencyMs = e.maxLatencyMs;
  if (e.maxCostUsd !== undefined) expect.maxCostUsd = e.maxCostUsd;
  if (e.toolCall !== undefined && !raw.tools) problems.push('expect.toolCall: needs tools');
  if (problems.length > 0) return { ok: false, problems };

  const messages: Message[] = (raw.messages as Message[] | undefined) ?? [
    ...(raw.system !== undefined ? [{ role: 'system' as const, content: raw.system }] : []),
    ...(raw.prompt !== undefined ? [{ role: 'user' as const, content: raw.prompt }] : []),
  ] as Message[];
  const value: EvalCase = { id: raw.id, messages, options: raw.options ?? {}, expect, weight: raw.weight ?? 1 };
  if (raw.vars) value.vars = raw.vars;
  if (raw.tools) value.tools = raw.tools as EvalCase['tools'];
  if (raw.toolChoice) value.toolChoice = raw.toolChoice;
  if (raw.responseFormat) value.responseFormat = raw.responseFormat as EvalCase['responseFormat'];
  return { ok: true, value };
}

/**
 * Validates a whole list of cases; `where(i)` names case `i` in messages (a line number, an index).
 * Throws one `Error` listing every problem, duplicate ids included; an empty list is an error too.
 */
export function parseCases(inputs: readonly unknown[], where: (index: number) => string): EvalCase[] {
  const problems: string[] = [];
  const cases: EvalCase[] = [];
  const seen = new Map<string, string>();
  inputs.forEach((input, i) => {
    const parsed = parseCase(input);
    if (!parsed.ok) {
      for (const p of parsed.problems) problems.push(`${where(i)}: ${p}`);
      return;
    }
    const first = seen.get(parsed.value.id);
    if (first) problems.push(`${where(i)}: id: duplicate id "${parsed.value.id}" (first used at ${first})`);
    else seen.set(parsed.value.id, where(i));
    cases.push(parsed.value);
  });
  if (inputs.length === 0) problems.push('no cases: the file defines none');
  if (problems.length > 0) throw new CasesError(problems);
  return cases;
}

/** Invalid cases: `problems` lists each as `where: path: message`. */
export class CasesError extends Error {
  constructor(readonly problems: string[]) {
    super(`invalid eval cases:\n  - ${problems.join('\n  - ')}`);
    this.name = 'CasesError';
  }
}
