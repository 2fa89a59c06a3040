import { afterEach, describe, expect, it } from 'vitest';
import { fakeAnswer } from '../../providers/fake/answer.js';
import { main } from '../../src/cli/main.js';
import { startSimulator, type Simulator, type SimulatorOptions } from '../../src/sim/index.js';
import { captureIO, noStack, writeConfig } from './io.js';

let sims: Simulator[] = [];
afterEach(async () => {
  await Promise.all(sims.splice(0).map((s) => s.stop()));
});

/** A simulator and a config file whose chains point at it through the real SDKs. */
async function configOnSimulator(options: SimulatorOptions = {}, extra: Record<string, unknown> = {}) {
  const sim = await startSimulator(options);
  sims.push(sim);
  const file = writeConfig({
    providers: {
      openai: { type: 'openai', apiKey: 'sk-test-openai', baseURL: sim.baseURL('openai') },
      anthropic: { type: 'anthropic', apiKey: 'sk-test-anthropic', baseURL: sim.baseURL('anthropic') },
    },
    chains: { default: ['openai:gpt-4o-mini', 'anthropic:claude-haiku-4-5'], claude: ['anthropic:claude-haiku-4-5'] },
    retry: { baseDelayMs: 5, maxDelayMs: 10 },
    log: { level: 'silent' },
    ...extra,
  });
  return { sim, file };
}

const prompt = 'What is a fallback chain?';
// A key in the environment: the command then starts no offline simulator of its own.
const online = { OPENAI_API_KEY: 'sk-test-openai' };

describe('switchyard chat', () => {
  it('prints the answer on stdout and the target, latency and tokens on stderr', async () => {
    const { file, sim } = await configOnSimulator();
    const { io, out, err } = captureIO({ env: online });
    expect(await main(['chat', '--config', file, prompt], io)).toBe(0);
    expect(out()).toBe(`${fakeAnswer([{ role: 'user', content: prompt }], 'gpt-4o-mini')}\n`);
    expect(err()).toMatch(/^-- openai:gpt-4o-mini · \d+ ms · 1 attempt · \d+ in \/ \d+ out tokens\n$/);
    expect(sim.stats().providers.openai!.requests).toBe(1);
  });

  it('asks the chain named by --chain, with a system message and --max-tokens', async () => {
    const { file } = await configOnSimulator();
    const { io, out, err } = captureIO({ env: online });
    expect(await main(['chat', '--config', file, '--chain', 'claude', '--system', 'Be brief.', '--max-tokens', '3', 'What', 'is', 'it?'], io)).toBe(0);
    expect(out().trim().split(/\s+/).length).toBeLessThanOrEqual(4);
    expect(err()).toMatch(/^-- anthropic:claude-haiku-4-5 .* \/ 3 out tokens\n$/);
  });

  it('prints every attempt with --verbose: the failure, the retry after its wait, the fall-through', async () => {
    const { file } = await configOnSimulator({ providers: {
      openai: { type: 'openai', faults: [{ fault: 'unavailable', nth: [1, 2, 3] }] },
      anthropic: { type: 'anthropic' },
    } });
    const { io, err } = captureIO({ env: online });
    expect(await main(['chat', '--config', file, '--verbose', prompt], io)).toBe(0);
    const lines = err().trimEnd().split('\n');
    expect(lines).toHaveLength(5);
    expect(lines[0]).toMatch(/^ {2}#1 +openai:gpt-4o-mini +server +503 +\d+ ms +(waited \d+ ms +)?req_[0-9a-f]{32}$/);
    expect(lines[1]).toMatch(/^ {2}#2 +openai:gpt-4o-mini +server +503 +\d+ ms +waited \d+ ms +req_/);
    expect(lines[3]).toMatch(/^ {2}#4 +anthropic:claude-haiku-4-5 +ok +\d+ ms +(waited \d+ ms +)?req_011C/);
    expect(lines[4]).toMatch(/^-- anthropic:claude-haiku-4-5 · \d+ ms · 4 attempts · /);
  });

  it('fails with exit 1 and one line when every target fails, after printing the attempts with --verbose', async () => {
    const { file } = await configOnSimulator({ providers: {
      openai: { type: 'openai', faults: [{ fault: 'rate_limit', retryAfterMs: 30_000 }] },
      anthropic: { type: 'anthropic', faults: [{ fault: 'rate_limit', retryAfterMs: 9_000 }] },
    } });
    const { io, out, err } = captureIO({ env: online });
    expect(await main(['chat', '--config', file, '--verbose', prompt], io)).toBe(1);
    expect(out()).toBe('');
    const lines = err().trimEnd().split('\n');
    expect(lines.slice(0, 2).map((l) => l.trim().split(/\s+/).slice(0, 4).join(' '))).toEqual([
      '#1 openai:gpt-4o-mini rate_limited 429', '#2 anthropic:claude-haiku-4-5 rate_limited 429',
    ]);
    expect(lines[2]).toMatch(/^switchyard: exhausted: every target of chain "default" failed or was skipped: /);
    expect(lines).toHaveLength(3);
    expect(noStack(err())).toBe(true);
  });

  it.each([
    ['an unknown chain', (file: string) => ['--config', file, '--chain', 'nope', prompt], /^switchyard: unknown chain "nope" \(the config has: default, claude\)$/],
    ['a missing config file', () => ['--config', 'no/such/router.config.ts', prompt], /^switchyard: config file not found: .*no\/such\/router\.config\.ts$/],
    ['a bad flag', (file: string) => ['--config', file, '--temperature', '2', prompt], /^switchyard: Unknown option '--temperature'$/],
    ['a malformed --max-tokens', (file: string) => ['--config', file, '--max-tokens', '1.5', prompt], /^switchyard: --max-tokens expects a whole number of at least 1, got "1\.5"$/],
    ['no prompt', (file: string) => ['--config', file], /^switchyard: missing the prompt: switchyard chat "your question"/],
  ])('refuses %s on one line with exit 2 and sends nothing', async (_what, args, message) => {
    const { file, sim } = await configOnSimulator();
    const { io, err, out } = captureIO({ env: online });
    expect(await main(['chat', ...args(file)], io)).toBe(2);
    expect(err().trimEnd()).toMatch(message);
    expect(err().trimEnd().split('\n')).toHaveLength(1);
    expect(out()).toBe('');
    expect(sim.stats().requests).toBe(0);
  });

  it('refuses an invalid config on one line naming every failing path', async () => {
    const file = writeConfig({ providers: { openai: { type: 'openai', apiKeyEnv: 'NO_SUCH_KEY_VAR' } }, chains: { default: ['openai:gpt-4o-mini', 'ghost:model'] } });
    const { io, err } = captureIO({ env: online });
    expect(await main(['chat', '--config', file, prompt], io)).toBe(2);
    expect(err()).toMatch(/^switchyard: invalid Switchyard config: - providers\.openai\.apiKeyEnv: environment variable NO_SUCH_KEY_VAR is not set - chains\.default\[1\]: unknown provider "ghost"/);
    expect(err().trimEnd().split('\n')).toHaveLength(1);
  });
});

describe('switchyard chat on in-process fakes', () => {
  it('says once that the chain is offline when every target is a fake provider', async () => {
    const file = writeConfig({ providers: { local: { type: 'fake' } }, chains: { default: ['local:tiny'] }, log: { level: 'silent' } });
    const { io, out, err } = captureIO({ env: online });
    expect(await main(['chat', '--config', file, prompt], io)).toBe(0);
    expect(out()).toBe(`${fakeAnswer([{ role: 'user', content: prompt }], 'tiny')}\n`);
    expect(err()).toMatch(/^switchyard: offline: every target of this chain is an in-process fake provider\n-- local:tiny /);
  });
});
