import { API_KEY, benchRouter, sdkClient, UNLIMITED_SIM } from '../lib/arms.js';
import { num, withIqr } from '../lib/format.js';
import { closedLoop, interleaved, sequential } from '../lib/load.js';
import { check, overBy, type ScenarioReport } from '../lib/report.js';
import type { BenchContext, BenchScenario } from '../lib/scenario.js';
import { SimProcess } from '../lib/sim-process.js';
import { quantile, spread } from '../lib/stats.js';

const MODEL = 'text-embedding-3-small';
const ARMS = ['direct', 'router', 'router-fetch'] as const;
type ArmName = (typeof ARMS)[number];
const LABEL: Record<ArmName, string> = {
  direct: 'bare SDK embeddings.create (maxRetries 0)',
  router: 'router.embed (default transport: node:http)',
  'router-fetch': 'router.embed (transport: fetch, as the bare SDK)',
};

/**
 * What `router.embed` adds over the SDK's `embeddings.create`, measured like the chat overhead: a
 * zero-latency simulator in its own process, 16 short inputs a call, a chain of two providers
 * serving the same model, breakers and embeddings budgets on; c=1 interleaved call by call, and a
 * closed loop at 20 in flight.
 */
export const embedOverhead: BenchScenario = {
  name: 'embed',
  title: '7. Embeddings overhead: router.embed against the bare openai SDK (zero-latency simulator)',
  async run(ctx: BenchContext): Promise<ScenarioReport> {
    const q = ctx.quick;
    const rounds = q ? 2 : 5;
    const seqCalls = q ? 20 : 400;
    const c20Ms = q ? 150 : 1500;
    const sim = await SimProcess.launch({ seed: 11, providers: { primary: { type: 'openai', limits: UNLIMITED_SIM }, secondary: { type: 'openai', limits: UNLIMITED_SIM } } });
    const input = Array.from({ length: 16 }, (_, i) => `a short passage to embed, number ${i}`);
    const direct = sdkClient(sim.baseURL('primary'), 0);
    const routerOf = (transport: 'node-http' | 'fetch') => benchRouter({
      providers: {
        primary: { type: 'openai', apiKey: API_KEY, baseURL: sim.baseURL('primary'), transport, limits: { embeddings: { rpm: 10_000_000, tpm: 2_000_000_000, concurrency: 20_000 } } },
        secondary: { type: 'openai', apiKey: API_KEY, baseURL: sim.baseURL('secondary'), transport },
      },
      chains: { embeddings: [`primary:${MODEL}`, `secondary:${MODEL}`] },
      log: { level: 'silent' },
    });
    const routers = { router: routerOf('node-http'), 'router-fetch': routerOf('fetch') };
    const fns: Record<ArmName, () => Promise<unknown>> = {
      direct: () => direct.embeddings.create({ model: MODEL, input }),
      router: () => routers.router.embed({ input }),
      'router-fetch': () => routers['router-fetch'].embed({ input }),
    };
    try {
      for (const arm of ARMS) await sequential(q ? 20 : 300, fns[arm]);
      const seq: Record<ArmName, number[]> = { direct: [], router: [], 'router-fetch': [] };
      const rps: Record<ArmName, number[]> = { direct: [], router: [], 'router-fetch': [] };
      for (let r = 0; r < rounds; r++) {
        ctx.log(`embed: round ${r + 1}/${rounds}`);
        const lat = await interleaved(seqCalls, ARMS.map((arm) => [arm, fns[arm]] as const));
        for (const arm of ARMS) seq[arm].push(quantile(lat[arm]!, 0.5));
        for (const arm of ARMS) {
          const res = await closedLoop(20, c20Ms, fns[arm]);
          rps[arm].push((res.completed / res.elapsedMs) * 1000);
        }
      }
      const added = (arm: ArmName) => spread(seq[arm].map((p50, i) => p50 - seq.direct[i]!));
      const ratio = (arm: ArmName) => spread(rps[arm].map((x, i) => x / rps.direct[i]!));
      const rows = [
        ['c=1 p50 latency (µs), median of rounds', ...ARMS.map((a) => withIqr(spread(seq[a]), 0))],
        ['added p50 vs bare SDK (µs)', '', ...ARMS.slice(1).map((a) => withIqr(added(a), 1))],
        ['c=20 throughput (calls/s)', ...ARMS.map((a) => withIqr(spread(rps[a]), 0))],
        ['throughput ratio to bare SDK', '1', ...ARMS.slice(1).map((a) => withIqr(ratio(a), 3))],
      ];
      const like = added('router-fetch').median;
      return {
        name: 'embed', title: this.title,
        method: [
          'Simulator in its own process, zero latency; 16 short inputs a call; the SDK\'s default base64 encoding on every arm.',
          `Router: an embeddings chain of two openai-type providers serving ${MODEL}, breakers and embeddings budgets (never binding) on.`,
          `c=1: ${rounds} rounds × ${seqCalls} calls per arm, interleaved call by call; c=20: closed loop, ${c20Ms} ms per arm per round.`,
        ],
        tables: [{ columns: ['metric', ...ARMS.map((a) => LABEL[a])], rows }],
        targets: [
          check('added p50 at c=1 (router.embed on the SDK\'s fetch: like for like)', '≤ 20 µs', `${num(like, 1)} µs`, q ? null : like <= 20, overBy(like, 20, 'µs')),
          check('throughput at c=20 (router.embed)', '≥ 0.97x bare SDK', `${num(ratio('router').median, 3)}x`, q ? null : ratio('router').median >= 0.97),
        ],
        notes: [],
        data: { seq, rps },
      };
    } finally {
      for (const r of Object.values(routers)) await r.close();
      await sim.close();
    }
  },
};
