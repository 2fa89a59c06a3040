import type { Logger } from '../types.js';

/** Routes an SDK's own warnings into our pino logger (the SDKs log to the console by default). */
export function sdkLogger(logger: Logger, provider: string) {
  const child = logger.child({ provider, source: 'sdk' });
  return {
    error: (msg: string) => child.error(msg),
    warn: (msg: string) => child.warn(msg),
    info: (msg: string) => child.debug(msg),
    debug: (msg: string) => child.debug(msg),
  };
}
