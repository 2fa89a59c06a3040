import { createWriteStream } from 'node:fs';
import type { Router } from '../router.js';

/** The `shadow` events a gateway wrote to `gateway.shadowLog`, one JSON object a line. */
export interface ShadowLog {
  /** Stops listening and flushes the file; call it after `router.close()`, whose dropped shadows it records. */
  close(): Promise<void>;
}

/**
 * Appends every `shadow` event of the router to `file` as a JSON line (`{"time": ISO, "event":
 * "shadow", ...the event}`), the input of `switchyard eval --shadow-report`. A shadow event carries
 * no prompt and no answer, so the file holds none. Opened for appending: several workers (and runs)
 * add to one file, each line written whole.
 */
export function openShadowLog(router: Router, file: string, now: () => number = Date.now): ShadowLog {
  const out = createWriteStream(file, { flags: 'a' });
  let failed: Error | undefined;
  out.on('error', (err) => (failed = err));
  const off = router.on('shadow', (event) => {
    if (!failed) out.write(`${JSON.stringify(Object.assign({ time: new Date(now()).toISOString(), event: 'shadow' }, event))}\n`);
  });
  return {
    close: () => {
      off();
      return new Promise<void>((resolve) => out.end(() => resolve()));
    },
  };
}
