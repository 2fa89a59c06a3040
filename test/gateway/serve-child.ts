import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname, '../..');

/** `switchyard serve` as its own OS process (node + tsx, so signals reach the CLI itself). */
export interface ServeChild {
  child: ChildProcess;
  /** The URL it printed once it listened. */
  url: Promise<string>;
  /** Resolves once stdout has matched `re`. */
  printed(re: RegExp): Promise<string>;
  /** The exit code, once it exited. */
  exited: Promise<number | null>;
  stdout(): string;
  stderr(): string;
}

/** Writes `config` as a JavaScript config file in a temporary folder (removed by `cleanup`). */
export function configFile(config: unknown): { path: string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'switchyard-gateway-'));
  const path = join(dir, 'router.config.mjs');
  writeFileSync(path, `export default ${JSON.stringify(config, null, 2)};\n`);
  return { path, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/** Starts `switchyard serve ...args`, with `env` added to this process's environment (less provider keys). */
export function startServe(args: string[], env: Record<string, string> = {}): ServeChild {
  const childEnv: NodeJS.ProcessEnv = { ...process.env, ...env };
  for (const name of ['OPENAI_API_KEY', 'ANTHROPIC_API_KEY', 'SWITCHYARD_SIMULATOR_URL']) delete childEnv[name];
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', 'serve', ...args], { cwd: ROOT, env: childEnv, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  const waiters: Array<{ re: RegExp; resolve: (m: string) => void }> = [];
  const exited = new Promise<number | null>((res) => child.on('close', (code) => res(code)));
  child.stdout!.on('data', (d: Buffer) => {
    out += d.toString();
    for (const w of [...waiters]) {
      const m = w.re.exec(out);
      if (m) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve(m[1] ?? m[0]);
      }
    }
  });
  child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
  const printed = (re: RegExp) => new Promise<string>((res, rej) => {
    const m = re.exec(out);
    if (m) return res(m[1] ?? m[0]);
    waiters.push({ re, resolve: res });
    void exited.then((code) => rej(new Error(`switchyard serve exited (${code}) before printing ${re}:\n${out}\n${err}`)));
  });
  const url = printed(/listening on (http:\/\/\S+)/);
  // A child that never listens (a refused --host) rejects this; only a test that awaits it cares.
  url.catch(() => {});
  return { child, url, printed, exited, stdout: () => out, stderr: () => err };
}
