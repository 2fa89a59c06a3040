import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Logger } from '../observe/logger.js';
import { peekContext } from './context.js';

/**
 * The gateway's request log: one line per request (id, route, status, duration, tenant, chain and
 * the target that answered), never a header (keys), a body (prompts) or `x-forwarded-for`. With
 * `every` (`gateway.logRequests`, `--log-requests`) every request gets one when its response closes;
 * without, only a failed one (status 400 or above, or a call that ended in an error, such as a
 * stream the upstream cut short), from one hook shared by all requests: a request that succeeds
 * costs no listener, closure or line.
 */
export function installRequestLog(app: FastifyInstance, logger: Logger, every: boolean): void {
  if (every) {
    app.addHook('onRequest', (request: FastifyRequest, reply: FastifyReply, done: () => void) => {
      requestLog(logger, request, reply);
      done();
    });
  } else {
    app.addHook('onResponse', (request: FastifyRequest, reply: FastifyReply, done: () => void) => {
      if (reply.statusCode >= 400 || peekContext(request)?.kind !== undefined) line(logger, request, reply.statusCode, reply.elapsedTime, true);
      done();
    });
  }
}

/** One line when the response closes, finished or cut off. */
function requestLog(logger: Logger, request: FastifyRequest, reply: FastifyReply): void {
  const startedAt = performance.now();
  reply.raw.once('close', () => line(logger, request, reply.raw.statusCode, performance.now() - startedAt, reply.raw.writableFinished));
}

function line(logger: Logger, request: FastifyRequest, status: number, ms: number, finished: boolean): void {
  // No context: the request was refused before a tenant was known (401, 403, draining).
  const c = peekContext(request);
  logger.info({
    reqId: request.id, method: request.method, path: request.url.split('?')[0], status,
    ms: Math.round(ms * 100) / 100, tenant: c?.caller.tenant, chain: c?.chain, stream: c?.stream,
    provider: c?.provider, model: c?.model, attempts: c?.attempts, kind: c?.kind, ...(finished ? {} : { aborted: true }),
  }, 'gateway request');
}
