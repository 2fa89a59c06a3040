import { z } from 'zod';
import { MAX_TIMER_MS } from '../time/system-clock.js';
import { formatPath } from '../config/resolve-config.js';
import { MAX_OUTPUT_TOKENS } from '../config/schema.js';
import { RouterError } from '../errors.js';
import { DEFAULT_INPUT_BOUNDS, inputBoundProblems, type InputBounds } from './input-bounds.js';
import { isZodSchema } from '../convert/schema-input.js';
import type { ChatRequest, EmbedRequest } from '../types.js';

export { MAX_OUTPUT_TOKENS };

const text = z.string();
const jsonSchemaOrZod = z.custom<object>((v) => typeof v === 'object' && v !== null && !Array.isArray(v), { message: 'expected a JSON Schema object or a zod schema' });
const DATA_IMAGE = /^data:image\/(png|jpeg|gif|webp);base64,[A-Za-z0-9+/=\s]+$/;
const TOOL_NAME = /^[a-zA-Z0-9_-]{1,64}$/;

const cache = z.object({ ttl: z.enum(['5m', '1h']).optional(), cacheControl: z.record(z.string(), z.unknown()).optional() }).strict().optional();

const contentPart = z.discriminatedUnion('type', [
  z.object({ type: z.literal('text'), text, cache }).strict(),
  z.object({
    type: z.literal('image'),
    url: z.string().refine((u) => u.startsWith('https://') || u.startsWith('http://') || DATA_IMAGE.test(u), {
      message: 'expected an http(s) URL or a data:image/{png,jpeg,gif,webp};base64 URL',
    }),
    detail: z.enum(['auto', 'low', 'high']).optional(),
    cache,
  }).strict(),
  z.object({
    type: z.literal('file'),
    data: z.string().min(1).regex(/^[A-Za-z0-9+/=\s]+$/, { message: 'expected base64 (without a data: prefix)' }),
    mediaType: z.string().regex(/^[\w.+-]+\/[\w.+-]+$/, { message: 'expected a media type such as application/pdf' }),
    filename: z.string().min(1).optional(),
    cache,
  }).strict(),
]);

const toolCall = z.object({
  id: z.string().min(1),
  name: z.string().min(1),
  arguments: z.record(z.string(), z.unknown()),
}).strict();

const messageSchema = z.discriminatedUnion('role', [
  z.object({ role: z.enum(['system', 'developer']), content: text, cache }).strict(),
  z.object({ role: z.literal('user'), content: z.union([text, z.array(contentPart).min(1)]), cache }).strict(),
  z.object({
    role: z.literal('assistant'),
    content: text.nullable(),
    toolCalls: z.array(toolCall).optional(),
    providerParts: z.discriminatedUnion('api', [
      z.object({ api: z.literal('anthropic'), blocks: z.array(z.unknown()) }).strict(),
      z.object({ api: z.literal('bedrock'), blocks: z.array(z.unknown()) }).strict(),
      z.object({ api: z.literal('openai-responses'), items: z.array(z.unknown()) }).strict(),
      z.object({ api: z.literal('gemini'), blocks: z.array(z.unknown()) }).strict(),
    ]).optional(),
    cache,
  }).strict(),
  z.object({ role: z.literal('tool'), toolCallId: z.string().min(1), content: text, isError: z.boolean().optional(), cache }).strict(),
]);

const toolSchema = z.object({
  name: z.string().regex(TOOL_NAME, { message: 'a tool name is 1-64 letters, digits, "_" or "-"' }),
  description: z.string().optional(),
  parameters: jsonSchemaOrZod,
  strict: z.boolean().optional(),
  cache,
}).strict();

const positiveMs = z.number().positive().max(MAX_TIMER_MS, { message: `at most ${MAX_TIMER_MS} ms (about 24.8 days): a longer timer overflows` });

const requestSchema = z.object({
  chain: z.string().min(1).optional(),
  messages: z.array(messageSchema).min(1, { message: 'at least one message is required' }),
  maxTokens: z.number().int().positive().max(MAX_OUTPUT_TOKENS).optional(),
  temperature: z.number().min(0).max(2).optional(),
  tools: z.array(toolSchema).optional(),
  toolChoice: z.union([z.enum(['auto', 'none', 'required']), z.object({ name: z.string().min(1) }).strict()]).optional(),
  parallelToolCalls: z.boolean().optional(),
  responseFormat: z.discriminatedUnion('type', [
    z.object({ type: z.literal('json') }).strict(),
    z.object({
      type: z.literal('json_schema'),
      schema: jsonSchemaOrZod,
      name: z.string().regex(TOOL_NAME, { message: 'a schema name is 1-64 letters, digits, "_" or "-"' }).optional(),
      strict: z.boolean().optional(),
    }).strict(),
  ]).optional(),
  stop: z.union([z.string().min(1), z.array(z.string().min(1)).min(1).max(4)]).optional(),
  topP: z.number().min(0).max(1).optional(),
  seed: z.number().int().optional(),
  user: z.string().min(1).optional(),
  reasoning: z.object({
    effort: z.enum(['minimal', 'low', 'medium', 'high']).optional(),
    budgetTokens: z.number().int().nonnegative().max(MAX_OUTPUT_TOKENS).optional(),
  }).strict().refine((r) => r.effort !== undefined || r.budgetTokens !== undefined, { message: 'reasoning needs an effort or budgetTokens' }).optional(),
  providerOptions: z.record(z.string().min(1), z.record(z.string(), z.unknown())).optional(),
  tenant: z.string().min(1).optional(),
  idempotencyKey: z.string().min(1).optional(),
  signal: z.instanceof(AbortSignal).optional(),
  timeoutMs: positiveMs.optional(),
  firstTokenTimeoutMs: positiveMs.optional(),
  streamThinking: z.boolean().optional(),
  cache: z.boolean().optional(),
}).strict();

const PLAIN_KEYS = new Set(['chain', 'messages', 'maxTokens', 'temperature', 'tenant', 'idempotencyKey', 'signal', 'timeoutMs', 'firstTokenTimeoutMs', 'cache']);
const PLAIN_ROLES = new Set(['system', 'user', 'assistant', 'developer']);
const optionalText = (v: unknown) => v === undefined || (typeof v === 'string' && v.length > 0);
const optionalPositive = (v: unknown) => v === undefined || (typeof v === 'number' && v > 0 && v <= MAX_TIMER_MS);

/**
 * The common case without zod: true only for a plain text call the schema accepts as it is (zod's
 * safeParse copies every message). Anything else goes through zod, which decides and names the problem.
 */
function plainlyValid(r: Record<string, unknown>): boolean {
  for (const key in r) if (!PLAIN_KEYS.has(key)) return false;
  const messages = r.messages;
  if (!Array.isArray(messages) || messages.length === 0) return false;
  for (const m of messages) {
    if (typeof m !== 'object' || m === null || !PLAIN_ROLES.has(m.role) || typeof m.content !== 'string') return false;
    for (const key in m) if (key !== 'role' && key !== 'content') return false;
  }
  const { maxTokens, temperature, signal, cache } = r;
  return optionalText(r.chain) && optionalText(r.tenant) && optionalText(r.idempotencyKey)
    && (maxTokens === undefined || (Number.isSafeInteger(maxTokens) && (maxTokens as number) > 0 && (maxTokens as number) <= MAX_OUTPUT_TOKENS))
    && (temperature === undefined || (typeof temperature === 'number' && temperature >= 0 && temperature <= 2))
    && (signal === undefined || signal instanceof AbortSignal)
    && (cache === undefined || typeof cache === 'boolean')
    && optionalPositive(r.timeoutMs) && optionalPositive(r.firstTokenTimeoutMs);
}

/** One thing wrong with a call's input: the parameter's path (`messages[0].content`) and what is wrong with it. */
interface Problem {
  path: string;
  message: string;
  /** The parameter to name when it is not `path`: an unknown key, whose issue zod reports on the object holding it. */
  param?: string;
}

/** Zod's issues as problems; an unknown key is named as a path of its own, so `param` can say which. */
function issueProblems(issues: ReadonlyArray<z.core.$ZodIssue>): Problem[] {
  return issues.map((issue) => {
    const path = formatPath(issue.path);
    const key = issue.code === 'unrecognized_keys' ? issue.keys[0] : undefined;
    return { path, message: issue.message, ...(key !== undefined ? { param: formatPath([...issue.path, key]) } : {}) };
  });
}

/**
 * The refusal of a call's input, naming every problem in its message and the first one's
 * parameter as `param` (a fact, so the gateway reads it instead of parsing the message).
 */
function refusal(what: string, problems: readonly Problem[]): RouterError {
  const first = problems[0]!;
  const param = first.param ?? (first.path === '(root)' ? undefined : first.path);
  return new RouterError('invalid_request', `${what}:\n  - ${problems.map((p) => `${p.path}: ${p.message}`).join('\n  - ')}`, param !== undefined ? { param } : {});
}

/** Rules across fields that the shapes alone cannot say. */
function crossChecks(request: ChatRequest): Problem[] {
  const problems: Problem[] = [];
  const tools = request.tools ?? [];
  const names = new Set<string>();
  tools.forEach((tool, i) => {
    if (names.has(tool.name)) problems.push({ path: `tools[${i}].name`, message: `"${tool.name}" is declared twice` });
    names.add(tool.name);
    if (!isZodSchema(tool.parameters) && (tool.parameters as { type?: unknown }).type !== undefined && (tool.parameters as { type?: unknown }).type !== 'object') {
      problems.push({ path: `tools[${i}].parameters`, message: "a tool's parameters must be an object schema" });
    }
  });
  const choice = request.toolChoice;
  if (choice !== undefined && choice !== 'auto' && choice !== 'none' && tools.length === 0) {
    problems.push({ path: 'toolChoice', message: `${typeof choice === 'string' ? `"${choice}"` : `{ name: "${choice.name}" }`} needs tools` });
  }
  if (typeof choice === 'object' && tools.length > 0 && !names.has(choice.name)) {
    problems.push({ path: 'toolChoice.name', message: `no tool named "${choice.name}" (declared: ${[...names].join(', ')})` });
  }
  // Every tool result answers a tool call made earlier in the conversation.
  const called = new Set<string>();
  request.messages.forEach((m, i) => {
    if (m.role === 'assistant') for (const c of m.toolCalls ?? []) called.add(c.id);
    if (m.role === 'tool' && !called.has(m.toolCallId)) problems.push({ path: `messages[${i}].toolCallId`, message: `"${m.toolCallId}" answers no tool call of an earlier assistant message` });
    if (m.role === 'assistant' && m.content === null && (m.toolCalls?.length ?? 0) === 0) problems.push({ path: `messages[${i}].content`, message: 'null needs toolCalls' });
  });
  return problems;
}

/**
 * Checks a call's input before anything is sent; throws `RouterError` kind `invalid_request` naming
 * each problem. Free-form JSON fields are held to `bounds` first, before anything walks them.
 */
export function validateRequest(request: unknown, chains: Readonly<Record<string, unknown>>, bounds: InputBounds = DEFAULT_INPUT_BOUNDS): ChatRequest {
  if (typeof request !== 'object' || request === null) {
    throw new RouterError('invalid_request', 'invalid request: expected an object with messages');
  }
  const chain = (request as ChatRequest).chain ?? 'default';
  if (plainlyValid(request as Record<string, unknown>) && Object.hasOwn(chains, chain)) return request as ChatRequest;
  const unbounded = inputBoundProblems(request as Record<string, unknown>, bounds);
  if (unbounded.length > 0) throw refusal('invalid request', unbounded);
  const parsed = requestSchema.safeParse(request);
  const problems: Problem[] = parsed.success ? crossChecks(request as ChatRequest) : issueProblems(parsed.error.issues);
  if (typeof chain !== 'string' || !Object.hasOwn(chains, chain)) {
    problems.push({ path: 'chain', message: `unknown chain "${String(chain)}" (declared: ${Object.keys(chains).join(', ')})` });
  }
  if (problems.length > 0) throw refusal('invalid request', problems);
  return request as ChatRequest;
}

const embedSchema = z.object({
  chain: z.string().min(1).optional(),
  input: z.union([z.string().min(1, { message: 'an input cannot be an empty string' }), z.array(z.string().min(1, { message: 'an input cannot be an empty string' })).min(1, { message: 'at least one input is required' })]),
  dimensions: z.number().int().positive().max(65_536).optional(),
  tenant: z.string().min(1).optional(),
  signal: z.instanceof(AbortSignal).optional(),
  timeoutMs: positiveMs.optional(),
}).strict();

/** Checks an embed call's input before anything is sent; throws `RouterError` kind `invalid_request` naming each problem. */
export function validateEmbedRequest(request: unknown, chains: Readonly<Record<string, unknown>>): EmbedRequest {
  if (typeof request !== 'object' || request === null) throw new RouterError('invalid_request', 'invalid embed request: expected an object with input');
  const parsed = embedSchema.safeParse(request);
  const problems: Problem[] = parsed.success ? [] : issueProblems(parsed.error.issues);
  const chain = (request as EmbedRequest).chain ?? 'embeddings';
  if (typeof chain !== 'string' || !Object.hasOwn(chains, chain)) {
    problems.push({ path: 'chain', message: `unknown chain "${String(chain)}" (declared: ${Object.keys(chains).join(', ')}${(request as EmbedRequest).chain === undefined ? '; embed uses the chain "embeddings" unless told otherwise' : ''})` });
  }
  if (problems.length > 0) throw refusal('invalid embed request', problems);
  return request as EmbedRequest;
}
