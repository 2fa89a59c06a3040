// Child process for the fleet-shares scenario: one router (its own Redis connection, queues and
// budget levels, as one process of a fleet), closed loops for one tenant. Driven over IPC.
import { createRouter } from '../../src/router.js';
import { RouterError } from '../../src/errors.js';
import { redisStore } from '../../src/store/redis-store.js';

export interface FleetClientInput {
  redisURL: string;
  keyPrefix: string;
  baseURL: string;
  apiKey: string;
  model: string;
  rpm: number;
  windowMs: number;
  tenant: string;
  /** Closed loops, each one call at a time. */
  loops: number;
  /** Both tenants' shares (the fleet runs one config). */
  shares: Record<string, number>;
  /** Without the `shares` role: each process's fair queue alone (the control arm). */
  noFleetShares: boolean;
}

let stop = false;
process.on('message', (msg: any) => {
  if (msg.type === 'run') void run(msg.input as FleetClientInput, msg.startMs, msg.fromMs, msg.untilMs).catch((err) => process.send?.({ type: 'error', message: String(err) }));
  if (msg.type === 'stop') stop = true;
});
process.send?.({ type: 'booted' });

async function run(input: FleetClientInput, startMs: number, fromMs: number, untilMs: number): Promise<void> {
  // The Redis store as shipped; the control arm's without the `shares` role (the budget still shared exactly).
  const store = redisStore(input.redisURL, { keyPrefix: input.keyPrefix });
  if (input.noFleetShares) Object.assign(store, { syncShares: undefined });
  // When the shared budget granted each attempt, on the time it was asked with: what its limit counts.
  const grantedAt: number[] = [];
  const acquire = store.acquireBudget.bind(store);
  store.acquireBudget = async (req, nowMs) => {
    const grant = await acquire(req, nowMs);
    if (grant.ok) grantedAt.push(nowMs);
    return grant;
  };
  const router = createRouter({
    providers: { openai: { type: 'openai', apiKey: input.apiKey, baseURL: input.baseURL, timeoutMs: 10_000, limits: { rpm: input.rpm, windowMs: input.windowMs, maxQueueMs: 60_000 } } },
    chains: { default: [`openai:${input.model}`] },
    retry: { maxAttempts: 1 },
    tenants: Object.fromEntries(Object.entries(input.shares).map(([name, share]) => [name, { share }])),
    store: { type: 'redis', url: input.redisURL, keyPrefix: input.keyPrefix },
    log: { level: 'silent' },
  }, { store });
  const served = { inWindow: 0, total: 0, failed: 0, byKind: {} as Record<string, number>, sentAt: [] as number[] };
  // When each request left (the budget admitted it just before): the fleet's rate, whatever the upstream's arrival jitter.
  router.on('attempt', (e) => {
    if (!e.skipped) served.sentAt.push(e.startedAtMs);
  });
  const loop = async () => {
    while (!stop && Date.now() < untilMs) {
      try {
        await router.chat({ messages: [{ role: 'user', content: 'Say hello' }], maxTokens: 16, tenant: input.tenant });
        served.total++;
        const now = Date.now();
        if (now >= fromMs && now < untilMs) served.inWindow++;
      } catch (err) {
        if (stop || Date.now() >= untilMs) break;
        served.failed++;
        const kind = err instanceof RouterError ? err.kind : 'other';
        served.byKind[kind] = (served.byKind[kind] ?? 0) + 1;
      }
    }
  };
  await new Promise((r) => setTimeout(r, Math.max(0, startMs - Date.now())));
  await Promise.all(Array.from({ length: input.loops }, loop));
  await router.close();
  process.send?.({ type: 'done', served: { ...served, grantedAt } });
}
