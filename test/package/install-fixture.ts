import { execFileSync, spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** What a command printed and how it ended. */
export interface Ran {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/**
 * The environment of every command the install test runs: npm strictly offline (from the cache that
 * `npm ci` filled), no provider keys, and none of the `npm_*` variables of an enclosing `npm test`
 * (`npm_config_local_prefix` would point npm at this repository instead of the app).
 */
export function childEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (/^npm_/i.test(name) && !/^npm_config_(cache|userconfig|globalconfig|registry)$/i.test(name)) continue;
    if (/^(VITEST|NODE_OPTIONS$)/.test(name)) continue;
    env[name] = value;
  }
  for (const name of ['OPENAI_API_KEY', 'OPENAI_BASE_URL', 'ANTHROPIC_API_KEY', 'ANTHROPIC_AUTH_TOKEN', 'ANTHROPIC_BASE_URL', 'SWITCHYARD_SIMULATOR_URL']) {
    delete env[name];
  }
  return {
    ...env,
    npm_config_offline: 'true',
    npm_config_audit: 'false',
    npm_config_fund: 'false',
    npm_config_update_notifier: 'false',
    npm_config_progress: 'false',
  };
}

/** Runs a command to its end; it is killed after `timeoutMs`, so a hung install cannot outlive the test. */
export function run(command: string, args: string[], cwd: string, timeoutMs = 300_000): Promise<Ran> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, env: childEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr });
    });
  });
}

/** Runs a command that must succeed; otherwise throws with the end of what it printed. */
export async function must(command: string, args: string[], cwd: string): Promise<Ran> {
  const ran = await run(command, args, cwd);
  if (ran.code !== 0) {
    const output = `${ran.stdout}\n${ran.stderr}`.trim().slice(-6_000);
    // `npm install <pkg>` caches full metadata, `npm ci` the abbreviated kind this offline install reads.
    const hint = output.includes('ENOTCACHED') ? '\n(the npm cache lacks what an offline install needs: run `npm ci`, as CI does, and retry)' : '';
    throw new Error(`\`${command} ${args.join(' ')}\` in ${cwd} ended with ${ran.code ?? ran.signal}:\n${output}${hint}`);
  }
  return ran;
}

/**
 * Copies the working tree (tracked files and untracked ones git does not ignore; never node_modules
 * or dist) into `into` and commits it there, so a git install gets what is being tested, uncommitted
 * edits included. In a fresh clone that is exactly HEAD.
 */
export function snapshotRepo(root: string, into: string): void {
  const listed = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: root, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  for (const file of new Set(listed.split('\0'))) {
    if (!file || /^(node_modules|dist)(\/|$)/.test(file) || !existsSync(join(root, file))) continue;
    mkdirSync(dirname(join(into, file)), { recursive: true });
    cpSync(join(root, file), join(into, file));
  }
  const git = (...args: string[]) => execFileSync('git', ['-c', 'user.name=switchyard test', '-c', 'user.email=test@switchyard.invalid', '-c', 'commit.gpgsign=false', '-c', 'core.hooksPath=/dev/null', ...args], { cwd: into, stdio: 'ignore' });
  git('init', '-q');
  git('add', '-A');
  git('commit', '-q', '--no-verify', '-m', 'snapshot of the working tree');
}

interface LockEntry {
  version?: string;
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
  [field: string]: unknown;
}

/**
 * A fresh app's package.json and package-lock.json. The lockfile already pins what the package
 * depends on (its dependencies' closure, plus @types/node, as the repository's lockfile resolved
 * them) but not the package itself. Without it, `npm install <package>` asks the registry for full
 * metadata, which `npm ci` never caches, so an offline install could not resolve anything; with it,
 * npm reads every dependency from the cache and installs the package itself just as it would for a user.
 */
export function seedApp(appDir: string, root: string): void {
  const repoLock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8')) as { packages: Record<string, LockEntry> };
  const packages = repoLock.packages;
  const typesNode = packages['node_modules/@types/node']?.version;
  if (!typesNode) throw new Error('package-lock.json has no @types/node: run npm ci first');

  // Node's resolution: the nearest node_modules/<name> from the dependent's folder upwards.
  const resolveFrom = (from: string, name: string): string | undefined => {
    for (let dir = from; ; dir = dir.replace(/\/?node_modules\/(@[^/]+\/)?[^/]+$/, '')) {
      const location = dir ? `${dir}/node_modules/${name}` : `node_modules/${name}`;
      if (packages[location]) return location;
      if (!dir) return undefined;
    }
  };
  const seeded: Record<string, LockEntry> = {};
  const visit = (from: string, name: string) => {
    const location = resolveFrom(from, name);
    if (!location || seeded[location]) return; // absent: an optional dependency for another platform
    const { dev, optional, devOptional, peer, ...entry } = packages[location]!;
    seeded[location] = entry;
    const peers = Object.keys(entry.peerDependencies ?? {}).filter((p) => !entry.peerDependenciesMeta?.[p]?.optional);
    for (const dep of [...Object.keys(entry.dependencies ?? {}), ...Object.keys(entry.optionalDependencies ?? {}), ...peers]) visit(location, dep);
  };
  for (const dep of [...Object.keys(packages['']?.dependencies ?? {}), '@types/node']) visit('', dep);

  const app = { name: 'switchyard-app', version: '1.0.0', private: true, devDependencies: { '@types/node': typesNode } };
  writeFileSync(join(appDir, 'package.json'), `${JSON.stringify(app, null, 2)}\n`);
  const lock = { name: app.name, version: app.version, lockfileVersion: 3, requires: true, packages: { '': { name: app.name, version: app.version, devDependencies: app.devDependencies }, ...seeded } };
  writeFileSync(join(appDir, 'package-lock.json'), `${JSON.stringify(lock, null, 2)}\n`);
}

/** The subpaths every install imports, requires and type-checks; each names one export to look for. */
export const SUBPATHS = { 'switchyard-llm': 'createRouter', 'switchyard-llm/eval': 'defineCases', 'switchyard-llm/sim': 'startSimulator', 'switchyard-llm/testing': 'VirtualClock' } as const;

/** The files of the test app: what a user would write first. */
export const APP_FILES: Record<string, string> = {
  // An ES module app: createRouter answering through the simulator with the real openai SDK, no keys.
  'chat.mjs': `import { createRouter } from 'switchyard-llm';
import { startSimulator } from 'switchyard-llm/sim';
${Object.entries(SUBPATHS).map(([spec, name], i) => `import { ${name} as export${i} } from '${spec}';`).join('\n')}

const sim = await startSimulator({ seed: 1 });
try {
  const router = createRouter({
    providers: { openai: { type: 'openai', apiKey: 'sk-anything', baseURL: sim.baseURL('openai') } },
    chains: { default: ['openai:gpt-4o-mini'] },
    log: { level: 'silent' },
  });
  const res = await router.chat({ messages: [{ role: 'user', content: 'hi' }], maxTokens: 50 });
  await router.close();
  const exports = [${Object.keys(SUBPATHS).map((_, i) => `typeof export${i}`).join(', ')}];
  console.log(JSON.stringify({ text: res.text, provider: res.provider, model: res.model, requestId: res.attempts.at(-1)?.requestId, exports }));
} finally {
  await sim.stop();
}
`,
  // CommonJS: require() of the ES module package (Node 20.19+).
  'require.cjs': `const found = {};
${Object.entries(SUBPATHS).map(([spec, name]) => `found[${JSON.stringify(spec)}] = typeof require(${JSON.stringify(spec)}).${name};`).join('\n')}
console.log(JSON.stringify(found));
`,
  // TypeScript: the types are real (not any), from every subpath, in an ES module and a CommonJS file.
  'check.mts': `import { createRouter, defineConfig, isRouterError, type ChatResult } from 'switchyard-llm';
import { defineCases } from 'switchyard-llm/eval';
import { startSimulator } from 'switchyard-llm/sim';
import { VirtualClock } from 'switchyard-llm/testing';

const sim = await startSimulator({ seed: 1 });
const router = createRouter(defineConfig({
  providers: { openai: { type: 'openai', apiKey: 'sk-anything', baseURL: sim.baseURL('openai') } },
  chains: { default: ['openai:gpt-4o-mini'] },
}));
const res: ChatResult = await router.chat({ messages: [{ role: 'user', content: 'hi' }] });
const text: string = res.text;
// @ts-expect-error the answer is a string, so the types are not any
const notANumber: number = res.text;
export { text, notANumber, isRouterError, defineCases, VirtualClock };
`,
  'check.cts': `import { createRouter, type Router } from 'switchyard-llm';
const make: (config: Parameters<typeof createRouter>[0]) => Router = createRouter;
void make;
`,
  'tsconfig.json': `${JSON.stringify({
    compilerOptions: { module: 'NodeNext', moduleResolution: 'NodeNext', target: 'ES2022', strict: true, noEmit: true, skipLibCheck: false, types: ['node'] },
    files: ['check.mts', 'check.cts'],
  }, null, 2)}\n`,
};
