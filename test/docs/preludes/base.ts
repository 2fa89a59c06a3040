import { startSimulator, type Simulator } from '../../../src/sim/index.js';
import type { SwitchyardConfig } from '../../../src/index.js';

// What every framed docs snippet runs on: the built-in simulator, and a config whose providers answer
// from it through the real SDKs. The docs' own examples name these targets, so they resolve here.

export async function simulated(): Promise<{ sim: Simulator; config: SwitchyardConfig }> {
  const sim = await startSimulator({ seed: 20261202 });
  const config: SwitchyardConfig = {
    providers: {
      openai: { type: 'openai', apiKey: 'sk-docs-snippet', baseURL: sim.baseURL('openai') },
      anthropic: { type: 'anthropic', apiKey: 'sk-ant-docs-snippet', baseURL: sim.baseURL('anthropic') },
    },
    chains: {
      default: ['openai:gpt-4o-mini', 'anthropic:claude-sonnet-4-6'],
      embeddings: ['openai:text-embedding-3-small'],
    },
    log: { level: 'silent' },
  };
  return { sim, config };
}
