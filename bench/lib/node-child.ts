import { spawn, type ChildProcess, type StdioOptions } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** tsx's ESM loader, by absolute URL, so a child can run TypeScript from any working directory. */
export const TSX_LOADER = import.meta.resolve('tsx');

/** The core a child should be pinned to, or undefined for none (set by bench/run.ts). */
export function pinCore(role: 'sim' | 'client'): string | undefined {
  if (process.env.BENCH_PIN !== '1') return undefined;
  return role === 'sim' ? '0' : '1';
}

export interface NodeChildOptions {
  role: 'sim' | 'client';
  /** Pin to this core instead of the role's (only when pinning is on). */
  core?: string;
  /** Extra node flags (`--expose-gc`, semi-space size, ...). */
  nodeFlags?: string[];
  args?: string[];
  env?: NodeJS.ProcessEnv;
  stdio?: StdioOptions;
}

/** Starts `node [flags] --import tsx <file>` with an IPC channel, under `taskset` when pinning is on. */
export function spawnNode(file: string | URL, options: NodeChildOptions): ChildProcess {
  const path = typeof file === 'string' ? file : fileURLToPath(file);
  const nodeArgs = [...(options.nodeFlags ?? []), '--import', TSX_LOADER, path, ...(options.args ?? [])];
  const core = pinCore(options.role) === undefined ? undefined : (options.core ?? pinCore(options.role));
  const [cmd, args] = core === undefined ? [process.execPath, nodeArgs] : ['taskset', ['-c', core, process.execPath, ...nodeArgs]];
  return spawn(cmd, args, {
    stdio: options.stdio ?? ['ignore', 'inherit', 'inherit', 'ipc'],
    env: { ...process.env, ...options.env },
  });
}

/** Resolves with the first IPC message `accept` returns true for; rejects if the child exits first. */
export function nextMessage<T>(child: ChildProcess, accept: (msg: any) => boolean, timeoutMs = 60_000): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const onMessage = (msg: any) => {
      if (msg && msg.type === 'error') return done(() => reject(new Error(`child failed: ${msg.message}`)));
      if (accept(msg)) done(() => resolve(msg as T));
    };
    const onExit = (code: number | null, signal: string | null) => done(() => reject(new Error(`child exited (${code ?? signal}) before answering`)));
    const timer = setTimeout(() => done(() => reject(new Error(`child did not answer within ${timeoutMs} ms`))), timeoutMs);
    const done = (then: () => void) => {
      clearTimeout(timer);
      child.off('message', onMessage);
      child.off('exit', onExit);
      then();
    };
    child.on('message', onMessage);
    child.once('exit', onExit);
  });
}

/** Waits for a child to exit, killing it after `graceMs`. */
export function exited(child: ChildProcess, graceMs = 5_000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
  });
}
