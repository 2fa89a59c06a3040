import { describe, expect, it } from 'vitest';
import type { SwitchyardConfig } from '../../src/config/index.js';
import { comparisonText, points } from '../../src/eval/compare/comparison-text.js';
import { withEvalChains } from '../../src/eval/eval-chains.js';
import { runEval } from '../../src/eval/run-eval.js';
import { mcnemarExactP } from '../../src/eval/stats/mcnemar.js';
import { newcombePaired } from '../../src/eval/stats/newcombe-paired.js';
import { casesForFivePoints } from '../../src/eval/stats/power.js';
import { wilson } from '../../src/eval/stats/wilson.js';
import { createRouter } from '../../src/router.js';
import { fakeRequests } from '../../src/testing/index.js';
import type { ProviderRequest } from '../../providers/types.js';
import { silentLogger } from './helpers.js';

const promptOf = (request: unknown) => (request as ProviderRequest).messages.at(-1)!.content as string;
const numbered = (n: number) => Array.from({ length: n }, (_, i) => ({ id: `c${i}`, prompt: `q${i}`, expect: { equals: 'yes' } }));
/** A fake target that answers "no" to the prompts in `wrong`, "yes" to the rest. */
const answering = (wrong: readonly string[]) => ({ type: 'fake' as const, respond: (req: unknown) => ({ text: wrong.includes(promptOf(req)) ? 'no' : 'yes' }) });

async function compare(providers: SwitchyardConfig['providers'], cases: ReturnType<typeof numbered>, repeat = 1) {
  const config: SwitchyardConfig = { providers, chains: { main: Object.keys(providers).map((p) => `${p}:m-1`) }, retry: { maxAttempts: 1 } };
  const router = createRouter(withEvalChains(config, 'main').config, { logger: silentLogger });
  const report = await runEval({ router, chain: 'main', cases, repeat });
  const requests = Object.fromEntries(Object.keys(providers).map((p) => [p, fakeRequests(router, p).length]));
  await router.close();
  return { report, requests };
}

describe('Wilson interval', () => {
  it.each([
    // Newcombe (1998), "Two-sided confidence intervals for the single proportion", method 3.
    [81, 263, 0.2553, 0.3662],
    [15, 148, 0.0624, 0.1605],
    [0, 20, 0, 0.1611],
    [1, 29, 0.0061, 0.1718],
  ])('%i of %i is [%f, %f]', (passed, n, lo, hi) => {
    const [l, h] = wilson(passed, n);
    expect(l).toBeCloseTo(lo, 4);
    expect(h).toBeCloseTo(hi, 4);
  });

  it('is [0, 1] for no runs and never leaves [0, 1] at n of n', () => {
    expect(wilson(0, 0)).toEqual([0, 1]);
    const [l, h] = wilson(24, 24);
    expect(h).toBe(1);
    expect(l).toBeCloseTo(0.862, 3);
  });

  it('is on every target summary of a run, over its runs', async () => {
    const { report } = await compare({ good: answering([]), bad: answering(['q0', 'q1']) }, numbered(10));
    expect(report.targets.map((t) => [t.key, t.passed, t.runs])).toEqual([['good:m-1', 10, 10], ['bad:m-1', 8, 10]]);
    expect(report.targets[0]!.passInterval).toEqual(wilson(10, 10));
    expect(report.targets[1]!.passInterval).toEqual(wilson(8, 10));
  });
});

describe('McNemar exact test and Newcombe paired interval', () => {
  it('gives the binomial tail of the discordant pairs, doubled', () => {
    expect(mcnemarExactP(0, 6)).toBeCloseTo(2 / 64, 12);
    expect(mcnemarExactP(1, 9)).toBeCloseTo((2 * 11) / 1024, 12);
    expect(mcnemarExactP(3, 3)).toBe(1);
    expect(mcnemarExactP(0, 0)).toBe(1);
    expect(mcnemarExactP(0, 2000)).toBe(0);
  });

  it('holds the difference, stays in [-1, 1], and mirrors when the sides swap', () => {
    const t = { both: 8, onlyA: 5, onlyB: 4, neither: 39 };
    const { diff, interval } = newcombePaired(t);
    expect(diff).toBeCloseTo(1 / 56, 12);
    expect(interval[0]).toBeLessThan(diff);
    expect(interval[1]).toBeGreaterThan(diff);
    const swapped = newcombePaired({ both: 8, onlyA: 4, onlyB: 5, neither: 39 });
    expect(swapped.diff).toBeCloseTo(-diff, 12);
    expect(swapped.interval[0]).toBeCloseTo(-interval[1], 12);
    expect(swapped.interval[1]).toBeCloseTo(-interval[0], 12);
    const all = newcombePaired({ both: 0, onlyA: 20, onlyB: 0, neither: 0 });
    expect(all.interval[1]).toBeLessThanOrEqual(1);
    expect(all.interval[0]).toBeGreaterThan(0);
  });

  it('reads "a beats b by +12 points [+4, +20]", the winner first, or "no difference shown at n=10"', () => {
    expect(comparisonText('a', 'b', 50, 0.12, [0.04, 0.2], true)).toBe('a beats b by +12 points [+4, +20]');
    expect(comparisonText('a', 'b', 50, -0.12, [-0.2, -0.04], true)).toBe('b beats a by +12 points [+4, +20]');
    expect(comparisonText('a', 'b', 10, 0.1, [-0.19, 0.4], false)).toBe('no difference shown at n=10');
    expect(points(0.003)).toBe('+0.3');
    expect(points(-0.0001)).toBe('+0');
  });
});

describe('paired comparisons in a report', () => {
  it('says a clearly better target beats the other, on the same cases', async () => {
    const wrong = ['q0', 'q2', 'q4', 'q6', 'q8', 'q10', 'q12', 'q14', 'q16', 'q18'];
    const { report, requests } = await compare({ good: answering([]), bad: answering(wrong) }, numbered(20));
    expect(requests).toEqual({ good: 20, bad: 20 });
    expect(report.comparisons).toHaveLength(1);
    const [c] = report.comparisons;
    expect(c).toMatchObject({ a: 'good:m-1', b: 'bad:m-1', n: 20, diff: 50, shown: true, discordant: [10, 0] });
    expect(c!.text).toMatch(/^good:m-1 beats bad:m-1 by \+50 points \[\+\d+, \+\d+\]$/);
    expect(c!.interval[0]).toBeGreaterThan(0);
    expect(c!.pValue).toBeCloseTo(2 / 1024, 12);
    expect(c!.method).toBe('Newcombe paired interval at 95%; McNemar exact p=0.0020');
  });

  it('says no difference is shown for 10 cases and a 1-case difference', async () => {
    const { report, requests } = await compare({ good: answering([]), bad: answering(['q3']) }, numbered(10));
    expect(requests).toEqual({ good: 10, bad: 10 });
    const [c] = report.comparisons;
    expect(c).toMatchObject({ n: 10, diff: 10, shown: false, text: 'no difference shown at n=10', discordant: [1, 0] });
    expect(c!.interval[0]).toBeLessThan(0);
  });

  it('leaves out a case both targets errored on, and counts a one-sided error as not passed', async () => {
    const down = (prompts: string[]) => ({ type: 'fake' as const, respond: (req: unknown) => (prompts.includes(promptOf(req)) ? { fail: 'server' as const } : { text: 'yes' }) });
    const { report, requests } = await compare({ one: down(['q0', 'q1']), two: down(['q0']) }, numbered(10));
    expect(requests).toEqual({ one: 10, two: 10 });
    expect(report.comparisons[0]).toMatchObject({ n: 9, excludedBothErrored: 1, discordant: [0, 1], shown: false });
  });

  it('adjusts every interval for the number of pairs (Bonferroni) when there are more than two columns', async () => {
    const { report } = await compare({ a: answering([]), b: answering(['q1']), c: answering(['q1', 'q2']) }, numbered(10));
    expect(report.comparisons.map((c) => [c.a, c.b])).toEqual([['a:m-1', 'b:m-1'], ['a:m-1', 'c:m-1'], ['b:m-1', 'c:m-1']]);
    for (const c of report.comparisons) expect(c.method).toMatch(/^Newcombe paired interval at 98\.3% \(Bonferroni over 3 pairs\)/);
  });

  it('measures the variance of a case across repeats, averaged over the columns', async () => {
    let asked = 0;
    const flaky = { type: 'fake' as const, respond: () => ({ text: asked++ % 2 === 0 ? 'yes' : 'no' }) };
    const { report, requests } = await compare({ steady: answering([]), flaky }, numbered(1), 2);
    expect(requests).toEqual({ steady: 2, flaky: 2 });
    // steady: 0 (both repeats pass); flaky: one of two, 0.5 × 0.5 = 0.25; mean 0.125.
    expect(report.cases[0]!.variance).toBe(0.125);
  });

  it('has no variance without repeats', async () => {
    const { report } = await compare({ good: answering([]) }, numbered(3));
    expect(report.cases.every((c) => c.variance === undefined)).toBe(true);
    expect(report.comparisons).toEqual([]);
  });
});

describe('cases a 5-point difference would need', () => {
  const pair = (n: number, onlyA: number, onlyB: number, shown: boolean) => ({ a: 'a', b: 'b', n, diff: 0, interval: [0, 0] as [number, number], method: '', shown, text: '', pValue: 1, discordant: [onlyA, onlyB] as [number, number], excludedBothErrored: 0 });

  it('follows Connor (1987) from the observed discordance of the close pairs', () => {
    // ψ = 20/100 = 0.2: n = (1.95996·√0.2 + 0.84162·√(0.2 − 0.0025))² / 0.0025 = 625.5
    expect(casesForFivePoints([pair(100, 12, 8, false), pair(100, 60, 0, true)], [])).toEqual({ pointsDetectable: 5, casesNeeded: 626, discordance: 0.2, basis: 'observed' });
  });

  it('assumes the discordance of independent columns at the pass rate with one column, and never under 5%', () => {
    const single = casesForFivePoints([], [0.9]);
    expect(single.basis).toBe('pass rate');
    expect(single.discordance).toBeCloseTo(0.18, 12);
    expect(casesForFivePoints([], [1])).toEqual({ pointsDetectable: 5, casesNeeded: 155, discordance: 0.05, basis: 'floor' });
  });
});

describe('the terminal report', () => {
  it('shows each pass rate with its interval, the differences shown, the pairs with none, and the power', async () => {
    const { renderTerminalReport } = await import('../../src/eval/terminal-report.js');
    const wrong = ['q0', 'q2', 'q4', 'q6', 'q8', 'q10', 'q12', 'q14', 'q16', 'q18'];
    const { report } = await compare({ good: answering([]), bad: answering(wrong), twin: answering(['q0']) }, numbered(20));
    const text = renderTerminalReport(report);
    expect(text).toMatch(/target\s+passed\s+rate .* 95% interval/);
    expect(text).toMatch(/good:m-1\s+20\/20\s+100\.0%.*\[83\.9%, 100\.0%\]/);
    expect(text).toContain('Paired comparisons (same cases and repeats; Newcombe paired interval at 98.3% (Bonferroni over 3 pairs)):');
    expect(text).toMatch(/\n {2}good:m-1 beats bad:m-1 by \+50 points \[\+\d+, \+\d+\] \(n=20, McNemar p=0\.0020\)\n/);
    expect(text).toContain('  good:m-1 vs twin:m-1: no difference shown at n=20');
    expect(text).toContain(`A 5-point difference would need ~${report.power.casesNeeded} cases (80% power, alpha 0.05).`);
  });
});

describe('the terminal report with many columns', () => {
  it('lists at most 10 pairs without a difference, then says how many more', async () => {
    const { renderTerminalReport } = await import('../../src/eval/terminal-report.js');
    const providers = Object.fromEntries(Array.from({ length: 6 }, (_, i) => [`p${i}`, answering([])]));
    const { report, requests } = await compare(providers, numbered(3));
    expect(Object.values(requests)).toEqual([3, 3, 3, 3, 3, 3]);
    expect(report.comparisons).toHaveLength(15);
    const text = renderTerminalReport(report);
    expect(text.match(/: no difference shown at n=3$/gm)).toHaveLength(10);
    expect(text).toContain('  … and 5 more pairs with no difference shown (see the --json report)');
  });
});
