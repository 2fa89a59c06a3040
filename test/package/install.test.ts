import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { snippetsOf } from '../docs/snippets.js';
import { APP_FILES, must, seedApp, snapshotRepo, SUBPATHS, type Ran } from './install-fixture.js';

// The package installed the three ways a user installs an unreleased package, each into a fresh app,
// and used there as a user would. The folder and the tarball share one build; the git install makes
// its own (npm runs `prepare` in its clone: that is what it tests), meanwhile. All offline, from the
// npm cache `npm ci` filled. It takes minutes on a busy machine, hence this file's own timeouts.

const ROOT = resolve(import.meta.dirname, '../..');
const TSC = join(ROOT, 'node_modules/typescript/bin/tsc');
const SETUP_MS = 15 * 60_000;
const TEST_MS = 10 * 60_000;
const KINDS = ['folder', 'tarball', 'git'] as const;
type Kind = (typeof KINDS)[number];

const canRequireEsm = (process.features as { require_module?: boolean }).require_module === true;

let work: string | undefined;
let apps: Record<Kind, Promise<App>> | undefined;
let packed: Promise<string[]> | undefined;

/** An installed app, and what each command the tests look at printed there. */
interface App {
  dir: string;
  ran: Record<'chat' | 'readme' | 'require' | 'tsc' | 'help' | 'version' | 'cli', Promise<Ran>>;
}

/**
 * A fresh app with `spec` installed in it and the files a user would write first, where every command
 * the tests check starts at once (on a busy machine most of this test's time is waiting).
 */
async function installInApp(kind: Kind, spec: string): Promise<App> {
  const dir = join(work!, `app-${kind}`);
  mkdirSync(dir);
  seedApp(dir, ROOT);
  await must('npm', ['install', spec], dir);
  for (const [name, text] of Object.entries(APP_FILES)) writeFileSync(join(dir, name), text);
  // The README's quick start, copied as it is: TypeScript without annotations, so plain Node runs it.
  writeFileSync(join(dir, 'readme.mjs'), snippetsOf('README.md')[0]!.code);
  const ran = {
    chat: must(process.execPath, ['chat.mjs'], dir),
    readme: must(process.execPath, ['readme.mjs'], dir),
    require: canRequireEsm ? must(process.execPath, ['require.cjs'], dir) : Promise.reject(new Error('this Node cannot require() ES modules')),
    tsc: must(process.execPath, [TSC, '-p', 'tsconfig.json'], dir),
    help: must('npx', ['switchyard', '--help'], dir),
    version: must('npx', ['switchyard', '--version'], dir),
    cli: must('npx', ['switchyard', 'chat', 'hi'], dir),
  };
  // A failed command fails the test that awaits it; it must not count as an unhandled rejection before.
  for (const step of Object.values(ran)) step.catch(() => {});
  return { dir, ran };
}

beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'switchyard-package-'));
  const repo = join(work, 'switchyard');
  mkdirSync(repo);
  snapshotRepo(ROOT, repo);
  const git = installInApp('git', `git+${pathToFileURL(repo).href}`);

  // The folder a user installs is a clone in which `npm install` ran: its dependencies there, dist/ built.
  // It is packed before it is installed, since npm runs `prepare` in a folder it links, rebuilding dist/.
  symlinkSync(join(ROOT, 'node_modules'), join(repo, 'node_modules'), 'dir');
  const pack = must('npm', ['run', 'build'], repo).then(() => must('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', work!], repo));
  const folder = pack.then(() => installInApp('folder', repo));
  const tarball = pack.then(({ stdout }) => installInApp('tarball', join(work!, JSON.parse(stdout)[0].filename)));
  packed = pack.then(({ stdout }) => (JSON.parse(stdout)[0].files as { path: string }[]).map((f) => f.path));

  apps = { folder, tarball, git };
  for (const step of [folder, tarball, git, packed]) step.catch(() => {});
}, SETUP_MS);

afterAll(async () => {
  const installed = await Promise.allSettled(Object.values(apps ?? {}));
  const commands = installed.flatMap((app) => (app.status === 'fulfilled' ? Object.values(app.value.ran) : []));
  await Promise.allSettled([...commands, packed]);
  if (work) rmSync(work, { recursive: true, force: true, maxRetries: 3 });
}, SETUP_MS);

describe.each(KINDS)('switchyard-llm installed from a %s', (kind) => {
  const app = () => apps![kind];
  const ran = async (command: keyof App['ran']) => (await app()).ran[command];
  const installed = (dir: string, ...path: string[]) => join(dir, 'node_modules', 'switchyard-llm', ...path);

  it('answers a chat from an ES module importing createRouter, through the simulator, with no keys', async () => {
    const { stdout } = await ran('chat');
    const out = JSON.parse(stdout);
    expect(out).toMatchObject({ provider: 'openai', model: 'gpt-4o-mini', exports: Object.values(SUBPATHS).map(() => 'function') });
    expect(out.text.length).toBeGreaterThan(0);
    // The real openai SDK went over the wire: the id is the simulator's x-request-id.
    expect(out.requestId).toMatch(/^req_[0-9a-f]{32}$/);
  }, TEST_MS);

  it('runs the README\'s quick start as written, with no keys', async () => {
    const { stdout } = await ran('readme');
    // console.log(res.text, res.provider, res.usage): the simulator's answer, from the chain's first target.
    expect(stdout).toMatch(/ openai \{ inputTokens: \d+, outputTokens: \d+ \}\n$/);
  }, TEST_MS);

  it.runIf(canRequireEsm)('is require()d from CommonJS, every subpath', async () => {
    const { stdout } = await ran('require');
    expect(JSON.parse(stdout)).toEqual(Object.fromEntries(Object.keys(SUBPATHS).map((spec) => [spec, 'function'])));
  }, TEST_MS);

  it('type-checks an ES module and a CommonJS file importing it under module and moduleResolution NodeNext', async () => {
    await ran('tsc');
  }, TEST_MS);

  it('gives every export types, import and default conditions, each a file it holds', async () => {
    const { dir } = await app();
    const { exports } = JSON.parse(readFileSync(installed(dir, 'package.json'), 'utf8')) as { exports: Record<string, string | Record<string, string>> };
    for (const spec of Object.keys(SUBPATHS)) expect(exports).toHaveProperty([spec.replace('switchyard-llm', '.')]);
    for (const [subpath, target] of Object.entries(exports)) {
      if (typeof target === 'string') {
        expect(existsSync(installed(dir, target)), `${subpath} -> ${target}`).toBe(true);
        continue;
      }
      // Order matters: TypeScript takes the first condition that matches, Node too; default comes last.
      const conditions = Object.keys(target);
      expect([conditions[0], conditions.includes('import'), conditions.at(-1)], `${subpath}: ${conditions.join(', ')}`).toEqual(['types', true, 'default']);
      for (const file of Object.values(target)) expect(existsSync(installed(dir, file)), `${subpath} -> ${file}`).toBe(true);
    }
  }, TEST_MS);

  it('runs npx switchyard --help, an executable file with a node shebang', async () => {
    const { dir } = await app();
    const { stdout } = await ran('help');
    expect(stdout).toMatch(/^Usage: switchyard <command>/);
    const bin = installed(dir, 'dist/src/cli/main.js');
    expect(readFileSync(bin, 'utf8').split('\n')[0]).toBe('#!/usr/bin/env node');
    expect(statSync(bin).mode & 0o111).not.toBe(0);
  }, TEST_MS);

  it('prints the package version with npx switchyard --version', async () => {
    const { stdout } = await ran('version');
    expect(stdout).toBe(`${(JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version}\n`);
  }, TEST_MS);

  it('answers npx switchyard chat "hi" with no router.config.ts and no keys, from the built-in default config', async () => {
    const { stdout, stderr } = await ran('cli');
    expect(stdout.trim().length).toBeGreaterThan(0);
    expect(stderr).toContain('the built-in default config is used');
    expect(stderr).toContain('the built-in simulator answers');
    expect(stderr).toMatch(/^-- openai:gpt-4o-mini · /m);
  }, TEST_MS);
});

describe('the npm pack tarball', () => {
  it('holds the built package, its README and LICENSE, and no sources or tests', async () => {
    const files = await packed!;
    expect(files).toEqual(expect.arrayContaining(['package.json', 'README.md', 'LICENSE', 'dist/src/index.js', 'dist/src/index.d.ts', 'dist/src/cli/main.js']));
    expect(files.filter((f) => !f.startsWith('dist/src/') && !f.startsWith('dist/providers/') && !['package.json', 'README.md', 'LICENSE'].includes(f))).toEqual([]);
    // Test code (tests, the adapter contract suite and its harnesses) stays out.
    expect(files.filter((f) => /\.test\.|\/(test|test-support|contract)\//.test(f))).toEqual([]);
  }, TEST_MS);
});
