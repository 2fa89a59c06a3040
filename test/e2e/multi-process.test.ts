import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ANTHROPIC_PATH, OPENAI_PATH, anthropicOk, openaiBodies, openaiOk } from '../support/fixtures.js';
import { redisPerFile } from '../support/redis-per-file.js';
import { startUpstream, type Upstream } from '../support/upstream.js';

const run = promisify(execFile);
const ROOT = resolve(import.meta.dirname, '../..');
const WORKER = resolve(ROOT, 'test/support/chat-worker.ts');
const FLEET_WORKER = resolve(ROOT, 'test/reliability/fleet-worker.ts');
const TSX = resolve(ROOT, 'node_modules/.bin/tsx');

const redis = redisPerFile();
let up: Upstream;
beforeEach(async () => {
  up = await startUpstream();
  up.otherwise(OPENAI_PATH, () => openaiOk());
  up.otherwise(ANTHROPIC_PATH, () => anthropicOk());
});
afterEach(async () => {
  await up.close();
});

/** Runs the worker as its own OS process; resolves with one parsed line per call. */
async function worker(env: Record<string, string>): Promise<Array<{ provider?: string; error?: string; skipped?: string[] }>> {
  const { stdout } = await run(TSX, [WORKER], {
    cwd: ROOT, timeout: 30_000,
    env: { ...process.env, REDIS_URL: redis.url, UPSTREAM_URL: up.url, ...env },
  });
  return stdout.trim().split('\n').map((line) => JSON.parse(line));
}

describe('several processes sharing one Redis store', () => {
  it('send at most rpm requests together (rpm 10, two processes, twenty calls)', async () => {
    const prefix = { KEY_PREFIX: `mp-rpm-${Date.now()}:` };
    const [a, b] = await Promise.all([worker({ CALLS: '10', RPM: '10', ...prefix }), worker({ CALLS: '10', RPM: '10', ...prefix })]);
    const all = [...a, ...b];
    expect(all.every((r) => r.provider)).toBe(true);
    expect(up.count(OPENAI_PATH)).toBe(10);
    expect(up.count(ANTHROPIC_PATH)).toBe(10);
    expect(all.filter((r) => r.provider === 'backup').every((r) => r.skipped?.includes('local_limit'))).toBe(true);
  }, 60_000);

  it('spare every other process the round trip once one is told its quota is gone', async () => {
    const prefix = { KEY_PREFIX: `mp-quota-${Date.now()}:` };
    up.script(OPENAI_PATH, { status: 429, body: openaiBodies.insufficientQuota });
    const first = await worker({ CALLS: '1', ...prefix });
    expect(first).toEqual([{ provider: 'backup', skipped: [] }]);
    const second = await worker({ CALLS: '3', ...prefix });
    expect(second.every((r) => r.provider === 'backup' && r.skipped?.includes('quota_exhausted'))).toBe(true);
    expect(up.count(OPENAI_PATH)).toBe(1);
  }, 60_000);
});

/** A long-lived worker process of the fleet (test/reliability/fleet-worker.ts), driven line by line. */
function fleetProcess(env: Record<string, string>) {
  const child: ChildProcess = spawn(TSX, [FLEET_WORKER], {
    cwd: ROOT, stdio: ['pipe', 'pipe', 'inherit'],
    env: { ...process.env, REDIS_URL: redis.url, UPSTREAM_URL: up.url, ...env },
  });
  const waiting: Array<(line: string) => void> = [];
  const lines: string[] = [];
  createInterface({ input: child.stdout! }).on('line', (line) => {
    const next = waiting.shift();
    if (next) next(line);
    else lines.push(line);
  });
  const nextLine = () => (lines.length > 0 ? Promise.resolve(lines.shift()!) : new Promise<string>((r) => waiting.push(r)));
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  return {
    nextLine,
    send: (command: string) => child.stdin!.write(`${command}\n`),
    async exit() {
      child.stdin!.write('exit\n');
      await exited;
    },
  };
}

describe('several processes with breaker.shared on one Redis store', () => {
  it('send one half-open probe between them to a provider that is down', async () => {
    up.otherwise(OPENAI_PATH, () => ({ status: 503, body: openaiBodies.overloaded503 }));
    const env = { KEY_PREFIX: `mp-breaker-${Date.now()}:`, RESET_MS: '5000' };
    const [a, b, c] = [fleetProcess(env), fleetProcess(env), fleetProcess(env)];
    try {
      expect(await Promise.all([a.nextLine(), b.nextLine(), c.nextLine()])).toEqual(['ready', 'ready', 'ready']);
      a.send('trip');
      expect(JSON.parse(await a.nextLine())).toEqual({ state: 'open' });
      expect(up.count(OPENAI_PATH)).toBe(4);
      // b and c never saw the provider fail: they follow the fleet's breaker, and one of them probes.
      b.send('probe');
      c.send('probe');
      const [fromB, fromC] = (await Promise.all([b.nextLine(), c.nextLine()])).map((l) => JSON.parse(l) as { primary: number });
      expect(fromB!.primary + fromC!.primary).toBe(1);
      expect(up.count(OPENAI_PATH)).toBe(5);
    } finally {
      await Promise.all([a.exit(), b.exit(), c.exit()]);
    }
  }, 60_000);
});
