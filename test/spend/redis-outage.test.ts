import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { RouterEvents } from '../../src/observe/events.js';
import { createRouter } from '../../src/router.js';
import { captureLogger } from '../support/capture-logger.js';
import { OPENAI_PATH, openaiOk, openaiSuccessHeaders } from '../support/fixtures.js';
import { startUpstream, type Upstream } from '../support/upstream.js';
import { OPENAI_KEY, rejectionOf } from '../support/wire-router.js';
import { startRestartableRedis, type RestartableRedis } from '../reliability/restartable-redis.js';

// A real redis-server killed under a router with a spend budget (store.onUnavailable 'local'): the
// router goes on with its share of what the fleet had left, and says so once. Waits are on
// conditions (I/O on real time), never on durations.

let redis: RestartableRedis;
let up: Upstream;
beforeEach(async () => {
  redis = await startRestartableRedis();
  up = await startUpstream();
  up.otherwise(OPENAI_PATH, () => openaiOk('Hello!')); // 19 prompt and 10 completion tokens
});
afterEach(async () => {
  await up.close();
  await redis.stop();
});

async function eventually(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((r) => setTimeout(r, 10));
}

/**
 * A router with a $2-a-day budget for tenant acme on the Redis that the test kills, its local share
 * half of what the fleet had left; a cent a token, so each answer costs $0.29 and each worst case
 * about $0.30. Its store and spend events are collected.
 */
function spendRouter() {
  const log = captureLogger();
  const router = createRouter({
    providers: { openai: { type: 'openai', apiKey: OPENAI_KEY, baseURL: `${up.url}/v1` } },
    chains: { default: ['openai:gpt-4o-mini'] },
    retry: { maxAttempts: 1 },
    prices: { 'gpt-4o-mini': { inputPerMTok: 10_000, outputPerMTok: 10_000 } },
    tenants: { acme: { spend: { usdPerDay: 2, localShare: 0.5 } } },
    store: { type: 'redis', url: redis.url, keyPrefix: `spend-outage-${randomUUID()}:`, onUnavailable: 'local' },
  }, { logger: log.logger });
  const storeEvents: Array<RouterEvents['store']> = [];
  const spend: Array<RouterEvents['spend']> = [];
  router.on('store', (e) => storeEvents.push(e));
  router.on('spend', (e) => spend.push(e));
  return { log, router, storeEvents, spend };
}

const ask = { messages: [{ role: 'user' as const, content: 'Please say hello to everyone in this room, politely.' }], tenant: 'acme', maxTokens: 10 };

describe("spend budgets with Redis killed (onUnavailable 'local')", () => {
  it('spends the local share of what the fleet had left, and says so once with a spend event and a warning', async () => {
    const { log, router, storeEvents, spend } = spendRouter();
    try {
      // On shared state: two calls. The last total Redis reported was the second reservation's:
      // $0.29 spent plus its worst case, about $0.61.
      await router.chat(ask);
      await router.chat(ask);
      await redis.kill();
      await eventually(() => storeEvents.some((e) => e.state === 'unavailable'));
      // Alone now, with half of what was left, (2 - ~0.61) / 2, about $0.69: two more calls fit, a third does not.
      await router.chat(ask);
      await router.chat(ask);
      const refused = await rejectionOf(router.chat(ask));
      expect(refused.kind).toBe('budget_exceeded');
      expect(refused.message).toMatch(/holds \$0\.5800 of \$0\.6\d+/);
      expect(up.count(OPENAI_PATH)).toBe(4);
      expect(spend).toEqual([expect.objectContaining({ reason: 'local', budget: 'tenant:acme', localShare: 0.5, tenant: 'acme' })]);
      const warned = log.records().filter((r) => r.level === 40 && String(r.msg).startsWith('shared store unavailable: this spend budget holds per process'));
      expect(warned).toHaveLength(1);
    } finally {
      await router.close();
    }
  }, 60_000);

  it('Redis dies between a reservation and its settlement: the answer stands, its cost is not charged twice, the local share is said once', async () => {
    const { log, router, storeEvents, spend } = spendRouter();
    try {
      await router.chat(ask);
      // The second call's worst case is reserved in Redis, then its answer is held upstream while Redis dies.
      let open!: () => void;
      const gate = new Promise<void>((r) => (open = r));
      const body = {
        id: 'chatcmpl-2', object: 'chat.completion', created: 1741569952, model: 'gpt-4o-mini',
        choices: [{ index: 0, message: { role: 'assistant', content: 'Hello!', refusal: null }, logprobs: null, finish_reason: 'stop' }],
        usage: { prompt_tokens: 19, completion_tokens: 10, total_tokens: 29 },
      };
      up.script(OPENAI_PATH, { status: 200, headers: openaiSuccessHeaders, body, heldUntil: gate });
      const second = router.chat(ask);
      await eventually(() => up.count(OPENAI_PATH) === 2);
      await redis.kill();
      await eventually(() => storeEvents.some((e) => e.state === 'unavailable'));
      open();
      // The settlement cannot reach Redis: the call still ends with its answer and its cost.
      const answered = await second;
      expect(answered.text).toBe('Hello!');
      expect(answered.costUsd).toBeCloseTo(0.29, 6);
      // Local share: (2 - what Redis last reported, $0.29 spent plus the second's worst case) / 2. The
      // second call's cost is in that report as its hold, and is not charged again here: two more
      // calls fit (charged it again, only one would), a third is refused without a request.
      await router.chat(ask);
      await router.chat(ask);
      const refused = await rejectionOf(router.chat(ask));
      expect(refused.kind).toBe('budget_exceeded');
      expect(refused.message).toMatch(/holds \$0\.5800 of \$0\.6\d+/);
      expect(up.count(OPENAI_PATH)).toBe(4);
      expect(storeEvents.map((e) => e.state)).toEqual(['unavailable']);
      expect(spend).toEqual([expect.objectContaining({ reason: 'local', budget: 'tenant:acme', localShare: 0.5, tenant: 'acme' })]);
      const warned = log.records().filter((r) => r.level === 40 && String(r.msg).startsWith('shared store unavailable: this spend budget holds per process'));
      expect(warned).toHaveLength(1);
    } finally {
      await router.close();
    }
  }, 60_000);

  it('Redis dies as a reservation is sent: the call ends (here with its answer, on the local share), with one request', async () => {
    const { log, router, storeEvents, spend } = spendRouter();
    try {
      await router.chat(ask);
      // No wait for the outage to be noticed: this call's reservation is what finds Redis gone.
      const killed = redis.kill();
      const answered = await router.chat(ask);
      await killed;
      expect(answered.text).toBe('Hello!');
      expect(up.count(OPENAI_PATH)).toBe(2);
      expect(spend).toEqual([expect.objectContaining({ reason: 'local', budget: 'tenant:acme', localShare: 0.5 })]);
      expect(log.records().filter((r) => r.level === 40 && String(r.msg).startsWith('shared store unavailable: this spend budget holds per process'))).toHaveLength(1);
    } finally {
      await router.close();
    }
  }, 60_000);
});
