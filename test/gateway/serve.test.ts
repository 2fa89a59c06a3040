import OpenAI from 'openai';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { OPENAI_PATH, openaiCompletion } from '../support/fixtures.js';
import { gate, until } from '../support/until.js';
import { startUpstream, type Upstream } from '../support/upstream.js';
import { configFile, startServe } from './serve-child.js';

let up: Upstream;
let cleanups: Array<() => void> = [];
beforeEach(async () => {
  up = await startUpstream();
});
afterEach(async () => {
  for (const c of cleanups) c();
  cleanups = [];
  await up.close();
});

const config = (upstream: string, gateway: object = {}) => ({
  providers: { openai: { type: 'openai', apiKey: 'sk-proj-serve-test-0123456789', baseURL: `${upstream}/v1` } },
  chains: { default: ['openai:gpt-4o-mini'] },
  gateway,
  log: { level: 'info' },
});

describe('switchyard serve as a process', () => {
  it('prints its URL, and on SIGTERM lets the call in flight finish, then exits 0', async () => {
    const file = configFile(config(up.url, { drainMs: 60_000 }));
    cleanups.push(file.cleanup);
    const held = gate();
    up.script(OPENAI_PATH, { status: 200, body: openaiCompletion('answered after SIGTERM'), heldUntil: held.promise });
    const serve = startServe(['--config', file.path, '--port', '0', '--log-requests']);
    const url = await serve.url;
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(serve.stdout()).toContain(`OpenAI base URL: ${url}/v1`);

    const client = new OpenAI({ apiKey: 'sk-anything-0000', baseURL: `${url}/v1`, maxRetries: 0 });
    const call = client.chat.completions.create({ model: 'default', messages: [{ role: 'user', content: 'hi' }] });
    await until(() => up.count(OPENAI_PATH) === 1, 'the call to reach the upstream');
    serve.child.kill('SIGTERM');
    await serve.printed(/draining \(SIGTERM\)/);
    held.open();
    expect((await call).choices[0]!.message.content).toBe('answered after SIGTERM');
    expect(await serve.exited).toBe(0);
    expect(serve.stdout()).toMatch(/stopped: 1 in flight at SIGTERM, 0 cut off/);
    expect(serve.stderr()).toMatch(/"msg":"gateway request"/);
    expect(serve.stderr()).not.toMatch(/sk-proj-serve-test/);
  }, 60_000);

  it('refuses to listen beyond loopback without gateway.keys (exit 2, one line)', async () => {
    const file = configFile(config(up.url));
    cleanups.push(file.cleanup);
    const serve = startServe(['--config', file.path, '--port', '0', '--host', '0.0.0.0']);
    expect(await serve.exited).toBe(2);
    expect(serve.stderr()).toMatch(/^switchyard: listening on 0\.0\.0\.0 requires gateway\.keys/m);
    expect(up.count()).toBe(0);
  }, 60_000);
});
