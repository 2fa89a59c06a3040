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

/** Checks a call's input before anything is sent; throws `RouterError` kind `invalid_request` naming each problem. */
export function validateRequest(request: unknown, chains: Readonly<Record<string, unknown>>): ChatRequest {
  if (typeof request !== 'object' || request === null) {
    throw new RouterError('invalid_request', 'invalid request: expected an object with messages');
  }
  const parsed = requestSchema.safeParse(request);
  const problems = parsed.success ? [] : formatIssues(parsed.error.issues);
  const chain = (request as ChatRequest).chain ?? 'default';
  if (typeof chain === 'string' && !Object.hasOwn(chains, chain)) {
    problems.push(`chain: unknown chain "${chain}" (declared: ${Object.keys(chains).join(', ')})`);
  }
  if (problems.length > 0) throw new RouterError('invalid_request', `invalid request:\n  - ${problems.join('\n  - ')}`);
  return request as ChatRequest;
}
