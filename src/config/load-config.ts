import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { RouterError } from '../errors.js';
import { importModule } from './import-module.js';
import type { SwitchyardConfig } from './schema.js';

/**
 * Loads a config file (`router.config.ts` by default) and returns its default export, unvalidated:
 * `createRouter` validates it. A missing file or a file without a default export is a `config` error.
 */
export async function loadConfig(file = 'router.config.ts', cwd = process.cwd()): Promise<SwitchyardConfig> {
  const path = resolve(cwd, file);
  if (!existsSync(path)) throw new RouterError('config', `config file not found: ${path}`);
  let mod: Record<string, unknown>;
  try {
    mod = await importModule(path, () => new RouterError('config', `cannot load ${path}: a TypeScript config needs tsx on this Node (npm install -D tsx), or write it as JavaScript (router.config.mjs, with --config router.config.mjs)`));
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
