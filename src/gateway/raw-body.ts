import type { FastifyInstance, FastifyRequest } from 'fastify';

const RAW = new WeakMap<FastifyRequest, string>();

/**
 * Parses JSON bodies as Fastify does by default (same errors, same prototype-poisoning refusals)
 * and keeps the text as it came, for the pass-through path to forward.
 */
export function keepRawJsonBodies(app: FastifyInstance): void {
  const parse = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    RAW.set(request, body as string);
    parse(request, body as string, done);
  });
}

/** The request's JSON body exactly as the client sent it, when it had one. */
export function rawBodyOf(request: FastifyRequest): string | undefined {
  return RAW.get(request);
}
