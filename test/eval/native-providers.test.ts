import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import type { CliIO } from '../../src/cli/command.js';
import type { EvalReport } from '../../src/eval/report-types.js';
import { startSimulator, type Simulator } from '../../src/sim/index.js';

// `switchyard eval` across every native provider: one chain with a target on each of OpenAI,
// Anthropic, the Gemini API and Amazon Bedrock, run from a config file by the CLI against the
// simulator, each through its own SDK or wire (the AWS SDK signs with the test credentials that
// test/support/setup.ts puts in the environment).

const ROOT = resolve(import.meta.dirname, '../..');
const TARGETS = ['openai:gpt-4o-mini', 'anthropic:claude-haiku-4-5', 'google:gemini-2.5-flash', 'aws:us.anthropic.claude-haiku-4-5-20251001-v1:0'];

let sim: Simulator;
const dir = mkdtempSync(join(tmpdir(), 'switchyard-eval-native-'));
beforeAll(async () => {
  sim = await startSimulator({
    seed: 20261202,
    providers: { openai: { type: 'openai' }, anthropic: { type: 'anthropic' }, google: { type: 'gemini' }, aws: { type: 'bedrock' } },
  });
});
afterAll(async () => {
  await sim.stop();
  rmSync(dir, { recursive: true, force: true });
});

function writeConfig(): string {
  const file = join(dir, 'native.config.mjs');
  const config = {
    providers: {
      openai: { type: 'openai', apiKey: 'sk-sim-openai', baseURL: sim.baseURL('openai') },
      anthropic: { type: 'anthropic', apiKey: 'sk-ant-sim', baseURL: sim.baseURL('anthropic') },
      google: { type: 'gemini', apiKey: 'AIzaSyTESTevalNative0123456789abcdefgh', baseURL: sim.baseURL('google') },
      aws: { type: 'bedrock', region: 'us-east-1', baseURL: sim.baseURL('aws') },
    },
    chains: { native: TARGETS },
  };
  writeFileSync(file, `export default ${JSON.stringify(config, null, 2)};\n`);
  // The capital case again, at effort minimal, which turns Gemini 2.5 Flash's thinking off (a thinking budget of 0).
  const capital = readFileSync(join(ROOT, 'examples/eval/cases.jsonl'), 'utf8').split('\n').find((l) => l.includes('"capital"'))!;
  const noThinking = JSON.parse(capital) as { options: Record<string, unknown> };
  noThinking.options.reasoning = { effort: 'minimal' };
  writeFileSync(join(dir, 'capital.jsonl'), `${JSON.stringify(noThinking)}\n`);
  return file;
}

function io(): CliIO & { out: () => string; err: () => string } {
  let out = '';
  let err = '';
  return { stdout: (t) => void (out += t), stderr: (t) => void (err += t), isTTY: false, env: {}, cwd: ROOT, out: () => out, err: () => err };
}

describe('switchyard eval across every native provider', () => {
  it('runs the example cases on OpenAI, Anthropic, Gemini and Bedrock targets of one chain: every run answered and passed, the thinking model included (maxTokens is the visible answer budget)', { timeout: 60_000 }, async () => {
    const json = join(dir, 'report.json');
    const cli = io();
    const code = await main(['eval', '--config', writeConfig(), '--chain', 'native', '--cases', 'examples/eval/cases.jsonl', '--json', json, '--no-cache'], cli);
    expect(cli.err()).not.toContain('switchyard:');
    const report = JSON.parse(readFileSync(json, 'utf8')) as EvalReport;
    const cases = readFileSync(join(ROOT, 'examples/eval/cases.jsonl'), 'utf8').split('\n').filter((l) => l.trim().startsWith('{')).length;
    expect(report.targets.map((t) => t.key)).toEqual(TARGETS);
    expect(report.runs).toHaveLength(cases * TARGETS.length);
    // Every run was answered by the target it names, through that provider's own wire.
    expect(report.runs.filter((r) => r.error)).toEqual([]);
    const failed = report.runs.filter((r) => !r.pass).map((r) => [r.target, r.caseId, r.finishReason, r.text]);
    // Gemini 2.5 thinks by default, and its thoughts count against maxOutputTokens: the case that
    // asks for 20 tokens ("capital", maxTokens 20) used to spend them thinking and answer no text.
    // maxTokens is now the visible answer's budget (issue 37): the router adds the thinking budget.
    expect(failed).toEqual([]);
    const stats = sim.stats().providers;
    for (const p of ['openai', 'anthropic', 'google', 'aws']) expect(stats[p]!.requests, p).toBe(cases);
    const row = (target: string, passed: number, pct: string) => new RegExp(`${target.replace(/[.:]/g, (c) => `\\${c}`)}\\s+${passed}/${cases}\\s+${pct.replace('.', '\\.')}%`);
    for (const target of TARGETS) expect(cli.out()).toMatch(row(target, cases, '100.0'));
    expect(code).toBe(0);
  });

  it('a Gemini 2.5 target at reasoning effort minimal (thinking off) answers the capital case within its 20 tokens', { timeout: 60_000 }, async () => {
    const json = join(dir, 'report-no-thinking.json');
    const cli = io();
    const code = await main(['eval', '--config', writeConfig(), '--chain', 'native', '--targets', 'google:gemini-2.5-flash', '--cases', join(dir, 'capital.jsonl'), '--json', json, '--no-cache'], cli);
    expect(cli.err()).not.toContain('switchyard:');
    expect(code).toBe(0);
    const report = JSON.parse(readFileSync(json, 'utf8')) as EvalReport;
    expect(report.runs.map((r) => [r.target, r.pass, r.finishReason, r.text])).toEqual([['google:gemini-2.5-flash', true, 'stop', 'Canberra']]);
  });
});
