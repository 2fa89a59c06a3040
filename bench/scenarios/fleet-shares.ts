import { randomUUID } from 'node:crypto';
import { createRouter, type Router } from '../../src/router.js';
import { redisStore } from '../../src/store/redis-store.js';
import type { StateStore } from '../../src/store/state-store.js';
import { startRedisServer } from '../../test/support/redis-server.js';
import { API_KEY, MODEL, UNLIMITED_SIM, silentLogger } from '../lib/arms.js';
import { num } from '../lib/format.js';
import { request } from '../lib/prompts.js';
import { check, type ScenarioReport } from '../lib/report.js';
import type { BenchContext, BenchScenario } from '../lib/scenario.js';
import { SimProcess } from '../lib/sim-process.js';

/**
 * Fair shares across a fleet: two routers on one redis-server (each with its own store and
 * connection, as two processes would have), tenant gold (share 3) only on the first, silver
 * (share 1) only on the second, closed loops offering three times the target's rpm. Arms: the
 * fleet's shares (the Redis store as shipped), and each router alone (the same Redis without the
 * `shares` role: one fair queue per router, the budget first come first served).
 */
export const fleetShares: BenchScenario = {
  name: 'fleet-shares',
  title: '9. Tenant shares 3:1 across two routers on one Redis',
  async run(ctx: BenchContext): Promise<ScenarioReport> {
    const q = ctx.quick;
    const rpm = q ? 1_200 : 600; // 20/s, 10/s
    const warmupMs = q ? 1_000 : 10_000;
    const measureMs = q ? 2_000 : 30_000;
    const perRouter = Math.ceil((rpm / 60) * 0.05 * 3); // about 3x the limit in flight, with 50 ms of upstream latency
    const redis = await startRedisServer();
    const sim = await SimProcess.launch({ seed: 24, providers: { openai: { type: 'openai', limits: UNLIMITED_SIM, latency: { baseMs: 50, jitterMs: 5 } } } });
    const req = request('Say hello', 16);
    const arms: Array<{ arm: string; gold: number; silver: number; ratio: number; perSec: number; failed: number }> = [];
    try {
      for (const arm of ['fleet shares (Redis `shares` role)', 'each router alone (no `shares` role)'] as const) {
        const prefix = `bench-shares-${randomUUID()}:`;
        const fleet = arm.startsWith('fleet');
        const make = (): Router => {
          const store: StateStore = redisStore(redis.url, { keyPrefix: prefix });
          if (!fleet) Object.assign(store, { syncShares: undefined });
          return createRouter({
            providers: { openai: { type: 'openai', apiKey: API_KEY, baseURL: sim.baseURL('openai'), timeoutMs: 10_000, limits: { rpm, maxQueueMs: 60_000 } } },
            chains: { default: [`openai:${MODEL}`] },
            retry: { maxAttempts: 1 },
            tenants: { gold: { share: 3 }, silver: { share: 1 } },
            store: { type: 'redis', url: redis.url, keyPrefix: prefix },
            log: { level: 'silent' },
          }, { logger: silentLogger, store });
        };
        const a = make();
        const b = make();
        const served = { gold: 0, silver: 0, failed: 0 };
        let running = true;
        const start = Date.now();
        const from = start + warmupMs;
        const until = from + measureMs;
        const loop = async (r: Router, tenant: 'gold' | 'silver') => {
          while (running) {
            try {
              await r.chat({ messages: req.messages, maxTokens: req.maxTokens, tenant });
              const now = Date.now();
              if (now >= from && now < until) served[tenant]++;
            } catch {
              if (running) served.failed++;
            }
          }
        };
        const loops = [...Array.from({ length: perRouter }, () => loop(a, 'gold')), ...Array.from({ length: perRouter }, () => loop(b, 'silver'))];
        await new Promise((r) => setTimeout(r, until - Date.now()));
        running = false;
        await Promise.all([a.close(), b.close()]);
        await Promise.all(loops);
        arms.push({ arm, gold: served.gold, silver: served.silver, ratio: served.gold / Math.max(1, served.silver), perSec: (served.gold + served.silver) / (measureMs / 1000), failed: served.failed });
        ctx.log(`fleet-shares: ${arm}: gold ${served.gold}, silver ${served.silver}`);
      }
    } finally {
      await sim.close();
      await redis.stop();
    }
    const [withShares, alone] = arms as [typeof arms[number], typeof arms[number]];
    const within = Math.abs(withShares.ratio / 3 - 1) <= 0.1;
    return {
      name: 'fleet-shares',
      title: fleetShares.title,
      method: [
        `Two routers in one Node process, each with its own Redis store and connection, on one redis-server; one target at rpm ${rpm} (paced), the simulator answering in about 50 ms.`,
        `Router 1 serves only tenant gold (share 3), router 2 only silver (share 1), ${perRouter} closed loops each (about 3x the limit offered).`,
        `Served calls counted for ${measureMs / 1000} s after a ${warmupMs / 1000} s warm-up (the first burst and the 10 s share window).`,
      ],
      tables: [{
        columns: ['arm', 'gold served', 'silver served', 'gold : silver', 'served / s', 'failed calls'],
        rows: arms.map((r) => [r.arm, String(r.gold), String(r.silver), `${num(r.ratio, 2)} : 1`, num(r.perSec, 1), String(r.failed)]),
      }],
      targets: [
        check('served ratio across the fleet, fleet shares', 'within 10% of 3:1', `${num(withShares.ratio, 2)} : 1`, q ? null : within, `${num(Math.abs(withShares.ratio / 3 - 1) * 100, 0)}% off`),
        check('served ratio, each router alone (control)', 'misses 3:1 (about 1:1)', `${num(alone.ratio, 2)} : 1`, q ? null : Math.abs(alone.ratio / 3 - 1) > 0.1),
      ],
      notes: ['Two routers in one process, not two OS processes: each has its own store, connection, queues and budgets level, so what they share is only Redis, as two processes would.'],
      data: { rpm, warmupMs, measureMs, perRouter, arms },
    };
  },
};
