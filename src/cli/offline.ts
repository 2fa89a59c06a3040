import type { ResolvedConfig } from '../config/index.js';
import { SIMULATOR_URL_ENV } from '../config/default-config.js';
import { startSimulator, type Simulator } from '../sim/index.js';

export { SIMULATOR_URL_ENV } from '../config/default-config.js';

/** A fixed seed, so the offline answers are the same on every machine. */
const OFFLINE_SEED = 20261129;

/** True when no provider key is set and no simulator was named: the CLI must bring its own. */
export function needsOfflineSimulator(env: NodeJS.ProcessEnv): boolean {
  return !env.OPENAI_API_KEY && !env.ANTHROPIC_API_KEY && !env[SIMULATOR_URL_ENV];
}

/** Starts the built-in simulator in-process: one OpenAI and one Anthropic provider, no limits that bite. */
export function startOfflineSimulator(): Promise<Simulator> {
  return startSimulator({ seed: OFFLINE_SEED });
}

/**
 * Runs `fn` with an environment variable set, then restores it. `router.config.ts` reads
 * `process.env` when it is imported, so this is how a freshly started simulator's URL reaches it.
 */
export async function withEnv<T>(name: string, value: string, fn: () => Promise<T>): Promise<T> {
  const before = process.env[name];
  process.env[name] = value;
  try {
    return await fn();
  } finally {
    if (before === undefined) delete process.env[name];
    else process.env[name] = before;
  }
}

/**
 * How a chain answers when none of its targets reaches a real API: `simulator` when at least one
 * goes through the simulator (the rest being `fake`), `fake` when all are in-process fakes;
 * undefined when any target is a real endpoint.
 */
export function offlineKind(config: ResolvedConfig, chain: string, simulatorURL: string | undefined): 'simulator' | 'fake' | undefined {
  const kinds = (config.chains[chain] ?? []).map(({ provider }) => {
    const p = config.providers[provider]!;
    if (p.type === 'fake') return 'fake';
    return simulatorURL !== undefined && (p.baseURL ?? '').startsWith(simulatorURL) ? 'simulator' : 'online';
  });
  if (kinds.length === 0 || kinds.includes('online')) return undefined;
  return kinds.includes('simulator') ? 'simulator' : 'fake';
}
