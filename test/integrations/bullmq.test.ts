import { randomUUID } from 'node:crypto';
import { Queue, Worker, type Job } from 'bullmq';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { routerProcessor } from '../../src/integrations/bullmq/index.js';
import type { JobVerdict } from '../../src/integrations/bullmq/index.js';
import type { Router } from '../../src/router.js';
import { OPENAI_PATH, openaiBodies } from '../support/fixtures.js';
import { startRedisServer, type RedisServer } from '../support/redis-server.js';
import { startUpstream, type Upstream } from '../support/upstream.js';
import { ask, wireRouter } from '../support/wire-router.js';

// A real BullMQ Worker on a real redis-server, calling a router whose openai provider talks to a
// loopback upstream through the real SDK. BullMQ's delays are real time, so they are kept to tens of
// milliseconds, and the tests wait for the job to settle, never for a time.

let redis: RedisServer;
let up: Upstream;
const open: Array<{ close(): Promise<unknown> }> = [];

beforeAll(async () => {
  redis = await startRedisServer();
});
afterAll(async () => {
  await redis?.stop();
});
beforeEach(async () => {
  up = await startUpstream();
});
afterEach(async () => {
  // Workers first (they hold jobs), then queues and routers.
  for (const thing of open.splice(0).reverse()) await thing.close();
  await up.close();
});

interface Settled {
  state: 'completed' | 'failed';
  job: Job;
  result?: unknown;
  error?: Error;
}

/** A queue and a worker running `routerProcessor` around a router call, and the job's settled outcome. */
async function runJob(router: Router, chain: string, jobOptions: { attempts: number; backoff?: { type: 'fixed'; delay: number } }) {
  const name = `jobs-${randomUUID()}`;
  const connection = { host: '127.0.0.1', port: redis.port };
  const verdicts: JobVerdict[] = [];
  let settle!: (s: Settled) => void;
  const settled = new Promise<Settled>((resolve) => (settle = resolve));
  const queue = new Queue(name, { connection });
  open.push({ close: () => router.close() }, queue);
  const worker = new Worker(name, routerProcessor(async () => (await router.chat({ ...ask('Summarise the ticket'), chain })).text, {
    onVerdict: (_job, verdict) => verdicts.push(verdict),
  }), { connection });
  open.push(worker);
  worker.on('completed', (job, result) => settle({ state: 'completed', job, result }));
  // 'failed' fires for every failed attempt; the job is settled only when BullMQ will not retry it.
  worker.on('failed', (job, error) => void job!.getState().then((state) => state === 'failed' && settle({ state, job: job!, error })));
  await queue.add('summary', {}, jobOptions);
  return { outcome: await settled, verdicts };
}

describe('routerProcessor on a real BullMQ worker', () => {
  it('delays a job whose chain is exhausted with retryAfterMs, without spending an attempt, and completes it once the upstream recovers', async () => {
    // Any wait hint falls through (maxInlineWaitMs 0): the only target cools for 40 ms and the chain is exhausted.
    const { router } = wireRouter(up, { retry: { maxInlineWaitMs: 0 } });
    up.script(OPENAI_PATH, { status: 429, headers: { 'retry-after-ms': '40' }, body: openaiBodies.rateLimitRequests });
    const { outcome, verdicts } = await runJob(router, 'openai-only', { attempts: 1 });

    expect(outcome.state).toBe('completed');
    expect(outcome.result).toBe('Hello! How can I assist you today?');
    expect(verdicts).toHaveLength(1);
    expect(verdicts[0]).toMatchObject({ action: 'snooze' });
    expect((verdicts[0] as { delayMs: number }).delayMs).toBeGreaterThanOrEqual(40);
    // Started twice, with attempts: 1: the snooze spent no attempt, the run that completed the only one.
    expect(outcome.job.attemptsStarted).toBe(2);
    expect(outcome.job.attemptsMade).toBe(1);
    expect(up.count(OPENAI_PATH)).toBe(2);
  });

  it('fails a quota job once, as unrecoverable, after exactly one upstream request', async () => {
    const { router } = wireRouter(up);
    up.otherwise(OPENAI_PATH, () => ({ status: 429, body: openaiBodies.insufficientQuota }));
    const { outcome, verdicts } = await runJob(router, 'openai-only', { attempts: 3, backoff: { type: 'fixed', delay: 5 } });

    expect(outcome.state).toBe('failed');
    expect(outcome.error!.name).toBe('UnrecoverableError');
    expect(outcome.error!.message).toContain('quota');
    expect(verdicts).toEqual([{ action: 'cancel' }]);
    expect(outcome.job.attemptsMade).toBe(1);
    expect(up.count(OPENAI_PATH)).toBe(1);
  });

  it("leaves a 503 storm to BullMQ's retries and backoff, and completes when it passes", async () => {
    // Two requests a job attempt; the breaker is kept closed so that no open circuit turns it into a snooze.
    const { router } = wireRouter(up, {
      retry: { maxAttempts: 2, baseDelayMs: 1, maxDelayMs: 2 },
      breaker: { consecutiveFailures: 100, volumeThreshold: 100 },
    });
    const overloaded = { status: 503, body: openaiBodies.overloaded503 };
    up.script(OPENAI_PATH, overloaded, overloaded, overloaded, overloaded);
    const { outcome, verdicts } = await runJob(router, 'openai-only', { attempts: 3, backoff: { type: 'fixed', delay: 5 } });

    expect(outcome.state).toBe('completed');
    expect(verdicts).toEqual([]);
    // Two attempts failed into BullMQ's backoff; the third completed.
    expect(outcome.job.attemptsMade).toBe(3);
    expect(outcome.job.attemptsStarted).toBe(3);
    expect(up.count(OPENAI_PATH)).toBe(5);
  });

  it('fails a job after its attempts when the 503 storm outlasts them', async () => {
    const { router } = wireRouter(up, {
      retry: { maxAttempts: 1 },
      breaker: { consecutiveFailures: 100, volumeThreshold: 100 },
    });
    up.otherwise(OPENAI_PATH, () => ({ status: 503, body: openaiBodies.overloaded503 }));
    const { outcome } = await runJob(router, 'openai-only', { attempts: 2, backoff: { type: 'fixed', delay: 5 } });

    expect(outcome.state).toBe('failed');
    expect(outcome.error!.name).toBe('RouterError');
    expect(outcome.job.attemptsMade).toBe(2);
    expect(up.count(OPENAI_PATH)).toBe(2);
  });
});
