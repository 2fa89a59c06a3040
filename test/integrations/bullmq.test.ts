import { randomUUID } from 'node:crypto';
import { Queue, Worker, type Job } from 'bullmq';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { routerProcessor } from '../../src/integrations/bullmq/index.js';
import type { JobVerdict } from '../../src/integrations/bullmq/index.js';
import type { Router } from '../../src/router.js';
import type { ChatRequest } from '../../src/types.js';
import { OPENAI_PATH, openaiBodies } from '../support/fixtures.js';
import { redisPerFile } from '../support/redis-per-file.js';
import { startUpstream, type Upstream } from '../support/upstream.js';
import { VirtualClock } from '../support/virtual-clock.js';
import { ask, rejectionOf, wireRouter } from '../support/wire-router.js';

// A real BullMQ Worker on a real redis-server, calling a router whose openai provider talks to a
// loopback upstream through the real SDK. BullMQ's delays are real time, so they are kept to tens of
// milliseconds, and the tests wait for the job to settle, never for a time.

const redis = redisPerFile();
let up: Upstream;
const open: Array<{ close(): Promise<unknown> }> = [];
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
async function runJob(
  router: Router, chain: string, jobOptions: { attempts: number; backoff?: { type: 'fixed'; delay: number } },
  options: { request?: Partial<ChatRequest>; onVerdict?: (verdict: JobVerdict) => void } = {},
) {
  const name = `jobs-${randomUUID()}`;
  const connection = { host: '127.0.0.1', port: redis.port };
  const verdicts: JobVerdict[] = [];
  let settle!: (s: Settled) => void;
  const settled = new Promise<Settled>((resolve) => (settle = resolve));
  const queue = new Queue(name, { connection });
  open.push({ close: () => router.close() }, queue);
  const worker = new Worker(name, routerProcessor(async () => (await router.chat({ ...ask('Summarise the ticket'), chain, ...options.request })).text, {
    onVerdict: (_job, verdict) => {
      verdicts.push(verdict);
      options.onVerdict?.(verdict);
    },
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

  it('delays a job its tenant\'s spend budget refuses until the UTC day turns, without spending an attempt, then completes it', async () => {
    // The router's clock is virtual, 50 ms before midnight UTC; the snooze's wait passes on it when
    // the job is delayed (BullMQ's own delay is real time: the same 50 ms).
    const clock = new VirtualClock({ startMs: Date.parse('2026-11-28T23:59:59.950Z') });
    const { router, openai } = wireRouter(up, {
      prices: { 'gpt-4o-mini': { inputPerMTok: 10_000, outputPerMTok: 10_000 } }, // a cent a token: an answer costs $0.29
      tenants: { batch: { spend: { usdPerDay: 0.4 } } },
    }, { clock });
    const request = { tenant: 'batch', maxTokens: 10 };
    await router.chat({ ...ask('Summarise the ticket'), chain: 'openai-only', ...request }); // $0.29 of the day's $0.40
    expect((await rejectionOf(router.chat({ ...ask('Summarise the ticket'), chain: 'openai-only', ...request }))).kind).toBe('budget_exceeded');
    const { outcome, verdicts } = await runJob(router, 'openai-only', { attempts: 1 }, {
      request, onVerdict: (v) => void (v.action === 'snooze' && clock.advance(v.delayMs)),
    });

    expect(verdicts).toEqual([{ action: 'snooze', delayMs: 50 }]);
    expect(outcome.state).toBe('completed');
    // Snoozed once, then run on the new day: no attempt spent on the refusal, one request sent for the job.
    expect(outcome.job.attemptsStarted).toBe(2);
    expect(outcome.job.attemptsMade).toBe(1);
    expect(openai()).toBe(2);
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
