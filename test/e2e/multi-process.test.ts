import { execFile } from 'node:child_process';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ANTHROPIC_PATH, OPENAI_PATH, anthropicOk, openaiBodies, openaiOk } from '../support/fixtures.js';
import { startRedisServer, type RedisServer } from '../support/redis-server.js';
import { startUpstream, type Upstream } from '../support/upstream.js';

const run = promisify(execFile);
const ROOT = resolve(import.meta.dirname, '../..');
const WORKER = resolve(ROOT, 'test/support/chat-worker.ts');
const TSX = resolve(ROOT, 'node_modules/.bin/tsx');

let redis: RedisServer;
let up: Upstream;
beforeAll(async () => {
  redis = await startRedisServer();
});
afterAll(async () => {
  await redis.stop();
});
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
