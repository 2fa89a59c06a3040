import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { onTestFinished } from 'vitest';
import type { CliIO } from '../../src/cli/command.js';

export const ROOT = resolve(import.meta.dirname, '../..');

/** A CliIO that records what a command writes. */
export function captureIO(overrides: Partial<CliIO> = {}) {
  const out: string[] = [];
  const err: string[] = [];
  const io: CliIO = { stdout: (t) => void out.push(t), stderr: (t) => void err.push(t), isTTY: false, env: {}, cwd: ROOT, ...overrides };
  return { io, out: () => out.join(''), err: () => err.join('') };
}

let seq = 0;

/** A fresh temporary directory, removed when the current test finishes. */
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'switchyard-cli-'));
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** Writes a config module (`export default <config>`) into a fresh directory (removed after the test); returns its path. */
export function writeConfig(config: unknown, dir = tempDir()): string {
  const file = join(dir, `router-${process.pid}-${++seq}.config.mjs`);
  writeFileSync(file, `export default ${JSON.stringify(config, null, 2)};\n`);
  return file;
}

/** True when no line of `text` looks like a stack frame. */
export const noStack = (text: string) => !/^\s+at /m.test(text);
