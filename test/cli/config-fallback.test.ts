import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { defaultConfig, SIMULATOR_URL_ENV } from '../../src/config/default-config.js';
import { captureIO } from './io.js';

// A fresh app: no router.config.ts where the command runs.
const app = mkdtempSync(join(tmpdir(), 'switchyard-fallback-'));
afterAll(() => rmSync(app, { recursive: true, force: true }));
writeFileSync(join(app, 'cases.jsonl'), '{"id": "hello", "prompt": "Hello", "expect": {"contains": "hello"}}\n');

describe('the CLI where there is no router.config.ts', () => {
  it('chat answers through the built-in default config on the built-in simulator, and says so once', async () => {
    const { io, out, err } = captureIO({ env: {}, cwd: app });
    expect(await main(['chat', '--verbose', 'hi'], io)).toBe(0);
    expect(out().trim().length).toBeGreaterThan(0);
    expect(err().match(/built-in default config/g)).toHaveLength(1);
    expect(err()).toMatch(/^switchyard: no router\.config\.ts in .*, so the built-in default config is used \(--config FILE names another\)\n/);
    expect(err()).toMatch(/#1 +openai:gpt-4o-mini +ok .*req_[0-9a-f]{32}/);
    expect(process.env[SIMULATOR_URL_ENV]).toBeUndefined();
  });

  it('eval runs the cases on the built-in default config (its in-process fakes, with no keys)', async () => {
    const { io, out, err } = captureIO({ env: {}, cwd: app });
    expect(await main(['eval', '--cases', 'cases.jsonl'], io)).toBe(0);
    expect(err()).toMatch(/^switchyard: no router\.config\.ts in .*, so the built-in default config is used/);
    expect(out()).toMatch(/offline:gpt-4o-mini/);
  });

  it('still refuses a --config file that is not there, on one line with exit 2', async () => {
    const { io, err } = captureIO({ env: {}, cwd: app });
    expect(await main(['chat', '--config', 'router.config.ts', 'hi'], io)).toBe(2);
    expect(err()).toMatch(/^switchyard: config file not found: .*router\.config\.ts\n$/);
  });
});

describe('defaultConfig', () => {
  it.each([
    ['no key and no simulator: in-process fakes', {}, ['offline:gpt-4o-mini', 'offline:claude-haiku-4-5']],
    ['a simulator URL: both providers through it', { [SIMULATOR_URL_ENV]: 'http://127.0.0.1:9/' }, ['openai:gpt-4o-mini', 'anthropic:claude-haiku-4-5']],
    ['an OpenAI key only: OpenAI only', { OPENAI_API_KEY: 'sk-x' }, ['openai:gpt-4o-mini']],
    ['an Anthropic key only: Anthropic only, even with a simulator URL', { ANTHROPIC_API_KEY: 'sk-ant-x', [SIMULATOR_URL_ENV]: 'http://127.0.0.1:9' }, ['anthropic:claude-haiku-4-5']],
  ])('reads the environment it is given: %s', (_what, env, chain) => {
    expect(defaultConfig(env).chains.default).toEqual(chain);
  });

  it('points both providers at the simulator, without a trailing slash', () => {
    expect(defaultConfig({ [SIMULATOR_URL_ENV]: 'http://127.0.0.1:9/' }).providers).toMatchObject({
      openai: { type: 'openai', baseURL: 'http://127.0.0.1:9/v1' },
      anthropic: { type: 'anthropic', baseURL: 'http://127.0.0.1:9' },
    });
  });
});
