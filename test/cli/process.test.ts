import { spawn } from 'node:child_process';
import { join } from 'node:path';
import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { fakeAnswer } from '../../providers/fake/answer.js';
import { ROOT, noStack } from './io.js';

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs `npx tsx src/cli/main.ts ...args` as a real child process, as a user would; `direct` runs the
 * tsx binary itself, which passes signals on to the CLI (npx does not).
 */
function cli(args: string[], onStdout?: (text: string, child: ReturnType<typeof spawn>) => void, direct = false): Promise<Run> {
  return new Promise((resolve, reject) => {
    const env = { ...process.env };
    for (const name of ['OPENAI_API_KEY', 'ANTHROPIC_API_KEY', 'SWITCHYARD_SIMULATOR_URL']) delete env[name];
    const [command, ...prefix] = direct ? [join(ROOT, 'node_modules/.bin/tsx')] : ['npx', 'tsx'];
    const child = spawn(command!, [...prefix, 'src/cli/main.ts', ...args], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
      onStdout?.(stdout, child);
    });
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('the CLI as a child process', () => {
  it('answers a prompt offline with no keys, and refuses a bad flag with one line and exit 2', async () => {
    const [ok, bad] = await Promise.all([cli(['chat', 'Hello from a shell']), cli(['chat', '--bogus', 'x'])]);
    expect(ok.code).toBe(0);
    expect(ok.stdout).toBe(`${fakeAnswer([{ role: 'user', content: 'Hello from a shell' }], 'gpt-4o-mini')}\n`);
    expect(ok.stderr).toMatch(/switchyard: offline: /);
    expect(bad).toEqual({ code: 2, stdout: '', stderr: "switchyard: Unknown option '--bogus'\n" });
  });

  it('runs `simulate` until SIGTERM, serving the SDK meanwhile, then prints what it counted', async () => {
    let served: Promise<void> | undefined;
    const run = await cli(['simulate', '--port', '0', '--seed', '5'], (stdout, child) => {
      const url = /listening on (http:\/\/\S+)/.exec(stdout)?.[1];
      if (!url || served) return;
      served = (async () => {
        const client = new OpenAI({ apiKey: 'sk-anything', baseURL: `${url}/openai/v1`, maxRetries: 0 });
        await client.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }] });
        child.kill('SIGTERM');
      })();
    }, true);
    await served;
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/\(seed 5\)/);
    expect(run.stdout).toMatch(/simulator stopped \(terminated\)/);
    expect(run.stdout).toMatch(/^openai +1 +200×1 /m);
    expect(noStack(run.stderr)).toBe(true);
  });
});
