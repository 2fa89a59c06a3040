import { request } from 'node:http';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { OPENAI_PATH, openaiCompletion } from '../support/fixtures.js';
import { gate, until } from '../support/until.js';
import { startUpstream, type Upstream } from '../support/upstream.js';
import { configFile, startServe, type ServeChild } from './serve-child.js';

// `switchyard serve --workers N`: N gateway processes on one port (node:cluster), started, restarted
// and drained by a primary that serves nothing itself. Each test runs the real CLI as a process.

let up: Upstream;
let cleanups: Array<() => void> = [];
let serves: ServeChild[] = [];
beforeEach(async () => {
  up = await startUpstream();
});
afterEach(async () => {
  for (const s of serves) if (s.child.exitCode === null) s.child.kill('SIGKILL');
  for (const c of cleanups) c();
  cleanups = [];
  serves = [];
  await up.close();
});

const config = (upstream: string, extra: object = {}) => ({
  providers: { openai: { type: 'openai', apiKey: 'sk-proj-workers-test-0123456789', baseURL: `${upstream}/v1`, limits: { rpm: 601, concurrency: 40 } } },
  chains: { default: ['openai:gpt-4o-mini'] },
  log: { level: 'info' },
  ...extra,
});

function serve(args: string[], cfg: object = config(up.url)): ServeChild {
  const file = configFile(cfg);
  cleanups.push(file.cleanup);
  const s = startServe(['--config', file.path, '--port', '0', '--log-requests', ...args]);
  serves.push(s);
  return s;
}

/** One chat call on a connection of its own (so the cluster may hand it to any worker). */
function chat(url: string, content = 'hi'): Promise<{ status: number; body: any }> {
  return new Promise((resolve, reject) => {
    const req = request(`${url}/v1/chat/completions`, { method: 'POST', agent: false, headers: { 'content-type': 'application/json' } }, (res) => {
      let text = '';
      res.on('data', (d: Buffer) => (text += d.toString()));
      res.on('end', () => resolve({ status: res.statusCode!, body: JSON.parse(text) }));
    });
    req.on('error', reject);
    req.end(JSON.stringify({ model: 'default', messages: [{ role: 'user', content }] }));
  });
}

/** The pids of the processes that logged a gateway request. */
const requestPids = (stderr: string) => new Set(stderr.split('\n').filter((l) => l.includes('"msg":"gateway request"')).map((l) => (JSON.parse(l) as { pid: number }).pid));

describe('switchyard serve --workers', () => {
  it('serves from two worker processes on one port, saying at start what each holds of the limits', async () => {
    up.otherwise(OPENAI_PATH, () => ({ status: 200, body: openaiCompletion('from a worker') }));
    const s = serve(['--workers', '2']);
    const url = await s.url;
    expect(s.stdout()).toMatch(/^switchyard gateway listening on http:\/\/127\.0\.0\.1:\d+ \(OpenAI base URL: .*\/v1; chains: default; 2 workers\)$/m);
    expect(s.stdout().match(/listening on/g)).toHaveLength(1);
    expect(s.stderr()).toContain('switchyard: 2 workers on the memory store: each holds 1/2 of every limit (providers.openai.limits.rpm 601 -> 301, providers.openai.limits.concurrency 40 -> 20); a Redis store shares them exactly');
    expect(s.stderr()).toContain('switchyard: on the memory store each worker keeps its own POST /v1/responses conversations, so a previous_response_id reaches another worker only on a Redis store');
    const answers = await Promise.all(Array.from({ length: 8 }, () => chat(url)));
    expect(answers.map((a) => [a.status, a.body.choices[0].message.content])).toEqual(Array(8).fill([200, 'from a worker']));
    expect(up.count(OPENAI_PATH)).toBe(8);
    await until(() => requestPids(s.stderr()).size === 2, 'request log lines from both workers');
    expect(requestPids(s.stderr()).has(s.child.pid!)).toBe(false);
    s.child.kill('SIGTERM');
    expect(await s.exited).toBe(0);
  }, 90_000);

  it('on SIGTERM drains every worker: calls in flight on each finish, then the primary exits 0 with their summed report', async () => {
    const held = gate();
    up.script(OPENAI_PATH, ...Array.from({ length: 4 }, () => ({ status: 200, body: openaiCompletion('answered after SIGTERM'), heldUntil: held.promise })));
    const s = serve(['--workers', '2']);
    const url = await s.url;
    const calls = Array.from({ length: 4 }, () => chat(url));
    await until(() => up.count(OPENAI_PATH) === 4, 'four calls to reach the upstream');
    s.child.kill('SIGTERM');
    await s.printed(/draining \(SIGTERM\): 2 workers stopped accepting/);
    held.open();
    expect((await Promise.all(calls)).map((c) => c.body.choices[0].message.content)).toEqual(Array(4).fill('answered after SIGTERM'));
    expect(await s.exited).toBe(0);
    expect(s.stdout()).toMatch(/stopped: 4 in flight at SIGTERM, 0 cut off \(2 of 2 workers drained\)/);
    // The four calls were on both workers (the cluster hands connections round-robin), and each worker
    // answered its own after SIGTERM: every one of them drained, not just the first.
    expect(requestPids(s.stderr()).size).toBe(2);
    expect(requestPids(s.stderr()).has(s.child.pid!)).toBe(false);
    expect(s.stderr()).not.toMatch(/sk-proj-workers-test/);
  }, 90_000);

  it('starts another worker when one dies, and keeps serving', async () => {
    up.otherwise(OPENAI_PATH, () => ({ status: 200, body: openaiCompletion('still here') }));
    const s = serve(['--workers', '2']);
    const url = await s.url;
    await Promise.all(Array.from({ length: 4 }, () => chat(url)));
    await until(() => requestPids(s.stderr()).size === 2, 'request log lines from both workers');
    const [victim] = requestPids(s.stderr());
    process.kill(victim!, 'SIGKILL');
    await until(() => /switchyard: worker \d exited \(SIGKILL\); starting another/.test(s.stderr()), 'the primary to restart the worker');
    const after = await Promise.all(Array.from({ length: 6 }, () => chat(url)));
    expect(after.map((a) => a.status)).toEqual(Array(6).fill(200));
    s.child.kill('SIGTERM');
    expect(await s.exited).toBe(0);
    expect(s.stdout()).toMatch(/\(2 of 2 workers drained\)/);
  }, 90_000);

  it('refuses a limit below the worker count on the memory store, naming it, before any worker starts (exit 2)', async () => {
    const s = serve(['--workers', '4'], config(up.url, { tenants: { acme: { rpm: 3 } } }));
    expect(await s.exited).toBe(2);
    expect(s.stderr()).toBe('switchyard: tenants.acme.rpm is 3, less than the 4 workers: a worker\'s share would be 0. Use a Redis store (limits shared exactly by every worker) or at most 3 workers\n');
    expect(up.count()).toBe(0);
  }, 60_000);

  it('refuses a malformed --workers with one line (exit 2)', async () => {
    const s = serve(['--workers', 'many']);
    expect(await s.exited).toBe(2);
    expect(s.stderr()).toBe('switchyard: --workers expects a whole number from 1 to 1024, or auto, got "many"\n');
  }, 60_000);

  it('prints a refused --host once, from the first worker, and exits 2 without starting the others', async () => {
    const s = serve(['--workers', '3', '--host', '0.0.0.0']);
    expect(await s.exited).toBe(2);
    expect(s.stderr().match(/listening on 0\.0\.0\.0 requires gateway\.keys/g)).toHaveLength(1);
  }, 60_000);
});
