import OpenAI, { APIError } from 'openai';
import { createRouter } from '../src/index.js';
import { createGateway, hashKey } from '../src/gateway/index.js';
import { startSimulator } from '../src/sim/index.js';

// The gateway in front of simulated providers, offline: any OpenAI client reaches the chains by
// changing its base URL. OpenAI's 2nd request meets a 503 run, so that answer comes from Anthropic
// (see x-switchyard-provider). Run: npx tsx examples/gateway.ts
const sim = await startSimulator({
  seed: 1,
  providers: {
    openai: { type: 'openai', latency: { baseMs: 20 }, faults: [{ fault: 'unavailable', nth: [2, 3] }] },
    anthropic: { type: 'anthropic', latency: { baseMs: 30 } },
  },
});
const router = createRouter({
  providers: {
    openai: { type: 'openai', apiKey: 'sk-anything', baseURL: sim.baseURL('openai') },
    anthropic: { type: 'anthropic', apiKey: 'sk-ant-anything', baseURL: sim.baseURL('anthropic') },
  },
  chains: { default: ['openai:gpt-4o-mini', 'anthropic:claude-haiku-4-5'], embeddings: ['openai:text-embedding-3-small'] },
  retry: { maxAttempts: 2, baseDelayMs: 20 },
  tenants: { web: { share: 3 }, batch: { share: 1, rpm: 100 } },
  // A key from the environment, and one stored only as its hash.
  gateway: { keys: [{ keyEnv: 'WEB_KEY', tenant: 'web' }, { keyHash: hashKey('sk-batch-example-key'), tenant: 'batch' }] },
  log: { level: 'warn' },
});
const gateway = createGateway(router, { env: { WEB_KEY: 'sk-web-example-key' }, logger: false });
const url = await gateway.listen({ port: 0 });
console.log(`gateway on ${url}`);

const client = new OpenAI({ apiKey: 'sk-web-example-key', baseURL: `${url}/v1`, maxRetries: 0 });
for (let i = 1; i <= 2; i++) {
  const { data, response } = await client.chat.completions.create({ model: 'default', messages: [{ role: 'user', content: `Question ${i}` }] }).withResponse();
  console.log(`#${i} ${response.headers.get('x-switchyard-provider')}:${response.headers.get('x-switchyard-model')} after ${response.headers.get('x-switchyard-attempts')} attempt(s): ${data.choices[0]!.message.content?.slice(0, 50)}…`);
}
let streamed = '';
for await (const chunk of await client.chat.completions.create({ model: 'default', messages: [{ role: 'user', content: 'Stream it' }], stream: true })) {
  streamed += chunk.choices[0]?.delta.content ?? '';
}
console.log(`stream: ${streamed.slice(0, 60)}…`);
const emb = await client.embeddings.create({ model: 'embeddings', input: ['one', 'two'] });
console.log(`embeddings: ${emb.data.length} vectors of ${emb.data[0]!.embedding.length} floats from ${emb.model}`);
console.log(`models: ${(await client.models.list()).data.map((m) => m.id).join(', ')}`);
const refused = await new OpenAI({ apiKey: 'sk-wrong', baseURL: `${url}/v1`, maxRetries: 0 }).models.list().then(() => undefined, (e: APIError) => e);
console.log(`a wrong key: ${refused?.status} ${refused?.code}`);

console.log(await gateway.drain());
await router.close();
await sim.stop();
