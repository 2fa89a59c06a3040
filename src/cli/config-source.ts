import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { defaultConfig } from '../config/default-config.js';
import { loadConfig, type SwitchyardConfig } from '../config/index.js';
import { isRouterError } from '../errors.js';
import type { Simulator } from '../sim/index.js';
import { UsageError, type CliIO } from './command.js';
import { SIMULATOR_URL_ENV, withEnv } from './offline.js';

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

/** A config problem is the user's to fix: one line, exit 2. */
export function asUsage(err: unknown): unknown {
  if (isRouterError(err) && err.kind === 'config') return new UsageError(err.message.split('\n').map((l) => l.trim()).join(' '));
  return err;
}

/**
 * The config of a command that may run offline: with a simulator started for it, the config is read
 * with the simulator's URL in the environment (the default config points its providers there).
 */
export async function loadCliConfig(io: CliIO, file: string | undefined, simulator: Simulator | undefined): Promise<SwitchyardConfig> {
  const env = simulator ? { ...io.env, [SIMULATOR_URL_ENV]: simulator.url } : io.env;
  const read = () => cliConfig(io, file, env).catch((err: unknown) => Promise.reject(asUsage(err)));
  return simulator ? withEnv(SIMULATOR_URL_ENV, simulator.url, read) : read();
}
