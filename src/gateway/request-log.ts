import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Logger } from '../observe/logger.js';
import { peekContext } from './context.js';

/**
 * One log line per request when its response closes: id, route, status, duration, tenant, chain and
 * the target that answered. Never a header (keys), a body (prompts) or `x-forwarded-for`.
 */
export function requestLog(logger: Logger, request: FastifyRequest, reply: FastifyReply): void {
  const startedAt = performance.now();
  reply.raw.once('close', () => {
    // No context: the request was refused before a tenant was known (401, 403, draining).
    const c = peekContext(request);
    logger.info({
      reqId: request.id, method: request.method, path: request.url.split('?')[0], status: reply.raw.statusCode,
      ms: Math.round((performance.now() - startedAt) * 100) / 100, tenant: c?.caller.tenant, chain: c?.chain, stream: c?.stream,
      provider: c?.provider, model: c?.model, attempts: c?.attempts, kind: c?.kind, ...(reply.raw.writableFinished ? {} : { aborted: true }),
    }, 'gateway request');
  });
}
