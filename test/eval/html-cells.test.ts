import { describe, expect, it } from 'vitest';
import { cellNumbers, checkLines, shownRun } from '../../src/eval/html/cell-facts.js';
import { renderHtmlReport } from '../../src/eval/html/html-report.js';
import type { ViewReport, ViewRun } from '../../src/eval/html/report-view.js';
import { scriptJson } from '../../src/eval/html/side-by-side.js';
import type { ExpectationResult } from '../../src/eval/expectations.js';
import type { EvalReport } from '../../src/eval/report-types.js';
import { answered, errored } from './helpers.js';
import { fixtureReport } from './report-fixture.js';

const judge = (pass: boolean, score: number, reason: string) => ({ name: 'judge', pass, score, reason }) as unknown as ExpectationResult;

describe('what a side-by-side cell says about its runs', () => {
  it.each([
    ['a failed expectation with its reason', [answered('c', 't', 'x', { failed: ['contains'] })], [{ kind: 'fail', text: 'contains: contains failed' }]],
    ['a failed judge with its score and reason', [answered('c', 't', 'x', { checks: [judge(false, 0.2, 'off topic')], pass: false })], [{ kind: 'fail', text: 'judge (score 0.20): off topic' }]],
    ['a passed judge with its score and reason', [answered('c', 't', 'x', { checks: [judge(true, 0.95, 'exact')] })], [{ kind: 'scored', text: 'judge (score 0.95): exact' }]],
    ['a passed check without a score: nothing', [answered('c', 't', 'x', { checks: [{ name: 'contains', pass: true }] })], []],
    ['the same line over repeats: once', [answered('c', 't', 'x', { failed: ['json'] }), answered('c', 't', 'y', { failed: ['json'], repeat: 1 })], [{ kind: 'fail', text: 'json: json failed' }]],
    ['a grader error', [Object.assign(answered('c', 't', 'x'), { gradeError: { expectation: 'similar', message: 'embed chain down' } })], [{ kind: 'grader', text: 'grader error, similar: embed chain down' }]],
    ['a call error', [errored('c', 't', 'timeout')], [{ kind: 'error', text: 'error timeout: timeout!' }]],
  ] as Array<[string, ViewRun[], ReturnType<typeof checkLines>]>)('lists %s', (_what, runs, lines) => {
    expect(checkLines(runs)).toEqual(lines);
  });

  it('shows the first answer equal to the most common one, raw, and none when nothing answered', () => {
    const runs = [answered('c', 't', 'a'), answered('c', 't', '  b\n', { repeat: 1 }), answered('c', 't', 'b', { repeat: 2 })];
    expect(shownRun({ target: 't', column: 't', status: 'pass', runs: 3, passed: 3, answer: 'b', failures: [], errorKinds: [] }, runs)?.text).toBe('  b\n');
    expect(shownRun({ target: 't', column: 't', status: 'error', runs: 1, passed: 0, failures: [], errorKinds: ['server'] }, [errored('c', 't', 'server')])).toBeUndefined();
  });

  it('reports the median latency of answers, the mean cost per answer (unknown if any is), grader cost and cache hits', () => {
    const runs: ViewRun[] = [
      Object.assign(answered('c', 't', 'a', { latencyMs: 10, costUsd: 0.002 }), { graderCostUsd: 0.001, cached: true as const }),
      answered('c', 't', 'a', { latencyMs: 30, costUsd: 0.004, repeat: 1 }),
      Object.assign(answered('c', 't', 'a', { latencyMs: 20, costUsd: 0.003, repeat: 2 }), { graderCostUsd: 0.002 }),
      errored('c', 't', 'server', { latencyMs: 99, repeat: 3 }),
    ];
    const n = cellNumbers(runs);
    expect([n.latencyMs, n.cached]).toEqual([20, 1]);
    expect(n.costUsd).toBeCloseTo(0.003, 12);
    expect(n.graderCostUsd).toBeCloseTo(0.003, 12);
    expect(cellNumbers([answered('c', 't', 'a', { costUsd: 0.1 }), answered('c', 't', 'a', { costUsd: null })]).costUsd).toBeNull();
    expect(cellNumbers([errored('c', 't', 'server')])).toEqual({ latencyMs: null, costUsd: null, graderCostUsd: null, cached: 0 });
  });

  it('embeds data in the script so that no text can close it or break the line', () => {
    const json = scriptJson({ text: '</script><script>alert(1)</script>\u2028' });
    expect(json).not.toContain('<');
    expect(json).not.toContain('\u2028');
    expect(JSON.parse(json)).toEqual({ text: '</script><script>alert(1)</script>\u2028' });
  });
});

describe('a report with prompts: a column per target × prompt', () => {
  it('draws a column per column, each cell with the answers of its own runs', async () => {
    const base = await fixtureReport(1);
    const view = base as unknown as ViewReport;
    const columnsOf = (target: string) => [`${target} · short`, `${target} · long`];
    view.runs = view.runs.flatMap((r) => columnsOf(r.target).map((column, p) => Object.assign({}, r, { column, prompt: p === 0 ? 'short' : 'long', text: r.ok ? `${r.text} (${p === 0 ? 'short' : 'long'})` : r.text })));
    view.cases.forEach((c) => { c.cells = c.cells.flatMap((cell) => columnsOf(cell.target).map((column) => Object.assign({}, cell, { column }))); });
    view.targets = view.targets.flatMap((t) => columnsOf(t.key).map((column) => Object.assign({}, t, { column })));
    Object.assign(view, { version: 2, columns: view.targets.map((t) => t.column), prompts: [{ id: 'short', template: 'Be brief: {{q}}' }, { id: 'long', template: 'Explain <b>{{q}}</b>' }] });
    const html = renderHtmlReport(view as unknown as EvalReport);
    const heads = [...html.matchAll(/<th scope="col" data-column="([^"]+)">/g)].map((m) => m[1]);
    expect(heads).toEqual(['good:g-1 · short', 'good:g-1 · long', 'evil:e-1 · short', 'evil:e-1 · long', 'down:d-1 · short', 'down:d-1 · long']);
    expect(html).toMatch(/data-case="plain" data-column="good:g-1 · long" data-target="good:g-1"><div class="verdict">.*?<pre class="answer">yes \(long\)<\/pre>/);
    expect(html).toContain('3 cases × 6 columns (target × prompt) = 18 runs');
    expect(html).toContain('<dt>long</dt><dd><pre>Explain &lt;b&gt;{{q}}&lt;/b&gt;</pre></dd>');
  });
});
