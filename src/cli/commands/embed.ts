import { parseArgs } from 'node:util';
import { pino } from 'pino';
import { isRouterError } from '../../errors.js';
import { createRouter } from '../../router.js';
import { startSimulator } from '../../sim/index.js';
import type { Attempt } from '../../types.js';
import { parseFlags, wholeNumberFlag } from '../args.js';
import { UsageError, type CliCommand } from '../command.js';
import { table } from '../table.js';

const MODEL = 'text-embedding-3-small';

const USAGE = `Usage: switchyard embed [options]

Embeds a batch of documents through an embeddings chain of two providers serving the same model
(${MODEL} at "openai", then at "azure"), on the built-in simulator (the real openai SDK, its default
base64 encoding, fake keys, no network), while the first provider answers a run of requests with 503.
Ends with a table per target and the one thing that matters for a vector store: every vector of an
answer came from one model, in input order, and no call failed.

Options:
  --calls N        embed calls (default: 30)
  --inputs N       texts per call; above 2,048 a call is sent in batches (default: 16)
  --outage A-B     the first provider's requests A to B answer 503 (default: 6-20)
  -h, --help       this help

Exit codes: 0 when no call failed, 1 otherwise, 2 for a usage error.`;

const OPTIONS = { calls: { type: 'string' }, inputs: { type: 'string' }, outage: { type: 'string' } } as const;

function outageRange(text: string | undefined): number[] {
  const match = /^(\d+)-(\d+)$/.exec(text ?? '6-20');
  if (!match || Number(match[1]) < 1 || Number(match[2]) < Number(match[1])) throw new UsageError(`--outage expects A-B with 1 <= A <= B, got "${text}"`);
  const out: number[] = [];
  for (let n = Number(match[1]); n <= Number(match[2]); n++) out.push(n);
  return out;
}

/** `switchyard embed`: an embeddings chain riding out an outage, offline. */
export const command: CliCommand = {
  name: 'embed',
  summary: 'watch an embeddings chain fall through to the same model elsewhere, on simulated providers',
  usage: USAGE,
  async run(argv, io) {
    const { values } = parseFlags(() => parseArgs({ args: argv, options: OPTIONS, strict: true }));
    const calls = wholeNumberFlag('calls', values.calls, 1, 10_000) ?? 30;
    const inputs = wholeNumberFlag('inputs', values.inputs, 1, 100_000) ?? 16;
    const outage = outageRange(values.outage);
    const sim = await startSimulator({
      seed: 7,
      providers: {
        openai: { type: 'openai', faults: [{ fault: 'unavailable', endpoint: 'embeddings', nth: outage }] },
        azure: { type: 'openai' },
      },
    });
    const router = createRouter({
      providers: {
        openai: { type: 'openai', apiKey: 'sk-demo-not-a-real-key', baseURL: sim.baseURL('openai') },
        azure: { type: 'openai-compatible', apiKey: 'azure-demo-key', baseURL: sim.baseURL('azure') },
      },
      chains: { embeddings: [`openai:${MODEL}`, `azure:${MODEL}`] },
      retry: { maxAttempts: 1 },
      breaker: { volumeThreshold: 3, consecutiveFailures: 3, resetTimeoutMs: 200, lastResort: false },
    }, { logger: pino({ level: 'silent' }) });
    io.stdout(`simulator at ${sim.url}; chain embeddings: openai:${MODEL} -> azure:${MODEL}; openai's embeddings requests ${outage[0]}-${outage.at(-1)} answer 503\n`);
    const byTarget = new Map<string, { requests: number; ok: number; failed: number; skipped: number }>();
    const models = new Set<string>();
    let failed = 0;
    let vectors = 0;
    const tally = (attempts: readonly Attempt[]) => {
      for (const a of attempts) {
        const row = byTarget.get(a.provider) ?? { requests: 0, ok: 0, failed: 0, skipped: 0 };
        if (a.skipped) row.skipped++;
        else {
          row.requests++;
          if (a.ok) row.ok++;
          else row.failed++;
        }
        byTarget.set(a.provider, row);
      }
    };
    try {
      for (let i = 0; i < calls; i++) {
        const input = Array.from({ length: inputs }, (_, j) => `document ${i * inputs + j}: notes on the switchyard`);
        try {
          const res = await router.embed({ input });
          if (res.embeddings.length !== input.length) throw new Error(`expected ${input.length} vectors, got ${res.embeddings.length}`);
          vectors += res.embeddings.length;
          models.add(res.model);
          tally(res.attempts);
        } catch (err) {
          failed++;
          if (isRouterError(err)) tally(err.attempts);
          io.stderr(`call ${i + 1} failed: ${(err as Error).message.split('\n')[0]}\n`);
        }
      }
    } finally {
      await router.close();
      await sim.stop();
    }
    const rows = [...byTarget].map(([provider, r]) => [provider, String(r.requests), String(r.ok), String(r.failed), String(r.skipped)]);
    for (const line of table([['target', 'requests', 'ok', '503', 'skipped (no request)'], ...rows], 'lrrrr')) io.stdout(`${line}\n`);
    io.stdout(`vectors returned: ${vectors}, all from ${[...models].join(', ') || 'no model'}; calls failed for the user: ${failed}\n`);
    return failed === 0 ? 0 : 1;
  },
};
