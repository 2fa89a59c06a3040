import type { GatewayKeyConfig } from '../config/schema.js';
import type { Logger } from '../observe/logger.js';
import type { GatewayMetrics } from './metrics.js';

/** Options of `createGateway`; all optional: the router config's `gateway` section supplies the rest. */
export interface GatewayOptions {
  /** Bearer keys and their tenants. @default the config's `gateway.keys` */
  keys?: GatewayKeyConfig[];
  /** Largest request body, in bytes. @default the config's `gateway.bodyLimitBytes` */
  bodyLimitBytes?: number;
  /** How long `drain()` lets calls in flight finish before it cuts them off: whole ms, 0 to 2147483647 (else a `config` error). @default the config's `gateway.drainMs` */
  drainMs?: number;
  /** Where `keyEnv` keys are read. @default process.env */
  env?: NodeJS.ProcessEnv;
  /** A log line for every request, not only the failed ones. @default the config's `gateway.logRequests` */
  logRequests?: boolean;
  /** Send requests that need no translation upstream as the client's bytes. @default the config's `gateway.passThrough` */
  passThrough?: boolean;
  /** Request logs (one line per request: no keys, no prompts), or `false` for none. @default pino at the config's `log.level`, to stderr */
  logger?: Logger | false;
  /** What `/metrics` serves, or `false` for no `/metrics`. @default the router's `switchyard_*` metrics in a prom-client registry of its own */
  metrics?: GatewayMetrics | false;
}

/** What `drain()` reports. */
export interface DrainReport {
  /** Requests in flight when the drain started. */
  inFlight: number;
  /** Of those, the ones still running when `drainMs` ran out, and cut off. */
  cutOff: number;
}
