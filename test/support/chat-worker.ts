/**
 * A separate process for the multi-process tests: builds a router on a shared Redis store and makes
 * CALLS concurrent calls, then prints one JSON line per call ({provider} or {error}) and exits.
 * Env: REDIS_URL, UPSTREAM_URL, CALLS, RPM (primary's rpm limit, optional), KEY_PREFIX (isolates a test).
 */
import { pino } from 'pino';
import { createRouter } from '../../src/router.js';

const calls = Number(process.env.CALLS ?? '10');
const rpm = process.env.RPM ? Number(process.env.RPM) : undefined;
const router = createRouter({
  providers: {
    primary: { type: 'openai', apiKey: 'sk-worker-test', baseURL: `${process.env.UPSTREAM_URL}/v1`, limits: rpm ? { rpm } : undefined },
    backup: { type: 'anthropic', apiKey: 'sk-worker-test', baseURL: process.env.UPSTREAM_URL! },
  },
  chains: { default: ['primary:gpt-4o-mini', 'backup:claude-sonnet-4-6'] },
  retry: { maxAttempts: 1 },
  // These tests count requests against a shared budget: a busy machine's slow Redis reply must not
  // send a worker to process-local budgets mid-run (onUnavailable 'fail' would fail it instead).
  store: { type: 'redis', url: process.env.REDIS_URL!, keyPrefix: process.env.KEY_PREFIX, failoverMs: 10_000 },
}, { logger: pino({ level: 'silent' }) });

const results = await Promise.all(Array.from({ length: calls }, () =>
  router.chat({ messages: [{ role: 'user', content: 'hello' }] }).then(
    (r) => ({ provider: r.provider, skipped: r.attempts.filter((a) => a.skipped).map((a) => a.kind) }),
    (e) => ({ error: e.kind as string }),
  )));
for (const r of results) process.stdout.write(`${JSON.stringify(r)}\n`);
await router.close();
