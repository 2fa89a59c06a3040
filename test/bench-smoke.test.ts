import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// A smoke test of the benchmark harness: `bench/run.ts --quick` must run every scenario against the
// simulator and report. It checks that figures are produced, never what they are: no timing here.

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const SCENARIOS = ['overhead', 'goodput', 'retry-storm', 'fallback', 'memory', 'gateway', 'embed', 'stream-memory', 'fleet-shares', 'hedge', 'routing'];

function runQuick(out: string): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'bench/run.ts', '--quick', '--out', out], {
      cwd: ROOT,
      env: { ...process.env, BENCH_NO_PIN: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    child.on('error', reject);
    child.on('exit', (code) => resolve({ code, output }));
  });
}

describe('npm run bench -- --quick', () => {
  it('runs every scenario against the simulator and writes a result file per scenario and the summary', async () => {
    const out = mkdtempSync(join(tmpdir(), 'switchyard-bench-'));
    try {
      const { code, output } = await runQuick(out);
      expect(code, output.slice(-4000)).toBe(0);

      const files = readdirSync(out);
      const summary = readFileSync(join(out, 'summary.md'), 'utf8');
      expect(summary).toContain(`Node ${process.version}`);
      expect(summary).toMatch(/- commit: \S+/);
      for (const name of SCENARIOS) {
        // <stamp>-<scenario>.json, the stamp an ISO time without colons: 'embed' must not match 'embed-overhead'.
        const file = files.find((f) => f.replace(/^\d{4}-\d{2}-\d{2}T[\d.-]+Z?-/, '') === `${name}.json`);
        expect(file, `no result file for ${name}`).toBeDefined();
        const { machine, report } = JSON.parse(readFileSync(join(out, file!), 'utf8'));
        expect(machine).toMatchObject({ node: process.version, cores: expect.any(Number), cpuModel: expect.any(String) });
        expect(report.name).toBe(name);
        expect(report.tables.length, `${name} reported no table`).toBeGreaterThan(0);
        expect(report.targets.length, `${name} checked no target`).toBeGreaterThan(0);
        expect(summary).toContain(`### ${report.title}`);
        expect(output).toContain(`### ${report.title}`);
      }
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  }, 420_000); // a hang guard: ten quick scenarios take ~2 min alone, longer beside the rest of the suite
});
