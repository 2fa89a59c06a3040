import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const TEMP_VARS = ['TMPDIR', 'TMP', 'TEMP'] as const;

/**
 * vitest globalSetup: the run gets a temporary folder of its own, inherited by every worker and child
 * process through TMPDIR (os.tmpdir() reads it), so what it holds at the end was left by this run
 * alone, never by another run on the same machine. A `switchyard-*` folder still there fails the run:
 * each test removes what it makes (afterAll, onTestFinished or try/finally). The run's folder is
 * removed either way, so a failing run leaves nothing behind either.
 */
export default function setup(): () => void {
  const before = Object.fromEntries(TEMP_VARS.map((name) => [name, process.env[name]]));
  const runDir = mkdtempSync(join(tmpdir(), 'switchyard-test-run-'));
  for (const name of TEMP_VARS) process.env[name] = runDir;

  return function teardown() {
    for (const name of TEMP_VARS) {
      if (before[name] === undefined) delete process.env[name];
      else process.env[name] = before[name];
    }
    const left = readdirSync(runDir).filter((name) => name.startsWith('switchyard-'));
    rmSync(runDir, { recursive: true, force: true });
    if (left.length > 0) {
      // vitest reports an error thrown here but keeps the exit code, so set it as well.
      process.exitCode = 1;
      throw new Error(`the tests left ${left.length} temporary folder(s) behind: ${left.sort().join(', ')}; remove every folder a test makes (afterAll, onTestFinished or try/finally)`);
    }
  };
}
