import { createRouter } from '../src/index.js';
import { startSimulator } from '../src/sim/index.js';

// The router against simulated providers, through the real SDKs. OpenAI's 3rd request meets a 429
// (retry-after: 1), its 5th a reset connection, its 7th to 9th a 503; Anthropic is healthy. No keys, no network.
const sim = await startSimulator({
  seed: 1,
  providers: {
    openai: { type: 'openai', latency: { baseMs: 30 }, faults: [
      { fault: 'rate_limit', nth: 3, retryAfterMs: 1_000 },
      { fault: 'reset', nth: 5 },
      { fault: 'unavailable', nth: [7, 8, 9] },
    ] },
    anthropic: { type: 'anthropic', latency: { baseMs: 50 } },
  },
});
const router = createRouter({
  providers: {
    openai: { type: 'openai', apiKey: 'sk-anything', baseURL: sim.baseURL('openai') },
    anthropic: { type: 'anthropic', apiKey: 'sk-ant-anything', baseURL: sim.baseURL('anthropic') },
  },
  chains: { default: ['openai:gpt-4o-mini', 'anthropic:claude-haiku-4-5'] },
  retry: { maxInlineWaitMs: 2_000, baseDelayMs: 50 },
  log: { level: 'warn' },
});

for (let i = 1; i <= 8; i++) {
  const res = await router.chat({ messages: [{ role: 'user', content: `Question ${i}: what is a retry budget?` }], maxTokens: 40 });
  const path = res.attempts.map((a) => `${a.provider} ${a.skipped ? `skipped (${a.kind})` : a.ok ? 'ok' : `${a.kind} ${a.status ?? ''}`.trim()}`).join(' -> ');
  console.log(`#${i} answered by ${res.provider} in ${res.latencyMs} ms: ${path}`);
}
for (const [name, p] of Object.entries(sim.stats().providers)) console.log(`${name}: ${p.requests} requests`, p.byStatus, p.byFault);
await router.close();
await sim.stop();
