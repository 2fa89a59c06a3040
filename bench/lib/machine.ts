import { execFileSync, spawnSync } from 'node:child_process';
import { cpus, totalmem } from 'node:os';

/** Where and on what a result was measured: recorded in every result file. */
export interface Machine {
  date: string;
  node: string;
  v8: string;
  cpuModel: string;
  cores: number;
  memoryGiB: number;
  platform: string;
  commit: string;
  /** True when the working tree had uncommitted changes at the time of the run. */
  dirty: boolean;
  command: string;
  /** Cores the client and the simulator were pinned to, or why they were not. */
  pinning: string;
}

function git(args: string[]): string | undefined {
  try {
    return execFileSync('git', args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    return undefined;
  }
}

/** True when `taskset` exists and there are at least two cores to split between client and simulator. */
export function canPin(): boolean {
  if (process.platform !== 'linux' || cpus().length < 2 || process.env.BENCH_NO_PIN === '1') return false;
  return spawnSync('taskset', ['-c', '0', 'true'], { stdio: 'ignore' }).status === 0;
}

/** The machine, runtime and commit a run is measured on. */
export function machine(command: string, pinning: string): Machine {
  const model = cpus()[0]?.model?.trim() || 'unknown';
  return {
    date: new Date().toISOString(),
    node: process.version,
    v8: process.versions.v8,
    cpuModel: model,
    cores: cpus().length,
    memoryGiB: Math.round((totalmem() / 2 ** 30) * 10) / 10,
    platform: `${process.platform} ${process.arch}`,
    commit: git(['rev-parse', '--short=12', 'HEAD']) ?? 'unknown',
    dirty: (git(['status', '--porcelain', '--untracked-files=no']) ?? '') !== '',
    command,
    pinning,
  };
}
