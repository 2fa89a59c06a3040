import { Queue, Worker } from 'bullmq';
import { createRouter } from '../src/index.js';
import { routerProcessor } from '../src/integrations/bullmq/index.js';
import { startSimulator } from '../src/sim/index.js';
import { startRedisServer } from '../test/support/redis-server.js';

// BullMQ jobs that snooze, cancel or retry as the router's error says, against simulated providers
// (no keys). Needs Redis: REDIS_URL, or else a throwaway redis-server this script starts (installed
// as `redis-server`, e.g. apt-get install redis-server). Run: npx tsx examples/bullmq.ts
//   - job "summary": OpenAI's 1st answer is a 429 with a 1 s hint; the chain is exhausted with
//     retryAfterMs, so the job waits in delayed (no attempt spent) and then completes;
//   - job "billing": the "broke" account is out of quota: the job fails at once, as unrecoverable;
//   - job "storm": the "flaky" server answers its first two requests with a 503: BullMQ's own
//     attempts and backoff run the job again until it completes.
const redis = process.env.REDIS_URL ? undefined : await startRedisServer();
const url = new URL(process.env.REDIS_URL ?? redis!.url);
const connection = { host: url.hostname, port: Number(url.port || 6379), ...(url.password ? { password: decodeURIComponent(url.password) } : {}) };

const sim = await startSimulator({
  seed: 1,
  providers: {
    openai: { type: 'openai', latency: { baseMs: 20 }, faults: [{ fault: 'rate_limit', nth: 1, retryAfterMs: 1_000 }] },
    broke: { type: 'openai', faults: [{ fault: 'insufficient_quota' }] },
    flaky: { type: 'openai', faults: [{ fault: 'unavailable', nth: [1, 2] }] },
  },
});
const router = createRouter({
  providers: {
    openai: { type: 'openai', apiKey: 'sk-anything', baseURL: sim.baseURL('openai') },
    broke: { type: 'openai', apiKey: 'sk-anything', baseURL: sim.baseURL('broke') },
    flaky: { type: 'openai', apiKey: 'sk-anything', baseURL: sim.baseURL('flaky') },
  },
  chains: { default: ['openai:gpt-4o-mini'], billing: ['broke:gpt-4o-mini'], storm: ['flaky:gpt-4o-mini'] },
  // A 429 whose hint is longer than this falls through (here: at once), so the job is snoozed instead.
  retry: { maxInlineWaitMs: 0, maxAttempts: 1 },
  log: { level: 'silent' },
});

// A queue of its own, removed at the end: nothing else in your Redis is touched.
const name = `switchyard-example-${process.pid}`;
const queue = new Queue(name, { connection });
const t0 = Date.now();
const at = () => `${String(Date.now() - t0).padStart(5)} ms`;
const worker = new Worker(name, routerProcessor(async (job) => {
  console.log(`${at()}  ${job.name}: started (attempts made ${job.attemptsMade}, runs ${job.attemptsStarted})`);
  const res = await router.chat({ chain: job.data.chain, messages: [{ role: 'user', content: job.data.text }], maxTokens: 40 });
  return res.text;
}, {
  onVerdict: (job, verdict) => console.log(`${at()}  ${job.name}: ${verdict.action === 'snooze' ? `snoozed for ${Math.round(verdict.delayMs)} ms` : 'cancelled'}`),
}), { connection });

let settled = 0;
const done = new Promise<void>((resolve) => {
  const settle = () => ++settled === 3 && resolve();
  worker.on('completed', (job) => {
    console.log(`${at()}  ${job.name}: completed after ${job.attemptsMade} attempt(s): ${String(job.returnvalue).slice(0, 60)}…`);
    settle();
  });
  worker.on('failed', async (job, err) => {
    if ((await job!.getState()) !== 'failed') return console.log(`${at()}  ${job!.name}: failed (${err.message.slice(0, 60)}), BullMQ retries it`);
    console.log(`${at()}  ${job!.name}: failed for good, ${err.name}: ${err.message.slice(0, 80)}`);
    settle();
  });
});
await queue.add('summary', { chain: 'default', text: 'Summarise ticket 1' }, { attempts: 1 });
await queue.add('billing', { chain: 'billing', text: 'Summarise ticket 2' }, { attempts: 3 });
await queue.add('storm', { chain: 'storm', text: 'Summarise ticket 3' }, { attempts: 5, backoff: { type: 'exponential', delay: 100 } });
await done;

await worker.close();
await queue.obliterate({ force: true });
await queue.close();
await router.close();
await sim.stop();
await redis?.stop();
