import { generateObject, generateText, stepCountIs, streamText, tool } from 'ai';
import { z } from 'zod';
import { createRouter } from '../src/index.js';
import { createSwitchyard } from '../src/integrations/ai-sdk/index.js';
import { startSimulator } from '../src/sim/index.js';

// The Vercel AI SDK (ai 6.x) on a Switchyard chain, offline: simulated providers, no keys. OpenAI
// answers its first three requests with a 503, so those calls fall through to Anthropic.
// Run: npx tsx examples/ai-sdk.ts
const sim = await startSimulator({
  seed: 1,
  providers: {
    openai: { type: 'openai', latency: { baseMs: 20 }, faults: [{ fault: 'unavailable', nth: [1, 2, 3] }] },
    anthropic: { type: 'anthropic', latency: { baseMs: 30 } },
  },
});
const router = createRouter({
  providers: {
    openai: { type: 'openai', apiKey: 'sk-anything', baseURL: sim.baseURL('openai') },
    anthropic: { type: 'anthropic', apiKey: 'sk-ant-anything', baseURL: sim.baseURL('anthropic') },
  },
  chains: { default: ['openai:gpt-4o-mini', 'anthropic:claude-haiku-4-5'] },
  retry: { maxAttempts: 1 },
  log: { level: 'error' },
});
const switchyard = createSwitchyard(router);
const answeredBy = (meta: unknown) => (meta as { switchyard?: { provider?: string } } | undefined)?.switchyard?.provider;

// The router retries and falls through; the AI SDK should not retry on top of it.
const text = await generateText({ model: switchyard('default'), prompt: 'What is a fallback chain?', maxOutputTokens: 60, maxRetries: 0 });
console.log(`generateText (${answeredBy(text.providerMetadata)}): ${text.text}\n`);

const weather = tool({
  description: 'The weather in a city',
  inputSchema: z.object({ city: z.string() }),
  execute: async ({ city }) => ({ city, forecast: 'sunny', celsius: 21 }),
});
const stream = streamText({
  model: switchyard('default'), prompt: 'What is the weather in Lisbon?', tools: { weather }, stopWhen: stepCountIs(2), maxRetries: 0,
});
process.stdout.write('streamText: ');
for await (const part of stream.fullStream) {
  if (part.type === 'tool-call') process.stdout.write(`[${part.toolName}(${JSON.stringify(part.input)})] `);
  if (part.type === 'tool-result') process.stdout.write(`[-> ${JSON.stringify(part.output)}] `);
  if (part.type === 'text-delta') process.stdout.write(part.text);
}
console.log(`\n  (${(await stream.steps).length} steps, ${(await stream.totalUsage).totalTokens} tokens)\n`);

const { object } = await generateObject({
  model: switchyard('default'), maxRetries: 0, prompt: 'Review the film Metropolis',
  schema: z.object({ title: z.string(), year: z.number().int(), verdict: z.enum(['watch', 'skip']) }),
});
console.log('generateObject:', object);

await router.close();
await sim.stop();
