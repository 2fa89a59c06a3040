import { execFile, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** What one wrk run measured (wrk is closed loop: `connections` requests in flight at all times). */
export interface WrkResult {
  connections: number;
  rps: number;
  p50Us: number;
  p99Us: number;
  requests: number;
  /** Non-2xx answers plus socket errors. */
  errors: number;
}

/** True when Debian's wrk is on the PATH. */
export function hasWrk(): boolean {
  return spawnSync('wrk', ['--version'], { stdio: 'ignore' }).error === undefined;
}

const UNIT_US: Record<string, number> = { us: 1, ms: 1_000, s: 1_000_000 };

function latencyUs(text: string, pct: string): number {
  const m = new RegExp(`^\\s+${pct}%\\s+([\\d.]+)(us|ms|s)\\s*$`, 'm').exec(text);
  return m ? Number(m[1]) * UNIT_US[m[2]!]! : Number.NaN;
}

/** Parses wrk's `--latency` report. */
export function parseWrk(text: string, connections: number): WrkResult {
  const rps = Number(/^Requests\/sec:\s+([\d.]+)/m.exec(text)?.[1] ?? Number.NaN);
  const requests = Number(/^\s+(\d+) requests in/m.exec(text)?.[1] ?? Number.NaN);
  const non2xx = Number(/Non-2xx or 3xx responses:\s+(\d+)/.exec(text)?.[1] ?? 0);
  const socket = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(text);
  const socketErrors = socket ? socket.slice(1).reduce((a, b) => a + Number(b), 0) : 0;
  return { connections, rps, p50Us: latencyUs(text, '50'), p99Us: latencyUs(text, '99'), requests, errors: non2xx + socketErrors };
}

/** The Lua script that makes wrk send one chat completion, with `headers`, on every request. */
function script(body: string, headers: Record<string, string>): string {
  const lines = ['wrk.method = "POST"', `wrk.body = ${JSON.stringify(body)}`, 'wrk.headers["Content-Type"] = "application/json"'];
  for (const [k, v] of Object.entries(headers)) lines.push(`wrk.headers[${JSON.stringify(k)}] = ${JSON.stringify(v)}`);
  return `${lines.join('\n')}\n`;
}

/** One wrk run: one thread, `connections` connections, for `seconds`, pinned to `core` when given. */
export function runWrk(url: string, body: string, headers: Record<string, string>, connections: number, seconds: number, core: string | undefined): Promise<WrkResult> {
  const dir = mkdtempSync(join(tmpdir(), 'switchyard-bench-wrk-'));
  const lua = join(dir, 'post.lua');
  writeFileSync(lua, script(body, headers));
  const wrk = ['wrk', '-t1', `-c${connections}`, `-d${seconds}s`, '--latency', '-s', lua, url];
  const [cmd, ...args] = core === undefined ? wrk : ['taskset', '-c', core, ...wrk];
  return new Promise((resolve, reject) => {
    execFile(cmd!, args, { timeout: (seconds + 30) * 1000 }, (err, stdout, stderr) => {
      rmSync(dir, { recursive: true, force: true });
      if (err) return reject(new Error(`wrk failed: ${err.message}\n${stderr}`));
      resolve(parseWrk(stdout, connections));
    });
  });
}
