// switchyard-llm/gateway: an OpenAI-compatible HTTP server (Fastify) in front of a router.
export { createGateway } from './create-gateway.js';
export type { Gateway } from './create-gateway.js';
export type { GatewayOptions, DrainReport } from './options.js';
export type { GatewayMetrics } from './metrics.js';
export type { ReadyReport } from './health.js';
export type { ErrorEnvelope } from './error-reply.js';
export { hashKey } from './keys.js';
export { float32Base64 } from './embeddings.js';
