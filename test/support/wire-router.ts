import type { Clock } from '../../src/types.js';
import type { SwitchyardConfig } from '../../src/config/index.js';
import { createRouter, type Router } from '../../src/router.js';
import { captureLogger } from './capture-logger.js';
import { ANTHROPIC_PATH, OPENAI_PATH, anthropicOk, openaiOk } from './fixtures.js';
import type { Upstream } from './upstream.js';

export const OPENAI_KEY = 'sk-proj-TESTKEYopenai0123456789abcdefXYZ';
export const ANTHROPIC_KEY = 'sk-ant-api03-TESTKEYanthropic0123456789abcdef';

export const ask = (content = 'Say hello') => ({ messages: [{ role: 'user' as const, content }] });

/**
 * A router whose `openai` and `anthropic` providers talk to one loopback upstream through the real
 * SDKs. Unscripted requests succeed with the recorded success bodies. `timeoutMs` (default 2000) is
 * both providers' attempt timeout; on a virtual clock pass a long one (60_000): the SDK clients get
 * the same value as their own timeout on the wall clock, and a short one fires on a busy machine.
 */
export function wireRouter(up: Upstream, overrides: Partial<SwitchyardConfig> = {}, options: { clock?: Clock; random?: () => number; timeoutMs?: number } = {}) {
  up.otherwise(OPENAI_PATH, () => openaiOk());
  up.otherwise(ANTHROPIC_PATH, () => anthropicOk());
  const log = captureLogger();
  const config: SwitchyardConfig = {
    providers: {
      openai: { type: 'openai', apiKey: OPENAI_KEY, baseURL: `${up.url}/v1`, timeoutMs: options.timeoutMs ?? 2000 },
      anthropic: { type: 'anthropic', apiKey: ANTHROPIC_KEY, baseURL: up.url, timeoutMs: options.timeoutMs ?? 2000 },
    },
    chains: {
      default: ['openai:gpt-4o-mini', 'anthropic:claude-sonnet-4-6'],
      'openai-only': ['openai:gpt-4o-mini'],
      'two-openai-models': ['openai:gpt-4o-mini', 'openai:gpt-4o', 'anthropic:claude-sonnet-4-6'],
    },
    retry: { baseDelayMs: 10, maxDelayMs: 40 },
    ...overrides,
  };
  const router: Router = createRouter(config, { logger: log.logger, random: options.random ?? (() => 0.5), clock: options.clock });
  return { router, log, openai: () => up.count(OPENAI_PATH), anthropic: () => up.count(ANTHROPIC_PATH) };
}

/** Awaits a promise that must reject, returning the error. */
export async function rejectionOf(promise: Promise<unknown>): Promise<any> {
  try {
    await promise;
  } catch (err) {
    return err;
  }
  throw new Error('expected the call to fail');
}
