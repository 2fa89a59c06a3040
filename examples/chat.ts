import { createRouter, defineConfig } from '../src/index.js';

// Offline: a two-target chain on the in-process `fake` provider, whose first target answers 429
// once and then 503 three times, so the run shows a header-aware retry and a fall-through.
const config = defineConfig({
  providers: {
    primary: { type: 'fake', latencyMs: 20, script: [{ fail: 'rate_limited', retryAfterMs: 300 }, { fail: 'server' }, { fail: 'server' }, { fail: 'server' }] },
    secondary: { type: 'fake', latencyMs: 30 },
  },
  chains: { default: ['primary:gpt-4o-mini', 'secondary:claude-sonnet-4-5'] },
  log: { level: 'info' },
});

const router = createRouter(config);
router.on('retry', (e) => console.log(`retry   ${e.provider}:${e.model} after ${e.kind}, waiting ${Math.round(e.delayMs)} ms`));
router.on('fallback', (e) => console.log(`fallback ${e.provider}:${e.model} (${e.kind}) -> ${e.to ? `${e.to.provider}:${e.to.model}` : 'none'}`));

for (const prompt of ['What does a circuit breaker do?', 'Why not retry insufficient_quota?']) {
  const res = await router.chat({ messages: [{ role: 'user', content: prompt }], maxTokens: 200 });
  console.log(`\n> ${prompt}\n${res.text}\n  answered by ${res.provider}:${res.model} in ${res.latencyMs} ms after ${res.attempts.length} attempt(s)\n`);
}
await router.close();
