import { pino, type Logger } from 'pino';
import { REDACT_PATHS } from './redact.js';

export type { Logger };

/** The default logger: pino to stderr at the given level, with key-bearing fields redacted. */
export function createLogger(level: string): Logger {
  return pino({ name: 'switchyard', level, redact: { paths: [...REDACT_PATHS], censor: '[REDACTED]' } }, pino.destination(2));
}
