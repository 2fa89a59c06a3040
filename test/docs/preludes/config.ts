import { createRouter, type SwitchyardConfig } from '../../../src/index.js';
import { PRESETS } from '../../../providers/shared/presets/catalog.js';
import { simulated } from './base.js';

/**
 * A part of a config as the docs show it: type-checked as one (the parameter's type), then merged over
 * a config on the simulator and validated by createRouter, which throws a `config` error naming every
 * path it refuses. The environment variables the part names as `apiKeyEnv` are set for the check only.
 */
export async function checkConfigPart(part: Partial<SwitchyardConfig>): Promise<void> {
  const { sim, config } = await simulated();
  // Where each provider of the part reads its key: its apiKeyEnv, its preset's, Gemini's default.
  const keys = Object.values(part.providers ?? {}).flatMap((p) => {
    if ('apiKeyEnv' in p && p.apiKeyEnv) return [p.apiKeyEnv];
    const preset = p.type === 'openai-compatible' && p.preset ? PRESETS[p.preset].apiKeyEnv : undefined;
    if (preset) return [preset];
    return p.type === 'gemini' ? ['GEMINI_API_KEY'] : [];
  });
  const saved = new Map(keys.map((k) => [k, process.env[k]]));
  for (const k of keys) process.env[k] ??= 'sk-docs-snippet-key';
  try {
    const router = createRouter({
      ...config,
      ...part,
      providers: { ...config.providers, ...part.providers },
      chains: { ...config.chains, ...part.chains },
      log: { level: 'silent' },
    });
    await router.close();
  } finally {
    for (const [k, v] of saved) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
    await sim.stop();
  }
}
