import { describe, expect, it } from 'vitest';
import type { SwitchyardConfig } from '../../src/config/index.js';
import { withEvalChains } from '../../src/eval/eval-chains.js';
import { renderMarkdownReport } from '../../src/eval/markdown/markdown-report.js';
import type { EvalReport } from '../../src/eval/report-types.js';
import { runEval } from '../../src/eval/run-eval.js';
import { suggestChain } from '../../src/eval/suggest/suggest-chain.js';
import { createRouter } from '../../src/router.js';
import { fakeRequests } from '../../src/testing/index.js';
import type { ProviderRequest } from '../../providers/types.js';
import { VirtualClock } from '../support/virtual-clock.js';
import { silentLogger } from './helpers.js';

const promptOf = (request: unknown) => (request as ProviderRequest).messages.at(-1)!.content as string;
const cases = Array.from({ length: 20 }, (_, i) => ({ id: `c${i}`, prompt: `q${i}`, expect: { equals: 'yes' } }));
const answering = (wrongBelow: number, latencyMs: number) => ({
  type: 'fake' as const,
  respond: (req: unknown) => ({ text: Number(promptOf(req).slice(1)) < wrongBelow ? 'no' : 'yes', latencyMs }),
});

async function run(providers: SwitchyardConfig['providers'], prices: SwitchyardConfig['prices']) {
  const config: SwitchyardConfig = { providers, chains: { main: Object.keys(providers).map((p) => `${p}:${p}-1`) }, prices, retry: { maxAttempts: 1 } };
  // One call at a time on a virtual clock: each run's latency is exactly its fake latency.
  const router = createRouter(withEvalChains(config, 'main').config, { logger: silentLogger, clock: new VirtualClock() });
  const report = await runEval({ router, chain: 'main', cases, concurrency: 1 });
  const requests = Object.keys(providers).map((p) => fakeRequests(router, p).length);
  await router.close();
  return { report, requests, config };
}

/** The chain a snippet declares, read as the object literal it is inside a config. */
function chainsOf(snippet: string): Record<string, string[]> {
  return (new Function(`return ({ ${snippet} });`)() as { chains: Record<string, string[]> }).chains;
}

describe('--suggest', () => {
  it('puts a cheaper target of equal score before a dearer one, and one shown worse last', async () => {
    const { report, requests, config } = await run(
      { dear: answering(0, 50), cheap: answering(0, 80), bad: answering(12, 10) },
      { 'dear-1': { inputPerMTok: 10, outputPerMTok: 30 }, 'cheap-1': { inputPerMTok: 0.1, outputPerMTok: 0.3 }, 'bad-1': { inputPerMTok: 0.01, outputPerMTok: 0.01 } },
    );
    expect(requests).toEqual([20, 20, 20]);
    const s = suggestChain(report);
    expect(s.order.map((o) => o.column)).toEqual(['cheap:cheap-1', 'dear:dear-1', 'bad:bad-1']);
    expect(s.order[0]!.reason).toMatch(/^best score 100\.0%, cheaper or faster than dear:dear-1 at the same score/);
    expect(s.order[1]!.reason).toMatch(/^score 100\.0% not shown worse than cheap:cheap-1; cheapest of those left/);
    expect(s.order[2]!.reason).toMatch(/^last resort: cheap:cheap-1 beats bad:bad-1 by \+60 points/);
    // Every column is best at something: cheap and dear tie on score, dear is faster, bad is cheapest and fastest.
    expect(s.pareto).toEqual(['dear:dear-1', 'cheap:cheap-1', 'bad:bad-1']);
    const chains = chainsOf(s.snippet);
    expect(chains).toEqual({ main: ['cheap:cheap-1', 'dear:dear-1', 'bad:bad-1'] });
    // Valid config: a router accepts the suggested chain as written.
    const router = createRouter(Object.assign({}, config, { chains }), { logger: silentLogger });
    await router.close();
  });

  it('puts the best first, then the cheapest not shown worse, even when its score is a little lower', async () => {
    const { report } = await run(
      { best: answering(0, 50), close: answering(1, 50), twin: answering(0, 50) },
      { 'best-1': { inputPerMTok: 5, outputPerMTok: 5 }, 'close-1': { inputPerMTok: 1, outputPerMTok: 1 }, 'twin-1': { inputPerMTok: 3, outputPerMTok: 3 } },
    );
    const s = suggestChain(report);
    expect(report.comparisons.find((c) => c.a === 'best:best-1' && c.b === 'close:close-1')!.shown).toBe(false);
    expect(s.order.map((o) => o.column)).toEqual(['twin:twin-1', 'close:close-1', 'best:best-1']);
    expect(s.pareto).toEqual(['close:close-1', 'twin:twin-1']);
  });

  it('leaves out a target that never answered, and orders one prompt when the columns carry prompts', async () => {
    const { report } = await run({ ok: answering(0, 10), down: { type: 'fake', respond: () => ({ fail: 'quota_exhausted' }) } }, {});
    expect(suggestChain(report)).toMatchObject({ order: [{ column: 'ok:ok-1' }], left: [{ column: 'down:down-1', reason: 'never answered' }] });
    // Columns as the run helper names them with prompts: target · prompt.
    const prompted: EvalReport = Object.assign({}, report, {
      targets: [
        Object.assign({}, report.targets[0]!, { column: 'ok:ok-1 · short', prompt: 'short', score: 0.5 }),
        Object.assign({}, report.targets[0]!, { column: 'ok:ok-1 · long', prompt: 'long', score: 1 }),
      ],
      comparisons: [],
    });
    const s = suggestChain(prompted);
    expect(s.prompt).toBe('long');
    expect(s.order.map((o) => o.column)).toEqual(['ok:ok-1 · long']);
    expect(chainsOf(s.snippet)).toEqual({ main: ['ok:ok-1'] });
    expect(s.snippet).toContain('// with prompt "long"');
    expect(s.left).toEqual([{ column: 'ok:ok-1 · short', reason: 'prompt short: the chain is for prompt long' }]);
  });
});

describe('--md', () => {
  it('writes pass rates with intervals, the differences shown, cost and the suggestion, escaped for a table', async () => {
    const { report } = await run(
      { good: answering(0, 50), 'ba|d': answering(12, 10) },
      { 'good-1': { inputPerMTok: 1, outputPerMTok: 2 } },
    );
    const md = renderMarkdownReport(Object.assign({}, report, { suggestion: suggestChain(report) }));
    const lines = md.split('\n');
    expect(lines[0]).toBe('### switchyard eval: chain `main`');
    expect(lines).toContain('| `good:good-1` | 20/20 | 100.0% | [83.9%, 100.0%] | 50 ms | $0.00020 |');
    expect(lines).toContain('| `ba\\|d:ba\\|d-1` | 8/20 | 40.0% | [21.9%, 61.3%] | 10 ms | unknown |');
    expect(md).toContain('Total cost: $0.00020 (some columns unpriced: a lower bound).');
    expect(md).toContain('- good:good-1 beats ba\\|d:ba\\|d-1 by +60 points [+');
    expect(md).toContain(`A 5-point difference would need ~${report.power.casesNeeded} cases.`);
    expect(md).toContain("```ts\nchains: {\n  main: [\n    'good:good-1', // best score 100.0%");
  });
});
