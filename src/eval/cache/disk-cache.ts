import { createHash, randomBytes } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/** The default directory of eval's disk cache, under the working directory. */
export const DEFAULT_CACHE_DIR = '.switchyard/eval-cache';

/** Bumped when what an entry holds changes shape: older entries are then missed, never misread. */
const FORMAT = 1;

/**
 * Eval's disk cache: one JSON file per entry, named by the sha256 of its key, written atomically
 * (a temporary file, then rename) so a crash or two evals at once never leave half an entry. Only
 * successes are stored (the callers never `put` an error). Counts its hits and misses.
 */
export class DiskCache {
  hits = 0;
  misses = 0;
  private ready: Promise<unknown> | undefined;

  constructor(readonly dir: string) {}

  /** The entry's file name: sha256 of the key as JSON; undefined when the key cannot be written as JSON. */
  static keyOf(key: unknown): string | undefined {
    let text: string;
    try {
      text = JSON.stringify([FORMAT, key], (_k, v: unknown) => (typeof v === 'function' || v instanceof RegExp ? String(v) : v));
    } catch {
      return undefined;
    }
    return createHash('sha256').update(text).digest('hex');
  }

  /** The value stored under `key`, or undefined (counted as a miss) when there is none or it is unreadable. */
  async get<T>(key: unknown): Promise<T | undefined> {
    const name = DiskCache.keyOf(key);
    if (name === undefined) return undefined;
    try {
      const value = JSON.parse(await readFile(join(this.dir, `${name}.json`), 'utf8')) as T;
      this.hits++;
      return value;
    } catch {
      this.misses++;
      return undefined;
    }
  }

  /** Stores `value` under `key`; a write that fails is ignored (the cache is an optimisation). */
  async put(key: unknown, value: unknown): Promise<void> {
    const name = DiskCache.keyOf(key);
    if (name === undefined) return;
    try {
      this.ready ??= mkdir(this.dir, { recursive: true });
      await this.ready;
      const file = join(this.dir, `${name}.json`);
      const tmp = `${file}.${randomBytes(6).toString('hex')}.tmp`;
      await writeFile(tmp, JSON.stringify(value));
      await rename(tmp, file);
    } catch {
      // A read-only or full disk costs the next run its requests, not this run its report.
    }
  }
}
