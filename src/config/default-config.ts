import { defineConfig } from './define-config.js';
import type { SwitchyardConfig } from './schema.js';

/** Where the default config finds a running simulator; `switchyard chat` sets it when it starts one. */
export const SIMULATOR_URL_ENV = 'SWITCHYARD_SIMULATOR_URL';

const OPENAI_MODEL = 'gpt-4o-mini';
const ANTHROPIC_MODEL = 'claude-haiku-4-5';

/**
 * The default config: what the repository's `router.config.ts` exports, and what the CLI uses when
 * there is no `./router.config.ts` and no `--config`. Keys come from `env`, and a provider whose key
 * is missing is left out. With neither key set it runs offline:
 * - when `SWITCHYARD_SIMULATOR_URL` is set (`switchyard chat` starts the built-in simulator and sets it,
 *   or point it at `switchyard simulate`), the same two providers answer through the real SDKs, from
 *   the simulator;
 * - otherwise the in-process `fake` provider answers, so a script using it still works.
 * It reads `env` when called and starts nothing.
 */
export function defaultConfig(env: NodeJS.ProcessEnv = process.env): SwitchyardConfig {
  const hasOpenAI = Boolean(env.OPENAI_API_KEY);
  const hasAnthropic = Boolean(env.ANTHROPIC_API_KEY);
  const simulator = hasOpenAI || hasAnthropic ? undefined : env[SIMULATOR_URL_ENV]?.replace(/\/+$/, '');

  let providers: SwitchyardConfig['providers'];
  if (simulator) {
    providers = {
      openai: { type: 'openai', apiKey: 'sk-simulated', baseURL: `${simulator}/v1` },
      anthropic: { type: 'anthropic', apiKey: 'sk-ant-simulated', baseURL: simulator },
    };
  } else if (!hasOpenAI && !hasAnthropic) {
    providers = { offline: { type: 'fake', latencyMs: 25 } };
  } else {
    providers = {
      ...(hasOpenAI ? { openai: { type: 'openai', apiKeyEnv: 'OPENAI_API_KEY' } } : {}),
      ...(hasAnthropic ? { anthropic: { type: 'anthropic', apiKeyEnv: 'ANTHROPIC_API_KEY' } } : {}),
    };
  }

  const online = hasOpenAI || hasAnthropic || simulator !== undefined;
  return defineConfig({
    providers,
    chains: {
      default: online
        ? [...(hasOpenAI || simulator ? [`openai:${OPENAI_MODEL}`] : []), ...(hasAnthropic || simulator ? [`anthropic:${ANTHROPIC_MODEL}`] : [])]
        : [`offline:${OPENAI_MODEL}`, `offline:${ANTHROPIC_MODEL}`],
    },
    retry: { maxAttempts: 3, maxInlineWaitMs: 5_000 },
    breaker: { scope: 'provider', resetTimeoutMs: 30_000 },
    quota: { parkMs: 10 * 60_000 },
    log: { level: 'info', logPrompts: false },
  });
}
