import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { defaultConfig } from '../../src/config/default-config.js';
import type { EvalCase } from '../../src/eval/case-types.js';
import { loadCases, parseCasesJsonl } from '../../src/eval/load-cases.js';
import { runEval } from '../../src/eval/run-eval.js';
import { startSimulator, type Simulator } from '../../src/sim/index.js';
import { silentLogger } from './helpers.js';

// The eval cases the documentation shows a newcomer (the code blocks of the README and docs/, and
// examples/eval/) pass on what a first run with no keys answers from: the built-in simulator
// behind the default config (OpenAI and Anthropic through the real SDKs), and the in-process fake
// provider the default config falls back to. Nothing here knows the cases: they are read from
// the files, so a case added to the docs is held to the same standard.

const ROOT = resolve(import.meta.dirname, '../..');
const SCRATCH = join(ROOT, 'node_modules', '.cache', 'switchyard-documented-cases');
const FENCE = /```(json|jsonl|ts|typescript)\n([\s\S]*?)```/g;

async function markdownFiles(): Promise<string[]> {
  const docs = await readdir(join(ROOT, 'docs'), { recursive: true }).catch(() => [] as string[]);
  return [join(ROOT, 'README.md'), ...docs.filter((f) => f.endsWith('.md')).map((f) => join(ROOT, 'docs', f))];
}

/** Every eval case in a code block of the docs: JSONL blocks of case objects, and TypeScript blocks that `defineCases`. */
async function documentedCases(): Promise<Array<{ where: string; cases: EvalCase[] }>> {
  const found: Array<{ where: string; cases: EvalCase[] }> = [];
  await mkdir(SCRATCH, { recursive: true });
  for (const file of await markdownFiles()) {
    const text = await readFile(file, 'utf8');
    for (const [i, m] of [...text.matchAll(FENCE)].entries()) {
      const [, lang, body] = m as unknown as [string, string, string];
      const where = `${file.slice(ROOT.length + 1)} block ${i + 1}`;
      if (lang.startsWith('json')) {
        const lines = body.split('\n').filter((l) => l.trim().startsWith('{'));
        const isCases = lines.length > 0 && lines.every((l) => {
          try {
            const value = JSON.parse(l) as Record<string, unknown>;
            return typeof value.id === 'string' && typeof value.expect === 'object';
          } catch {
            return false;
          }
        });
        if (isCases) found.push({ where, cases: parseCasesJsonl(lines.join('\n'), where) });
      } else if (body.includes('defineCases(')) {
        const module = join(SCRATCH, `case-${found.length}.ts`);
        await writeFile(module, body.replace(/(['"])switchyard-llm\/eval\1/g, JSON.stringify(join(ROOT, 'src/eval/index.ts'))));
        found.push({ where, cases: await loadCases(module) });
      }
    }
  }
  return found;
}

let sim: Simulator | undefined;
afterAll(async () => {
  await sim?.stop();
  await rm(SCRATCH, { recursive: true, force: true });
});

describe('the documented eval cases on a run with no keys', () => {
  it('finds the cases the docs show: the JSONL and TypeScript examples of docs/eval.md', async () => {
    const blocks = await documentedCases();
    expect(blocks.length).toBeGreaterThanOrEqual(2);
    expect(blocks.filter((b) => b.where.startsWith('docs/eval.md')).length).toBeGreaterThanOrEqual(2);
    expect(blocks.flatMap((b) => b.cases).length).toBeGreaterThanOrEqual(4);
  });

  it.each([
    ['the simulator behind the default config', true],
    ['the fake provider the default config falls back to', false],
  ])('every documented case passes on %s, on every target', { timeout: 60_000 }, async (_what, simulated) => {
    if (simulated) sim ??= await startSimulator({ seed: 20261129 });
    const config = defaultConfig(simulated ? { SWITCHYARD_SIMULATOR_URL: sim!.url } : {});
    const cases = [
      ...(await documentedCases()).flatMap((b) => b.cases.map((c) => ({ ...c, id: `${b.where}: ${c.id}` }))),
      ...(await loadCases('examples/eval/cases.ts', ROOT)).map((c) => ({ ...c, id: `examples/eval/cases.ts: ${c.id}` })),
    ];
    const report = await runEval({ config, chain: 'default', cases, routerOptions: { logger: silentLogger } });

    expect(report.targets.map((t) => t.key)).toEqual(simulated
      ? ['openai:gpt-4o-mini', 'anthropic:claude-haiku-4-5']
      : ['offline:gpt-4o-mini', 'offline:claude-haiku-4-5']);
    const failed = report.runs.filter((r) => !r.pass).map((r) => `${r.target} ${r.caseId}: ${r.error?.message ?? r.checks.filter((c) => !c.pass).map((c) => `${c.name} ${c.reason}`).join('; ')} (answered ${JSON.stringify(r.text)})`);
    expect(failed).toEqual([]);
    expect(report.runs).toHaveLength(cases.length * 2);
  });
});
