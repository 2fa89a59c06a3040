import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { defaultConfig } from '../config/default-config.js';
import { loadConfig, type SwitchyardConfig } from '../config/index.js';
import { UsageError, type CliIO } from './command.js';

/** The config file a command reads when no `--config` is given. */
export const DEFAULT_CONFIG_FILE = 'router.config.ts';

/**
 * The config a command runs with: the `--config` file when one is given (a missing one is a usage
 * error); else `./router.config.ts` when it exists; else the built-in default config (the one the
 * repository's `router.config.ts` exports), read from `env`, saying so once on stderr. This is what
 * lets `npx switchyard chat "hi"` answer in a fresh app. Errors of `loadConfig` are passed on.
 */
export async function cliConfig(io: CliIO, file: string | undefined, env: NodeJS.ProcessEnv): Promise<SwitchyardConfig> {
  const path = resolve(io.cwd, file ?? DEFAULT_CONFIG_FILE);
  if (existsSync(path)) return loadConfig(path, io.cwd);
  if (file !== undefined) throw new UsageError(`config file not found: ${path}`);
  io.stderr(`switchyard: no ${DEFAULT_CONFIG_FILE} in ${io.cwd}, so the built-in default config is used (--config FILE names another)\n`);
  return defaultConfig(env);
}
