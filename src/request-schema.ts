import { z } from 'zod';
import { formatIssues } from './config/resolve-config.js';
import { RouterError } from './errors.js';
import type { ChatRequest } from './types.js';

const messageSchema = z.object({
  role: z.enum(['system', 'user', 'assistant']),
  content: z.string(),
}).strict();

const requestSchema = z.object({
  chain: z.string().min(1).optional(),
  messages: z.array(messageSchema).min(1, { message: 'at least one message is required' }),
  maxTokens: z.number().int().positive().optional(),
  temperature: z.number().min(0).max(2).optional(),
  tenant: z.string().min(1).optional(),
  idempotencyKey: z.string().min(1).optional(),
  signal: z.instanceof(AbortSignal).optional(),
  timeoutMs: z.number().positive().optional(),
  firstTokenTimeoutMs: z.number().positive().optional(),
}).strict();

const KEYS = new Set(Object.keys(requestSchema.shape));
const ROLES = new Set(['system', 'user', 'assistant']);
const optionalText = (v: unknown) => v === undefined || (typeof v === 'string' && v.length > 0);
const optionalPositive = (v: unknown) => v === undefined || (typeof v === 'number' && Number.isFinite(v) && v > 0);

/**
 * The common case without zod: true only for input the schema accepts as it is (zod's safeParse
 * copies every message). Anything else goes through zod, which decides and names the problem.
 */
function plainlyValid(r: Record<string, unknown>): boolean {
  for (const key in r) if (!KEYS.has(key)) return false;
  const messages = r.messages;
  if (!Array.isArray(messages) || messages.length === 0) return false;
  for (const m of messages) {
    if (typeof m !== 'object' || m === null || !ROLES.has(m.role) || typeof m.content !== 'string') return false;
    for (const key in m) if (key !== 'role' && key !== 'content') return false;
  }
  const { maxTokens, temperature, signal } = r;
  return optionalText(r.chain) && optionalText(r.tenant) && optionalText(r.idempotencyKey)
    && (maxTokens === undefined || (Number.isSafeInteger(maxTokens) && (maxTokens as number) > 0))
    && (temperature === undefined || (typeof temperature === 'number' && temperature >= 0 && temperature <= 2))
    && (signal === undefined || signal instanceof AbortSignal)
    && optionalPositive(r.timeoutMs) && optionalPositive(r.firstTokenTimeoutMs);
}

/** Checks a call's input before anything is sent; throws `RouterError` kind `invalid_request` naming each problem. */
export function validateRequest(request: unknown, chains: Readonly<Record<string, unknown>>): ChatRequest {
  if (typeof request !== 'object' || request === null) {
    throw new RouterError('invalid_request', 'invalid request: expected an object with messages');
  }
  const chain = (request as ChatRequest).chain ?? 'default';
  if (plainlyValid(request as Record<string, unknown>) && Object.hasOwn(chains, chain)) return request as ChatRequest;
  const parsed = requestSchema.safeParse(request);
  const problems = parsed.success ? [] : formatIssues(parsed.error.issues);
  if (typeof chain === 'string' && !Object.hasOwn(chains, chain)) {
    problems.push(`chain: unknown chain "${chain}" (declared: ${Object.keys(chains).join(', ')})`);
  }
  if (problems.length > 0) throw new RouterError('invalid_request', `invalid request:\n  - ${problems.join('\n  - ')}`);
  return request as ChatRequest;
}
