import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { RouterError } from '../errors.js';
import type { SwitchyardConfig } from './schema.js';

async function importModule(file: string): Promise<Record<string, unknown>> {
  const url = pathToFileURL(file).href;
  try {
    return (await import(url)) as Record<string, unknown>;
  } catch (err) {
    // Plain Node 20 cannot import TypeScript; tsx can, when it is installed.
    if ((err as NodeJS.ErrnoException).code !== 'ERR_UNKNOWN_FILE_EXTENSION') throw err;
    let tsx: { tsImport(specifier: string, parent: string): Promise<Record<string, unknown>> };
    try {
      tsx = (await import('tsx/esm/api')) as typeof tsx;
    } catch {
      throw new RouterError('config', `cannot load ${file}: a TypeScript config needs tsx (npm install -D tsx), or write router.config.mjs`);
    }
    return tsx.tsImport(url, import.meta.url);
  }
}

/**
 * Loads a config file (`router.config.ts` by default) and returns its default export, unvalidated:
 * `createRouter` validates it. A missing file or a file without a default export is a `config` error.
 */
export async function loadConfig(file = 'router.config.ts', cwd = process.cwd()): Promise<SwitchyardConfig> {
  const path = resolve(cwd, file);
  if (!existsSync(path)) throw new RouterError('config', `config file not found: ${path}`);
  let mod: Record<string, unknown>;
  try {
    mod = await importModule(path);
  } catch (err) {
    if (err instanceof RouterError) throw err;
    throw new RouterError('config', `cannot load ${path}: ${(err as Error).message}`, { cause: err });
  }
  const config = (mod.default ?? mod.config) as SwitchyardConfig | undefined;
  if (!config || typeof config !== 'object') {
    throw new RouterError('config', `${path} has no default export; write \`export default defineConfig({...})\``);
  }
  return config;
}
