import { Registry } from 'prom-client';
import { createRouter } from '../src/index.js';
import { collectMetrics } from '../src/integrations/prometheus/index.js';
import { startSimulator } from '../src/sim/index.js';

// switchyard_* metrics in a prom-client registry, offline: simulated providers, no keys.
// OpenAI's 2nd request meets a 429 (retried after its 300 ms hint), its 4th to 6th a 503 (fall-through
// to Anthropic). Run: npx tsx examples/prometheus.ts
const sim = await startSimulator({
  seed: 1,
  providers: {
    openai: { type: 'openai', latency: { baseMs: 20 }, limits: { rpm: 500 }, faults: [
      { fault: 'rate_limit', nth: 2, retryAfterMs: 300 },
      { fault: 'unavailable', nth: [4, 5, 6] },
    ] },
    anthropic: { type: 'anthropic', latency: { baseMs: 30 } },
  },
});
const router = createRouter({
  providers: {
    openai: { type: 'openai', apiKey: 'sk-anything', baseURL: sim.baseURL('openai') },
    anthropic: { type: 'anthropic', apiKey: 'sk-ant-anything', baseURL: sim.baseURL('anthropic') },
  },
  chains: { default: ['openai:gpt-4o-mini', 'anthropic:claude-haiku-4-5'] },
  retry: { maxAttempts: 2, baseDelayMs: 20 },
  log: { level: 'error' },
});

const registry = new Registry();
const stop = collectMetrics(router, { registry });
for (let i = 1; i <= 6; i++) await router.chat({ messages: [{ role: 'user', content: `Question ${i}` }], maxTokens: 40 });

// What GET /metrics would serve (without the histogram buckets, to keep it short).
const text = await registry.metrics();
console.log(text.split('\n').filter((line) => line.startsWith('switchyard_') && !line.includes('_bucket')).join('\n'));
stop();
await router.close();
await sim.stop();
