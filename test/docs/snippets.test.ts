import { execFile } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { parseScenario, startSimulator } from '../../src/sim/index.js';
import { startRedisServer, type RedisServer } from '../support/redis-server.js';
import type { SwitchyardConfig } from '../../src/index.js';
import { checkConfigPart } from './preludes/config.js';
import { startServe } from '../gateway/serve-child.js';
import { setup as gatewayOnSimulator } from './preludes/gateway-client.js';
import { documentationFiles, moduleText, ROOT, SCRATCH, shellText, snippetsOf, type Snippet } from './snippets.js';

// Every TypeScript block of README.md, docs/ and providers/ is type-checked (one tsc run over all of them,
// under the repository's compiler options) and run, on the simulator, with no provider key in the
// environment: what a reader copies works as written. test/docs/snippets.ts says how a block is framed.

const all: Snippet[] = documentationFiles().flatMap(snippetsOf);
const snippets = all.filter((s) => s.lang === 'ts');
const shells = all.filter((s) => s.lang === 'sh');
const KEYS = ['OPENAI_API_KEY', 'ANTHROPIC_API_KEY', 'GEMINI_API_KEY', 'AZURE_OPENAI_KEY', 'SWITCHYARD_SIMULATOR_URL', 'REDIS_URL', 'PORT'];
const saved = new Map(KEYS.map((k) => [k, process.env[k]]));
let redis: RedisServer | undefined;

beforeAll(async () => {
  rmSync(SCRATCH, { recursive: true, force: true });
  mkdirSync(SCRATCH, { recursive: true });
  // Under node_modules Node reads no package.json above: say these modules are ES modules (top-level await).
  writeFileSync(join(SCRATCH, 'package.json'), '{"type":"module"}\n');
  for (const s of snippets) writeFileSync(s.module, moduleText(s));
  for (const k of KEYS) delete process.env[k];
  // A block that listens on PORT (default 8787 in the docs) takes a free port here.
  process.env.PORT = '0';
  // The Redis examples read REDIS_URL, as an app would: a throwaway redis-server stands in.
  if (snippets.some((s) => s.code.includes('REDIS_URL'))) {
    redis = await startRedisServer();
    process.env.REDIS_URL = redis.url;
  }
}, 60_000);

afterAll(async () => {
  for (const [k, v] of saved) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
  await redis?.stop();
  rmSync(SCRATCH, { recursive: true, force: true });
});

/**
 * Runs one generated module as a user's program would run (tsx), to its end. A module whose default
 * export is a config (a `router.config.ts`) has it validated by createRouter too, as the CLI would.
 */
async function run(snippet: Snippet): Promise<void> {
  const { tsImport } = (await import('tsx/esm/api')) as { tsImport(specifier: string, parent: string): Promise<{ default?: unknown }> };
  const mod = await tsImport(pathToFileURL(snippet.module).href, import.meta.url);
  const exported = mod.default as { default?: unknown } | undefined;
  // tsx hands an ES module's default export over as `default`, or as `default.default`.
  const config = (exported && typeof exported === 'object' && 'default' in exported ? exported.default : exported) as Partial<SwitchyardConfig> | undefined;
  if (config && typeof config === 'object' && 'providers' in config && 'chains' in config) await checkConfigPart(config);
}

describe('the TypeScript blocks of the README and docs/', () => {
  it('finds them in the README and in every guide', () => {
    expect(snippets.length).toBeGreaterThan(30);
    expect(snippets.filter((s) => s.file === 'README.md').length).toBeGreaterThanOrEqual(3);
  });

  it('type-check under the repository\'s compiler options', { timeout: 300_000 }, async () => {
    writeFileSync(join(SCRATCH, 'tsconfig.json'), JSON.stringify({
      extends: relative(SCRATCH, join(ROOT, 'tsconfig.json')),
      compilerOptions: { noEmit: true, rootDir: relative(SCRATCH, ROOT) },
      include: ['*.ts'],
    }));
    const failed = await promisify(execFile)(process.execPath, [join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', join(SCRATCH, 'tsconfig.json')], { cwd: ROOT, maxBuffer: 16 * 1024 * 1024 })
      .then(() => '', (err: { stdout?: string }) => err.stdout ?? String(err));
    // Name each error by the doc block it came from.
    const named = failed.split('\n').filter(Boolean).map((line) => {
      const s = snippets.find((x) => line.includes(relative(ROOT, x.module)));
      // The position is in the module the block became (moduleText in snippets.ts says how it is framed).
      return s ? `${s.where}: ${line.replace(/^[^(]*\((\d+),(\d+)\)/, `${relative(ROOT, s.module)}:$1:$2`)}` : line;
    });
    expect(named).toEqual([]);
  });

  it.each(snippets.map((s) => [s.where, s] as const))('%s runs', { timeout: 60_000 }, async (_where, snippet) => {
    const log = vi.spyOn(console, 'log').mockImplementation(() => {});
    const write = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
    try {
      await run(snippet);
    } finally {
      log.mockRestore();
      write.mockRestore();
    }
  });
});

describe('the shell blocks the docs mark to run', () => {
  it('are found: the README\'s gateway lines and the gateway guide\'s curl', () => {
    expect(shells.map((s) => `${s.file} ${s.mode}`)).toEqual(expect.arrayContaining(['README.md serve', 'docs/gateway.md gateway-client']));
  });

  it.each(shells.map((s) => [s.where, s] as const))('%s runs with bash, exit 0, and answers a chat completion', { timeout: 120_000 }, async (_where, snippet) => {
    const key = 'sk-switchyard-docs-snippet';
    let url: string;
    let stop: () => Promise<unknown>;
    if (snippet.mode === 'serve') {
      // As in an app with no keys: the CLI's serve on the simulator, from this repository's router.config.ts.
      const serve = startServe(['--port', '0']);
      url = await serve.url;
      stop = async () => {
        serve.child.kill('SIGTERM');
        expect(await serve.exited).toBe(0);
      };
    } else {
      const gateway = await gatewayOnSimulator();
      url = gateway.url;
      stop = () => gateway.close();
    }
    try {
      const { stdout } = await promisify(execFile)('bash', ['-euo', 'pipefail', '-c', shellText(snippet, url)], { cwd: ROOT, env: { ...process.env, SWITCHYARD_KEY: key } });
      expect(stdout).toContain('"object":"chat.completion"');
      expect(stdout).not.toContain('"error"');
    } finally {
      await stop();
    }
  });
});

describe('the simulator scenarios the docs show', () => {
  /** JSON blocks with `providers` and no eval-case `expect`: scenario files. */
  const scenarios = documentationFiles().flatMap((file) =>
    [...readFileSync(join(ROOT, file), 'utf8').matchAll(/^```json\n([\s\S]*?)^```/gm)]
      .map((m) => ({ file, body: m[1]! }))
      .filter((b) => b.body.includes('"providers"') && !b.body.includes('"expect"')));

  it('are found (docs/cli.md has one)', () => {
    expect(scenarios.map((s) => s.file)).toContain('docs/cli.md');
  });

  it.each(scenarios.map((s, i) => [`${s.file} scenario ${i + 1}`, s] as const))('%s is a valid scenario the simulator starts with', async (_name, { file, body }) => {
    const scenario = parseScenario(JSON.parse(body), file);
    const sim = await startSimulator(scenario);
    await sim.stop();
  });
});

describe('the README\'s first screen', () => {
  const first = snippets.find((s) => s.file === 'README.md')!;

  it('is a front page: at most 400 lines', () => {
    expect(readFileSync(join(ROOT, 'README.md'), 'utf8').split('\n').length).toBeLessThanOrEqual(400);
  });

  it('is a complete program near the top, and runs with no key, answering from the simulator', { timeout: 60_000 }, async () => {
    expect(first.mode).toBe('module');
    expect(first.line).toBeLessThanOrEqual(40);
    expect(first.code.split('\n').length).toBeLessThanOrEqual(25);
    for (const k of KEYS) expect(process.env[k] === undefined || k === 'REDIS_URL' || k === 'PORT').toBe(true);
    const printed: unknown[][] = [];
    const log = vi.spyOn(console, 'log').mockImplementation((...args: unknown[]) => void printed.push(args));
    try {
      await run(first);
    } finally {
      log.mockRestore();
    }
    // console.log(res.text, res.provider, res.usage): an answer, from the chain's first target, with its usage.
    expect(printed).toHaveLength(1);
    const [text, provider, usage] = printed[0]!;
    expect(typeof text === 'string' && text.length > 0).toBe(true);
    expect(provider).toBe('openai');
    expect(usage).toMatchObject({ inputTokens: expect.any(Number), outputTokens: expect.any(Number) });
  });
});
