import { defineConfig } from './src/index.js';

/**
 * The default config, used by the CLI and `npm start`. Keys come from the environment; a provider
 * whose key is missing is left out. With no keys at all, the chain runs on the built-in offline
 * provider so everything still answers.
 */
const hasOpenAI = Boolean(process.env.OPENAI_API_KEY);
const hasAnthropic = Boolean(process.env.ANTHROPIC_API_KEY);
const online = hasOpenAI || hasAnthropic;

export default defineConfig({
  providers: {
    ...(hasOpenAI ? { openai: { type: 'openai' as const, apiKeyEnv: 'OPENAI_API_KEY' } } : {}),
    ...(hasAnthropic ? { anthropic: { type: 'anthropic' as const, apiKeyEnv: 'ANTHROPIC_API_KEY' } } : {}),
    ...(online ? {} : { offline: { type: 'fake' as const, latencyMs: 25 } }),
  },
  chains: {
    default: online
      ? [...(hasOpenAI ? ['openai:gpt-4o-mini'] : []), ...(hasAnthropic ? ['anthropic:claude-sonnet-4-5'] : [])]
      : ['offline:gpt-4o-mini', 'offline:claude-sonnet-4-5'],
  },
  retry: { maxAttempts: 3, maxInlineWaitMs: 5_000 },
  breaker: { scope: 'provider', resetTimeoutMs: 30_000 },
  quota: { parkMs: 10 * 60_000 },
  log: { level: 'info', logPrompts: false },
});
