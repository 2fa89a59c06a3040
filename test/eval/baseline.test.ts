import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import type { CliIO } from '../../src/cli/command.js';
import { compareBaseline } from '../../src/eval/baseline/compare-baseline.js';
import type { EvalReport } from '../../src/eval/report-types.js';
import { answered, errored } from './helpers.js';

const ROOT = resolve(import.meta.dirname, '../..');

async function evalCli(args: string[]) {
  let out = '';
  let err = '';
  const io: CliIO = { stdout: (t) => void (out += t), stderr: (t) => void (err += t), isTTY: false, env: {}, cwd: ROOT };
  const code = await main(['eval', '--config', 'examples/eval/eval.config.ts', '--chain', 'support', ...args], io);
  return { code, out, err };
}

describe('compareBaseline', () => {
  it('names every case x column that passed before and fails now, and the reverse', () => {
    const before = [answered('a', 't1', 'x'), answered('b', 't1', 'x', { failed: ['equals'] }), answered('c', 't1', 'x'), answered('a', 't2', 'x')];
    const now = [answered('a', 't1', 'x', { failed: ['equals'] }), answered('b', 't1', 'x'), errored('c', 't1', 'server'), answered('a', 't2', 'x')];
    expect(compareBaseline('old.json', before, now)).toEqual({
      file: 'old.json',
      regressions: [{ caseId: 'a', column: 't1', now: 'fail' }, { caseId: 'c', column: 't1', now: 'error' }],
      fixes: [{ caseId: 'b', column: 't1' }],
      missing: { columnsOnlyBefore: [], columnsOnlyNow: [], casesOnlyBefore: [], casesOnlyNow: [] },
    });
  });

  it('reports columns and cases on one side only as missing, never as regressions', () => {
    const before = [answered('a', 't1', 'x'), answered('gone', 't1', 'x'), answered('a', 'old', 'x')];
    const now = [answered('a', 't1', 'x'), answered('new', 't1', 'x', { failed: ['equals'] }), answered('a', 'fresh', 'x', { failed: ['equals'] })];
    const diff = compareBaseline('old.json', before, now);
    expect(diff.regressions).toEqual([]);
    expect(diff.missing).toEqual({ columnsOnlyBefore: ['old'], columnsOnlyNow: ['fresh'], casesOnlyBefore: ['gone'], casesOnlyNow: ['new'] });
  });

  it('reads columns where the report has them, and a repeat that failed makes the cell fail; a grader error is no verdict', () => {
    const col = (run: ReturnType<typeof answered>, column: string) => Object.assign(run, { column });
    const before = [col(answered('a', 't1', 'x'), 't1 · p1'), col(answered('a', 't1', 'x', { repeat: 1 }), 't1 · p1'), col(answered('b', 't1', 'x'), 't1 · p1')];
    const now = [
      col(answered('a', 't1', 'x'), 't1 · p1'), col(answered('a', 't1', 'x', { repeat: 1, failed: ['equals'] }), 't1 · p1'),
      Object.assign(col(answered('b', 't1', 'x', { failed: ['equals'] }), 't1 · p1'), { gradeError: { expectation: 'judge', message: 'malformed' } }),
    ];
    expect(compareBaseline('old.json', before, now).regressions).toEqual([{ caseId: 'a', column: 't1 · p1', now: 'fail' }]);
  });
});

describe('switchyard eval --baseline', () => {
  const dir = mkdtempSync(join(tmpdir(), 'switchyard-eval-baseline-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const cases = (capital: string) => [
    { id: 'capital', prompt: 'What is the capital of Australia? City only.', expect: { equals: capital } },
    { id: 'team', prompt: 'Which team handles refunds? One word.', expect: { contains: 'billing' } },
  ].map((c) => JSON.stringify(c)).join('\n');

  it('exits 1 under --fail-on-regression naming the flipped case, and writes the regression into --json and --md', async () => {
    writeFileSync(join(dir, 'before.jsonl'), cases('Canberra'));
    writeFileSync(join(dir, 'after.jsonl'), cases('Sydney'));
    const old = join(dir, 'old.json');
    const first = await evalCli(['--cases', join(dir, 'before.jsonl'), '--targets', 'steady', '--json', old]);
    expect(first.code).toBe(0);
    expect(first.out).toMatch(/steady:gpt-4o-mini\s+2\/2\s+100\.0%/);

    const md = join(dir, 'pr.md');
    const json = join(dir, 'new.json');
    const gated = await evalCli(['--cases', join(dir, 'after.jsonl'), '--targets', 'steady', '--baseline', old, '--fail-on-regression', '--md', md, '--json', json]);
    expect(gated.err).not.toContain('switchyard:');
    expect(gated.code).toBe(1);
    expect(gated.out).toContain(`Against the baseline ${old}: 1 regression, 0 fixes.`);
    expect(gated.out).toContain('regression: capital on steady:gpt-4o-mini (passed before, fails now)');
    expect(gated.out).toContain('--fail-on-regression: 1 regressed: capital on steady:gpt-4o-mini');
    const report = JSON.parse(readFileSync(json, 'utf8')) as EvalReport;
    expect(report.baseline).toEqual({
      file: old, regressions: [{ caseId: 'capital', column: 'steady:gpt-4o-mini', now: 'fail' }], fixes: [],
      missing: { columnsOnlyBefore: [], columnsOnlyNow: [], casesOnlyBefore: [], casesOnlyNow: [] },
    });
    expect(readFileSync(md, 'utf8')).toContain('- regression: `capital` on `steady:gpt-4o-mini` (fails now)');

    // Without the gate the regression is reported and the exit code stays 0; the reverse run is a fix.
    const ungated = await evalCli(['--cases', join(dir, 'after.jsonl'), '--targets', 'steady', '--baseline', old]);
    expect(ungated.code).toBe(0);
    expect(ungated.out).toContain('regression: capital on steady:gpt-4o-mini');
    const back = await evalCli(['--cases', join(dir, 'before.jsonl'), '--targets', 'steady', '--baseline', json, '--fail-on-regression']);
    expect(back.code).toBe(0);
    expect(back.out).toContain('fix: capital on steady:gpt-4o-mini (failed before, passes now)');
  });

  it('reports a target absent from the baseline as new, not as a regression', async () => {
    const old = join(dir, 'steady-only.json');
    writeFileSync(join(dir, 'cases.jsonl'), cases('Canberra'));
    await evalCli(['--cases', join(dir, 'cases.jsonl'), '--targets', 'steady', '--json', old]);
    const wider = await evalCli(['--cases', join(dir, 'cases.jsonl'), '--targets', 'steady,broke', '--baseline', old, '--fail-on-regression']);
    expect(wider.code).toBe(0);
    expect(wider.out).toContain('new since the baseline (not compared): broke:gpt-4o');
  });

  it.each([
    ['--fail-on-regression without --baseline', ['--fail-on-regression'], '--fail-on-regression needs --baseline OLD.json'],
    ['a missing baseline', ['--baseline', 'nope.json'], '--baseline nope.json: cannot read it (ENOENT)'],
    ['a baseline that is not a report', ['--baseline', 'package.json'], '--baseline package.json: not a switchyard eval report'],
  ])('exits 2 for %s', async (_name, args, message) => {
    const { code, err, out } = await evalCli(['--cases', 'examples/eval/cases.jsonl', ...args]);
    expect(code).toBe(2);
    expect(err).toContain(message);
    expect(out).toBe('');
  });
});

describe('switchyard eval --help', () => {
  it('lists the baseline, regression gate, Markdown and suggestion flags', async () => {
    let out = '';
    const code = await main(['eval', '--help'], { stdout: (t) => void (out += t), stderr: () => {}, isTTY: false, env: {}, cwd: ROOT });
    expect(code).toBe(0);
    for (const flag of ['--baseline OLD.json', '--fail-on-regression', '--md OUT', '--suggest']) expect(out).toContain(flag);
  });
});
