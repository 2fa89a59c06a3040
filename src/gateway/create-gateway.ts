import { AbortLink } from '../policy/abort/abort-link.js';
import { randomBytes } from 'node:crypto';
import Fastify, { type FastifyError, type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { RouterError } from '../errors.js';
import { createLogger } from '../observe/logger.js';
import type { Router } from '../router.js';
import { chatCompletions } from './chat-completions.js';
import { baseHeaders, dialectOf, sendError, setContext } from './context.js';
import { Drain } from './drain.js';
import { embeddings } from './embeddings.js';
import { gatewayError } from './error-reply.js';
import { healthRoutes, Readiness } from './health.js';
import { ANONYMOUS, apiKeyHeader, bearerKey, KeyTable } from './keys.js';
import { isLoopback } from './loopback.js';
import { prometheusMetrics, type GatewayMetrics } from './metrics.js';
import { messagesRoutes } from './messages/index.js';
import { listModels, retrieveModel } from './models.js';
import type { DrainReport, GatewayOptions } from './options.js';
import { keepRawJsonBodies } from './raw-body.js';
import { installRequestLog } from './request-log.js';
import { conversationsOf } from './responses/conversations.js';
import { responsesRoute, retrieveResponse } from './responses/route.js';
import type { GatewayState } from './state.js';

/** The Fastify instance `createGateway` returns, with a graceful shutdown. */
export type Gateway = FastifyInstance & {
  /**
   * Stops accepting, lets requests in flight finish within `drainMs` (then cuts them off: their calls
   * are aborted, which frees what they hold), and closes the server. The router stays open: close it after.
   */
  drain(): Promise<DrainReport>;
};

const PUBLIC = { public: true } as const;

/** Fastify's own 4xx (body parsing) as OpenAI-style codes. */
function fastifyErrorReply(err: FastifyError) {
  const status = err.statusCode && err.statusCode >= 400 && err.statusCode < 500 ? err.statusCode : 500;
  if (status === 413) return gatewayError(413, 'invalid_request_error', 'request_too_large', 'the request body is larger than the gateway accepts (gateway.bodyLimitBytes)');
  if (status === 415) return gatewayError(415, 'invalid_request_error', 'unsupported_media_type', 'send the body as application/json');
  if (status === 400) return gatewayError(400, 'invalid_request_error', 'invalid_json', `the body is not valid JSON: ${err.message}`);
  if (status < 500) return gatewayError(status, 'invalid_request_error', null, err.message);
  return gatewayError(500, 'server_error', 'internal_error', 'the gateway failed to handle the request');
}

/**
 * An OpenAI-compatible HTTP gateway in front of a router: `POST /v1/chat/completions` (and its
 * streams), `POST /v1/embeddings`, `GET /v1/models`, `/healthz`, `/readyz`, `/metrics`. `model`
 * names a chain; a bearer key names the tenant; errors use OpenAI's envelope with statuses a client
 * SDK retries correctly. Returns the Fastify instance, not yet listening; it refuses to listen
 * beyond loopback without keys. The router is the caller's to close.
 * @example
 * const gateway = createGateway(router);
 * await gateway.listen({ port: 8787 });   // 127.0.0.1 by default
 */
export function createGateway(router: Router, options: GatewayOptions = {}): Gateway {
  const config = router.config.gateway;
  const keys = new KeyTable(options.keys ?? config.keys, options.env ?? process.env, Object.keys(router.config.chains));
  const logger = options.logger === false ? undefined : options.logger ?? createLogger(router.config.log.level);
  const reqPrefix = `${randomBytes(3).toString('hex')}-`;
  let reqSeq = 0;
  const app = Fastify({
    bodyLimit: options.bodyLimitBytes ?? config.bodyLimitBytes,
    logger: false,
    // Never derive anything from X-Forwarded-*: the client sets those.
    trustProxy: false,
    return503OnClosing: false,
    requestIdHeader: false,
    genReqId: () => reqPrefix + (++reqSeq).toString(36),
  });
  const passThrough = options.passThrough ?? config.passThrough;
  // The translated path parses bodies as Fastify does by default; only pass-through keeps their text.
  if (passThrough) keepRawJsonBodies(app);
  const state: GatewayState = { router, draining: false, createdAt: Math.floor(Date.now() / 1000), passThrough };
  const readiness = new Readiness(router);
  const drain = new Drain(app, state, options.drainMs ?? config.drainMs);
  let metrics: GatewayMetrics | undefined | false = options.metrics;
  // Before the auth hook, so a refused request is logged too.
  if (logger) installRequestLog(app, logger, options.logRequests ?? config.logRequests);

  app.addHook('onRequest', (request: FastifyRequest, reply: FastifyReply, done: () => void) => {
    // One read: Fastify builds `routeOptions` afresh on every access.
    const route = request.routeOptions.config as { public?: boolean; call?: boolean };
    const isPublic = route.public === true;
    const calls = route.call === true;
    const controller = calls ? new AbortLink() : undefined;
    drain.track(reply, controller);
    if (isPublic) return done();
    if (state.draining) {
      return sendError(request, reply, gatewayError(503, 'server_error', 'gateway_draining', 'the gateway is shutting down; send the request again (another instance will take it)'), true);
    }
    let caller = ANONYMOUS;
    if (keys.enabled) {
      // Anthropic's clients send their key as x-api-key (the Anthropic SDK itself as a bearer).
      const anthropic = dialectOf(request) === 'anthropic';
      const key = bearerKey(request.headers.authorization) ?? (anthropic ? apiKeyHeader(request.headers['x-api-key']) : undefined);
      const found = key === undefined ? undefined : keys.lookup(key);
      if (!found) {
        const why = key === undefined ? `no API key: send ${anthropic ? 'x-api-key: <key> or ' : ''}Authorization: Bearer <key>` : 'Incorrect API key provided';
        return sendError(request, reply, gatewayError(401, 'invalid_request_error', 'invalid_api_key', why), state.draining);
      }
      caller = found;
    } else if (!isLoopback(request.socket.localAddress)) {
      // listen() refuses a non-loopback host without keys; this holds for a server started any other way.
      return sendError(request, reply, gatewayError(403, 'invalid_request_error', 'keys_required', 'this gateway has no keys configured, so it serves loopback only'), state.draining);
    }
    setContext(request, { caller, controller });
    done();
  });

  app.setErrorHandler((err: FastifyError, request, reply) => sendError(request, reply, fastifyErrorReply(err), state.draining));
  app.setNotFoundHandler((request, reply) => sendError(request, reply, gatewayError(404, 'invalid_request_error', 'unknown_url',
    `Unknown request URL: ${request.method} ${request.url.split('?')[0]}. The gateway serves POST /v1/chat/completions, POST /v1/responses, POST /v1/messages, POST /v1/embeddings and GET /v1/models.`), state.draining));

  app.post('/v1/chat/completions', { config: { call: true } }, chatCompletions(state));
  app.post('/v1/embeddings', { config: { call: true } }, embeddings(state));
  messagesRoutes(app, state);
  const conversations = conversationsOf(router);
  app.post('/v1/responses', { config: { call: true } }, responsesRoute(state, conversations, logger));
  app.get('/v1/responses/:id', retrieveResponse(state, conversations));
  app.get('/v1/models', listModels(state));
  app.get('/v1/models/:id', retrieveModel(state));
  const health = healthRoutes(state, readiness);
  app.get('/healthz', { config: PUBLIC }, health.healthz);
  app.get('/readyz', { config: PUBLIC }, health.readyz);
  app.get('/metrics', { config: PUBLIC }, async (request, reply) => {
    if (!metrics) {
      return sendError(request, reply, gatewayError(501, 'server_error', 'metrics_unavailable', metrics === false ? 'metrics are turned off' : 'install prom-client for /metrics'), state.draining);
    }
    const text = await metrics.metrics();
    return reply.headers(Object.assign({}, baseHeaders(request, state.draining), { 'content-type': metrics.contentType })).send(text);
  });

  app.addHook('onReady', async () => {
    if (metrics === undefined) metrics = await prometheusMetrics(router);
  });
  app.addHook('onClose', async () => {
    if (metrics) metrics.stop?.();
    readiness.stop();
  });

  // Without keys anyone who can reach the port is served as the default tenant: loopback only.
  const listen = app.listen.bind(app) as (...args: unknown[]) => unknown;
  (app as { listen: unknown }).listen = (...args: unknown[]) => {
    const opts = (typeof args[0] === 'object' && args[0] !== null ? args[0] : {}) as { host?: string; path?: string };
    if (!keys.enabled && opts.path === undefined && !isLoopback(opts.host ?? 'localhost')) {
      const err = new RouterError('config', `listening on ${opts.host} requires gateway.keys: without keys the gateway serves loopback only`);
      const cb = args.find((a) => typeof a === 'function') as ((e: Error) => void) | undefined;
      if (cb) return void cb(err);
      return Promise.reject(err);
    }
    return listen(...args);
  };
  return Object.assign(app, { drain: () => drain.run() }) as Gateway;
}

