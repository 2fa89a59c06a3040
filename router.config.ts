import { defineConfig, type SwitchyardConfig } from './src/index.js';

/**
 * The default config, used by `switchyard chat` and `switchyard eval`. Keys come from the environment,
 * and a provider whose key is missing is left out. With neither key set it runs offline:
 * - when SWITCHYARD_SIMULATOR_URL is set (`switchyard chat` starts the built-in simulator and sets it,
 *   or point it at `switchyard simulate`), the same two providers answer through the real SDKs, from
 *   the simulator;
 * - otherwise the in-process `fake` provider answers, so a script importing this file still works.
 * Importing this file starts nothing.
 */
const env = process.env;
const hasOpenAI = Boolean(env.OPENAI_API_KEY);
const hasAnthropic = Boolean(env.ANTHROPIC_API_KEY);
const simulator = hasOpenAI || hasAnthropic ? undefined : env.SWITCHYARD_SIMULATOR_URL?.replace(/\/+$/, '');

const OPENAI_MODEL = 'gpt-4o-mini';
const ANTHROPIC_MODEL = 'claude-haiku-4-5';

function providers(): SwitchyardConfig['providers'] {
  if (simulator) {
    return {
      openai: { type: 'openai', apiKey: 'sk-simulated', baseURL: `${simulator}/v1` },
      anthropic: { type: 'anthropic', apiKey: 'sk-ant-simulated', baseURL: simulator },
    };
  }
  if (!hasOpenAI && !hasAnthropic) return { offline: { type: 'fake', latencyMs: 25 } };
  return {
    ...(hasOpenAI ? { openai: { type: 'openai', apiKeyEnv: 'OPENAI_API_KEY' } } : {}),
    ...(hasAnthropic ? { anthropic: { type: 'anthropic', apiKeyEnv: 'ANTHROPIC_API_KEY' } } : {}),
  };
}

const online = hasOpenAI || hasAnthropic || simulator !== undefined;

export default defineConfig({
  providers: providers(),
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
