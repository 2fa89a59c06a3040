import { describe, expect, it } from 'vitest';
import { applyMinPass, parseMinPass } from '../../src/eval/min-pass.js';
import { progressLine, progressReporter } from '../../src/eval/progress.js';
import { renderTerminalReport } from '../../src/eval/terminal-report.js';
import { formatUsd } from '../../src/eval/format.js';
import { answered } from './helpers.js';
import { fixtureReport } from './report-fixture.js';

describe('--min-pass', () => {
  it.each([
    ['0.9', 0.9], ['90%', 0.9], ['100%', 1], ['0', 0], ['1', 1], [' 75 % ', 0.75],
  ])('reads %j as the rate %d', (text, rate) => {
    expect(parseMinPass(text)).toEqual({ rate });
  });

  it.each([
    ['90', 'write 90% for a percentage'], ['-0.1', 'between 0% and 100%'], ['120%', 'between 0% and 100%'],
    ['high', 'expects a rate like 0.9'], ['%', 'expects a rate like 0.9'],
  ])('refuses %j', (text, message) => {
    const parsed = parseMinPass(text);
    expect('error' in parsed && parsed.error).toContain(message);
  });

  it('lists the targets whose pass rate is under the rate, and only those', async () => {
    const report = await fixtureReport(1);
    expect(report.targets.map((t) => t.passRate)).toEqual([1, 0, 0]);
    expect(applyMinPass(report, 1).minPass).toEqual({ rate: 1, below: ['evil:e-1', 'down:d-1'] });
    expect(applyMinPass(report, 0).minPass).toEqual({ rate: 0, below: [] });
  });
});

describe('terminal report', () => {
  it('shows a row per target with errors by kind, unknown cost, failed expectations and disagreements', async () => {
    const text = renderTerminalReport(applyMinPass(await fixtureReport(2), 0.5));
    expect(text).toContain('3 cases × 3 targets × 2 repeats = 18 runs');
    expect(text).toMatch(/good:g-1\s+6\/6\s+100\.0%\s+-/);
    expect(text).toMatch(/down:d-1\s+0\/6\s+0\.0% ✗\s+quota_exhausted ×6/);
    expect(text).toMatch(/evil:e-1 .* unknown/);
    expect(text).toMatch(/evil:e-1\s+contains ×2, json ×2, maxLength ×2/);
    expect(text).toContain('Targets disagree on 3 of 3 cases:');
    expect(text).toContain('pass: good:g-1 · fail: evil:e-1 (contains) · error: down:d-1 (quota_exhausted)');
    expect(text).toContain('min-pass 50.0%: under it: evil:e-1 (0.0%), down:d-1 (0.0%)');
  });

  it.each([[null, 'unknown'], [0, '$0'], [12.345, '$12.35'], [0.0042, '$0.0042'], [0.5, '$0.50']])('formats a cost of %s as %s', (usd, text) => {
    expect(formatUsd(usd)).toBe(text);
  });
});

describe('progress', () => {
  const at = (done: number, total = 8) => ({ done, total, passed: done, failed: 0, errored: 0, last: answered('a', 't', 'x') });

  it('draws a bar with counts', () => {
    expect(progressLine(at(4), 1500, 10)).toBe('eval █████░░░░░ 4/8  50%  ✓ 4  ✗ 0  ! 0  1.5s');
  });

  it('redraws one line in place on a terminal, throttled, always drawing the last update, and clears it at the end', () => {
    let t = 0;
    const out: string[] = [];
    const p = progressReporter({ write: (s) => out.push(s), isTTY: true, now: () => t, redrawMs: 100 });
    p.update(at(1));
    t = 50;
    p.update(at(2));
    t = 60;
    p.update(at(8));
    p.finish();
    expect(out.map((s) => s.match(/ (\d)\/8 /)?.[1] ?? 'clear')).toEqual(['1', '8', 'clear']);
    expect(out.every((s) => s.startsWith('\r\x1b[2K'))).toBe(true);
  });

  it('writes a plain line at each quarter when not on a terminal', () => {
    const out: string[] = [];
    const p = progressReporter({ write: (s) => out.push(s), isTTY: false, now: () => 0 });
    for (let done = 1; done <= 8; done++) p.update(at(done));
    p.finish();
    expect(out.map((s) => s.match(/ (\d)\/8 /)?.[1])).toEqual(['2', '4', '6', '8']);
    expect(out.every((s) => s.endsWith('\n') && !s.includes('\r'))).toBe(true);
  });
});
