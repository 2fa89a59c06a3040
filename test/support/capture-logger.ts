import { Writable } from 'node:stream';
import { pino, type Logger } from 'pino';
import { REDACT_PATHS } from '../../src/observe/redact.js';

/** A pino logger writing into memory, with the same redaction the default logger has. */
export function captureLogger(level = 'trace'): { logger: Logger; lines: string[]; records: () => Array<Record<string, any>> } {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk, _enc, done) {
      for (const line of String(chunk).split('\n')) if (line) lines.push(line);
      done();
    },
  });
  const logger = pino({ level, redact: { paths: [...REDACT_PATHS], censor: '[REDACTED]' } }, stream);
  return { logger, lines, records: () => lines.map((l) => JSON.parse(l) as Record<string, any>) };
}
