/**
 * One process of a fleet for test/e2e/multi-process.test.ts: a router on a shared Redis store with
 * `breaker.shared`, its `primary` (OpenAI API) and `backup` (Anthropic API) on one loopback upstream.
 * Env: REDIS_URL, UPSTREAM_URL, KEY_PREFIX, RESET_MS. Reads commands from stdin, one a line:
 *   trip   four calls, then prints {"state": ...} once the fleet's store has the open breaker
 *   probe  waits until the breaker (the fleet's) is half-open, calls until it is open again, prints
 *          {"primary": <requests this process sent to primary>}
 *   exit   closes the router and exits
 * Prints "ready" once the router is built.
 */
import { createInterface } from 'node:readline';
import { pino } from 'pino';
import { createRouter } from '../../src/router.js';
import { redisStore } from '../../src/store/redis-store.js';

const keyPrefix = process.env.KEY_PREFIX!;
const router = createRouter({
  providers: {
    primary: { type: 'openai', apiKey: 'sk-worker-test', baseURL: `${process.env.UPSTREAM_URL}/v1` },
    backup: { type: 'anthropic', apiKey: 'sk-worker-test', baseURL: process.env.UPSTREAM_URL! },
  },
  chains: { default: ['primary:gpt-4o-mini', 'backup:claude-sonnet-4-6'] },
  retry: { maxAttempts: 1 },
  breaker: { volumeThreshold: 4, resetTimeoutMs: Number(process.env.RESET_MS), windowMs: 1_000, shared: true, lastResort: false },
  store: { type: 'redis', url: process.env.REDIS_URL!, keyPrefix },
}, { logger: pino({ level: 'silent' }) });

const ask = { messages: [{ role: 'user' as const, content: 'hello' }] };
const state = () => router.breakerStates().primary;
const tick = () => new Promise((r) => setTimeout(r, 10));
let primary = 0;
const call = async () => {
  const result = await router.chat(ask);
  primary += result.attempts.filter((a) => a.provider === 'primary' && !a.skipped).length;
};

async function run(command: string): Promise<void> {
  if (command === 'trip') {
    for (let i = 0; i < 4; i++) await call();
    const inspector = redisStore(process.env.REDIS_URL!, { keyPrefix });
    while ((await inspector.readBreaker('primary')).state !== 'open') await tick();
    await inspector.close();
    process.stdout.write(`${JSON.stringify({ state: state() })}\n`);
  } else if (command === 'probe') {
    while (state() !== 'halfOpen') await tick();
    while (state() !== 'open') {
      await call();
      await tick();
    }
    process.stdout.write(`${JSON.stringify({ primary })}\n`);
  } else if (command === 'exit') {
    await router.close();
    process.exit(0);
  }
}

process.stdout.write('ready\n');
const lines = createInterface({ input: process.stdin });
let queue = Promise.resolve();
lines.on('line', (line) => (queue = queue.then(() => run(line.trim()))));
