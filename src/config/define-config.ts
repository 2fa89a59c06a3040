import type { SwitchyardConfig } from './schema.js';

/**
 * Types a `router.config.ts` default export; validation happens in `createRouter`.
 * @example
 * export default defineConfig({
 *   providers: { openai: { type: 'openai', apiKeyEnv: 'OPENAI_API_KEY' } },
 *   chains: { default: ['openai:gpt-4o-mini'] },
 * });
 */
export function defineConfig<const T extends SwitchyardConfig>(config: T): T {
  return config;
}
