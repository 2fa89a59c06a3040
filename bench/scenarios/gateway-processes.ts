import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { API_KEY, MODEL, ROOMY_LIMITS } from '../lib/arms.js';
import { exited } from '../lib/node-child.js';
import { REPO_ROOT } from '../lib/profile.js';

/** A gateway under test, in a process of its own (pinned to `core` when pinning is on). */
export interface GatewayProcess {
  name: string;
  /** The OpenAI base URL clients take. */
  baseURL: string;
  /** Headers every request needs (Portkey: which provider, which upstream). */
  headers: Record<string, string>;
  pid: number;
  /** CPU seconds (user + system) the process has used so far, from /proc; NaN where there is none. */
  cpuSeconds(): number;
  close(): Promise<void>;
}

const PORTKEY_START = fileURLToPath(new URL('../../node_modules/@portkey-ai/gateway/build/start-server.js', import.meta.url));
const FLOOR = fileURLToPath(new URL('./gateway-floor.mjs', import.meta.url));
const LOOPBACK_ONLY = pathToFileURL(fileURLToPath(new URL('./gateway-loopback-only.mjs', import.meta.url))).href;

function pinned(core: string | undefined, cmd: string, args: string[]): [string, string[]] {
  return core === undefined ? [cmd, args] : ['taskset', ['-c', core, cmd, ...args]];
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** utime + stime of a process, in seconds (Linux /proc, 100 ticks a second). */
function procCpuSeconds(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return Number.NaN;
  }
}

/** Resolves with the first match of `re` in the child's stdout; rejects if it exits first or `timeoutMs` passes. */
function printed(child: ChildProcess, re: RegExp, what: string, timeoutMs = 60_000): Promise<RegExpExecArray> {
  return new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => done(() => reject(new Error(`${what} printed nothing matching ${re} within ${timeoutMs} ms:\n${out.slice(-2000)}`))), timeoutMs);
    const onData = (d: Buffer) => {
      out += d.toString();
      const m = re.exec(out);
      if (m) done(() => resolve(m));
    };
    const onExit = (code: number | null) => done(() => reject(new Error(`${what} exited (${code}) before it was ready:\n${out.slice(-2000)}`)));
    const done = (then: () => void) => {
      clearTimeout(timer);
      child.stdout!.off('data', onData);
      child.off('exit', onExit);
      // Keep reading, so a chatty child never blocks on a full pipe.
      child.stdout!.resume();
      then();
    };
    child.stdout!.on('data', onData);
    child.once('exit', onExit);
  });
}

/** The pids of a process's children (a cluster primary's workers), from /proc. */
function childPids(pid: number): number[] {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
  } catch {
    return [];
  }
}

/** CPU of a process and of its children (each worker of `serve --workers`): a worker that exited is missing from it. */
function treeCpuSeconds(pid: number): number {
  return [pid, ...childPids(pid)].reduce((sum, p) => sum + procCpuSeconds(p), 0);
}

function handle(name: string, child: ChildProcess, baseURL: string, headers: Record<string, string>, cleanup = () => {}): GatewayProcess {
  return {
    name, baseURL, headers, pid: child.pid!,
    cpuSeconds: () => treeCpuSeconds(child.pid!),
    async close() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited(child, 10_000);
      cleanup();
    },
  };
}

/** How `switchyard serve` is started: node's arguments before `serve`. */
export type ServeEntry = string[];

/** The sources under `root` (this checkout, or a ref materialised by lib/refs.ts) through tsx. */
export function tsxEntry(root: string): ServeEntry {
  return ['--import', 'tsx', join(root, 'src/cli/main.ts')];
}

/** From the TypeScript sources through tsx (what `npm run switchyard` runs): quick, but tsx names every function it makes. */
export const TSX_ENTRY: ServeEntry = tsxEntry(REPO_ROOT);

/**
 * The working tree compiled as `npm run build` compiles it (tsconfig.build.json), into `.bench-dist/`
 * beside `dist/` (same depth, so relative paths resolve alike): what `npx switchyard serve` runs.
 * tsx's output calls a naming helper for every closure it makes, which a gateway makes per request.
 */
export function builtEntry(root: string = REPO_ROOT): ServeEntry {
  const outDir = join(root, '.bench-dist');
  rmSync(outDir, { recursive: true, force: true });
  const tsc = join(REPO_ROOT, 'node_modules/typescript/bin/tsc');
  const r = spawnSync(process.execPath, [tsc, '-p', join(root, 'tsconfig.build.json'), '--outDir', outDir], { cwd: root, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`compiling ${root === REPO_ROOT ? 'the working tree' : root} for the gateway bench failed:\n${(r.stdout ?? '') + (r.stderr ?? '')}`);
  return [join(outDir, 'src/cli/main.js')];
}

/**
 * `switchyard serve` on loopback in front of `upstreamBaseURL`: the overhead scenario's router (chain
 * primary → secondary, breakers, RPM/TPM/concurrency budgets, retries), request logs on at info (to
 * /dev/null, as a deployment writes them somewhere).
 */
export async function startSwitchyard(upstreamBaseURL: string, core: string | undefined, workers = 1, entry: ServeEntry = TSX_ENTRY, name?: string): Promise<GatewayProcess> {
  const dir = mkdtempSync(join(tmpdir(), 'switchyard-bench-gateway-'));
  const file = join(dir, 'router.config.mjs');
  const provider = { type: 'openai', apiKey: API_KEY, baseURL: upstreamBaseURL, timeoutMs: 60_000, limits: ROOMY_LIMITS };
  writeFileSync(file, `export default ${JSON.stringify({
    providers: { primary: provider, secondary: provider },
    chains: { default: [`primary:${MODEL}`, `secondary:${MODEL}`] },
    log: { level: 'info' },
  })};\n`);
  const [cmd, args] = pinned(core, process.execPath, [...entry, 'serve', '--config', file, '--port', '0', '--workers', String(workers)]);
  const child = spawn(cmd, args, { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'ignore'], env: { ...process.env, OPENAI_API_KEY: '', ANTHROPIC_API_KEY: '' } });
  try {
    const m = await printed(child, /listening on (http:\/\/\S+)/, 'switchyard serve');
    return handle(name ?? (workers > 1 ? `switchyard serve --workers ${workers}` : 'switchyard serve'), child, `${m[1]}/v1`, {}, () => rmSync(dir, { recursive: true, force: true }));
  } catch (err) {
    child.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
    throw err;
  }
}

/** Portkey's open-source gateway (`@portkey-ai/gateway`), held to 127.0.0.1, routing to `upstreamBaseURL` as an OpenAI provider. */
export async function startPortkey(upstreamBaseURL: string, core: string | undefined): Promise<GatewayProcess> {
  const port = await freePort();
  const [cmd, args] = pinned(core, process.execPath, ['--import', LOOPBACK_ONLY, PORTKEY_START, `--port=${port}`, '--headless']);
  const child = spawn(cmd, args, { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'ignore'] });
  try {
    await printed(child, /Ready for connections/, 'the Portkey gateway');
    return handle('Portkey gateway 1.15.2', child, `http://127.0.0.1:${port}/v1`, { 'x-portkey-provider': 'openai', 'x-portkey-custom-host': upstreamBaseURL });
  } catch (err) {
    child.kill('SIGKILL');
    throw err;
  }
}

/** The name of the reference arm: the least a Node.js proxy does (gateway-floor.mjs). */
export const FLOOR_NAME = 'node:http proxy (floor)';

/** gateway-floor.mjs in front of `upstreamBaseURL`: no router, the bytes relayed; what any Node gateway pays here. */
export async function startFloor(upstreamBaseURL: string, core: string | undefined): Promise<GatewayProcess> {
  const [cmd, args] = pinned(core, process.execPath, [FLOOR, upstreamBaseURL]);
  const child = spawn(cmd, args, { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'ignore'] });
  try {
    const m = await printed(child, /listening on (http:\/\/\S+)/, 'the floor proxy');
    return handle(FLOOR_NAME, child, `${m[1]}/v1`, {});
  } catch (err) {
    child.kill('SIGKILL');
    throw err;
  }
}
