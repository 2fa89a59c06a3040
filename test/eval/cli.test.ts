import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import type { CliIO } from '../../src/cli/command.js';
import type { EvalReport } from '../../src/eval/report-types.js';

const ROOT = resolve(import.meta.dirname, '../..');
// --no-cache: these runs measure the example afresh, and write nothing under the repository.
const EXAMPLE = ['--config', 'examples/eval/eval.config.ts', '--chain', 'support', '--no-cache'];

function capture(isTTY = false): CliIO & { out: () => string; err: () => string } {
  let out = '';
  let err = '';
  return {
    stdout: (t) => void (out += t), stderr: (t) => void (err += t), isTTY, env: {}, cwd: ROOT,
    out: () => out, err: () => err,
  };
}

async function evalCli(args: string[], isTTY = false) {
  const io = capture(isTTY);
  const code = await main(['eval', ...args], io);
  return { code, out: io.out(), err: io.err() };
}

describe('switchyard eval', () => {
  const dir = mkdtempSync(join(tmpdir(), 'switchyard-eval-cli-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('runs the offline example to its table and writes the JSON and HTML reports', async () => {
    const json = join(dir, 'out', 'report.json');
    const html = join(dir, 'out', 'report.html');
    const { code, out, err } = await evalCli([...EXAMPLE, '--cases', 'examples/eval/cases.ts', '--json', json, '--html', html]);
    expect(err).not.toContain('switchyard:');
    expect(code).toBe(0);
    expect(out).toContain('Eval of chain "support": 8 cases × 4 targets = 32 runs');
    expect(out).toMatch(/steady:gpt-4o-mini\s+8\/8\s+100\.0%/);
    expect(out).toMatch(/broke:gpt-4o\s+0\/8\s+0\.0%\s+quota_exhausted ×8/);
    expect(out).toMatch(/budget:llama-3\.1-8b .* unknown/);
    expect(out).toContain(`JSON report: ${json}`);
    const report = JSON.parse(readFileSync(json, 'utf8')) as EvalReport;
    expect(report.targets.map((t) => t.key)).toEqual(['steady:gpt-4o-mini', 'backup:claude-haiku-4-5', 'budget:llama-3.1-8b', 'broke:gpt-4o']);
    expect(report.runs).toHaveLength(32);
    expect(readFileSync(html, 'utf8')).toMatch(/^<!doctype html>/);
  });

  it('exits 1 when a target is under --min-pass, naming it, and 0 when none is', async () => {
    const cases = ['--cases', 'examples/eval/cases.jsonl', '--targets', 'steady,broke'];
    const under = await evalCli([...EXAMPLE, ...cases, '--min-pass', '90%']);
    expect(under.code).toBe(1);
    expect(under.out).toContain('min-pass 90.0%: under it: broke:gpt-4o (0.0%)');
    const lenient = await evalCli([...EXAMPLE, ...cases, '--min-pass', '0']);
    expect(lenient.code).toBe(0);
    expect(lenient.out).toContain('min-pass 0.0%: every target passes.');
    const passing = await evalCli([...EXAMPLE, '--cases', 'examples/eval/cases.jsonl', '--targets', 'steady:gpt-4o-mini', '--min-pass', '1']);
    expect(passing.code).toBe(0);
  });

  it('shows plain progress lines when stderr is not a terminal, and one redrawn line when it is', async () => {
    const args = [...EXAMPLE, '--cases', 'examples/eval/cases.jsonl', '--targets', 'steady'];
    const plain = await evalCli(args);
    expect(plain.err.trim().split('\n').at(-1)).toMatch(/^eval .* 6\/6 100%/);
    expect(plain.err).not.toContain('\r');
    const tty = await evalCli(args, true);
    expect(tty.err).toContain('\r\x1b[2K');
    expect(tty.err.endsWith('\r\x1b[2K')).toBe(true);
  });

  it.each([
    ['no --cases', [...EXAMPLE], '--cases FILE is required'],
    ['an unknown flag', [...EXAMPLE, '--cases', 'x.jsonl', '--fast'], "Unknown option '--fast'"],
    ['a bare --min-pass above 1', [...EXAMPLE, '--cases', 'examples/eval/cases.jsonl', '--min-pass', '90'], 'write 90% for a percentage'],
    ['a --repeat of zero', [...EXAMPLE, '--cases', 'examples/eval/cases.jsonl', '--repeat', '0'], '--repeat expects a whole number of at least 1'],
    ['an unknown chain', ['--config', 'examples/eval/eval.config.ts', '--chain', 'nope', '--cases', 'examples/eval/cases.jsonl'], 'unknown chain "nope"'],
    ['an unknown target', [...EXAMPLE, '--cases', 'examples/eval/cases.jsonl', '--targets', 'gpt-9'], 'no target "gpt-9" in chain "support"'],
    ['a missing config', ['--config', 'nope.config.ts', '--cases', 'examples/eval/cases.jsonl'], 'config file not found'],
  ])('exits 2 with one line for %s', async (_name, args, message) => {
    const { code, err, out } = await evalCli(args);
    expect(code).toBe(2);
    expect(err).toContain(message);
    expect(err.startsWith('switchyard: ')).toBe(true);
    expect(out).toBe('');
  });

  it('exits 2 naming the line and field of a broken cases file', async () => {
    const file = join(dir, 'broken.jsonl');
    writeFileSync(file, `${JSON.stringify({ id: 'a', prompt: 'x' })}\n${JSON.stringify({ id: 'b', prompt: 'y', expect: { regex: '[' } })}\n`);
    const { code, err } = await evalCli([...EXAMPLE, '--cases', file]);
    expect(code).toBe(2);
    expect(err).toContain('broken.jsonl:2: expect.regex: Invalid regular expression');
  });

  it('runs a .json file of prompts and cases, and answers a second run from --cache DIR without a request', async () => {
    const file = join(dir, 'prompts.json');
    writeFileSync(file, JSON.stringify({
      prompts: [{ id: 'short', template: 'Capital of {{country}}?' }, { id: 'long', template: 'Please name the capital of {{country}}.' }],
      cases: [{ id: 'fr', vars: { country: 'France' } }, { id: 'jp', vars: { country: 'Japan' }, weight: 2 }],
    }));
    const cache = join(dir, 'cache');
    const args = ['--config', 'examples/eval/eval.config.ts', '--chain', 'support', '--targets', 'steady', '--cases', file, '--cache', cache];
    const reports: EvalReport[] = [];
    for (const run of [1, 2]) {
      const json = join(dir, `cached-${run}.json`);
      const { code, out } = await evalCli([...args, '--json', json]);
      expect(code).toBe(0);
      expect(out).toMatch(/steady:gpt-4o-mini · short\s+2\/2/);
      reports.push(JSON.parse(readFileSync(json, 'utf8')) as EvalReport);
    }
    const [first, second] = reports as [EvalReport, EvalReport];
    expect(first.version).toBe(2);
    expect(first.columns).toEqual(['steady:gpt-4o-mini · short', 'steady:gpt-4o-mini · long']);
    expect(first.runs.map((r) => r.requests)).toEqual([1, 1, 1, 1]);
    expect(first.cache).toEqual({ dir: cache, hits: 0, misses: 4 });
    expect(second.runs.map((r) => [r.requests, r.cached])).toEqual([[0, true], [0, true], [0, true], [0, true]]);
    expect(second.cache).toEqual({ dir: cache, hits: 4, misses: 0 });
  });

  it('exits 2 for --cache with --no-cache', async () => {
    const { code, err } = await evalCli(['--config', 'examples/eval/eval.config.ts', '--chain', 'support', '--cases', 'examples/eval/cases.jsonl', '--cache', join(dir, 'c'), '--no-cache']);
    expect(code).toBe(2);
    expect(err).toContain('give --cache DIR or --no-cache, not both');
  });

  it('prints its options with --help', async () => {
    const { code, out } = await evalCli(['--help']);
    expect(code).toBe(0);
    for (const flag of ['--chain', '--cases', '--targets', '--repeat', '--concurrency', '--json', '--html', '--min-pass', '--judge-chain', '--embed-chain', '--cache', '--no-cache']) expect(out).toContain(flag);
  });
});
