import { Writable } from 'node:stream';
import { pino, type Logger } from 'pino';
import { REDACT_PATHS } from '../../src/observe/redact.js';

/** Every captured line that contained something shaped like an API key (checked after each test). */
export const keyLeaks: string[] = [];

// The tests' keys all look like real ones (`sk-...`, Google's `AIza...`); a log line may say `sk-[REDACTED]`, nothing more.
export const KEY_SHAPED = /\bsk-(?!\[REDACTED\])[A-Za-z0-9_*-]{3,}|\bAIza[0-9A-Za-z_-]{20,}/;

/** A pino logger writing into memory, with the same redaction the default logger has. */
export function captureLogger(level = 'trace'): { logger: Logger; lines: string[]; records: () => Array<Record<string, any>> } {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk, _enc, done) {
      for (const line of String(chunk).split('\n')) {
        if (!line) continue;
        lines.push(line);
        if (KEY_SHAPED.test(line)) keyLeaks.push(line);
      }
      done();
    },
  });
  const logger = pino({ level, redact: { paths: [...REDACT_PATHS], censor: '[REDACTED]' } }, stream);
  return { logger, lines, records: () => lines.map((l) => JSON.parse(l) as Record<string, any>) };
}
