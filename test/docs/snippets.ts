import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';

// The TypeScript code blocks of README.md, docs/ and providers/*.md, as modules a test can type-check and run.
//
// A block is one of (the HTML comment on the line before its fence says which; none: a module):
// - a module: complete as written. Its `switchyard-llm` imports are pointed at the sources.
// - `<!-- snippet: router -->`: code that uses a router. It runs after test/docs/preludes/router.ts
//   has made one on the simulator (and `messages`, the names the docs lean on); the router and the
//   simulator are closed after it, even when it throws.
// - `<!-- snippet: config -->`: the inside of a `defineConfig({ ... })`: type-checked as a part of a
//   config and validated by createRouter (over a base config on the simulator), then closed.
// - `<!-- snippet: gateway-client -->`: a client of a running gateway: it runs with one started on the
//   simulator, its address in place of the docs' `127.0.0.1:8787` and its key in SWITCHYARD_KEY.
// Shell blocks run only when a comment says how (others are installs and long-running commands):
// - `<!-- snippet: gateway-client -->`: run with bash against the gateway above (curl, say).
// - `<!-- snippet: serve -->`: its `npx switchyard serve` line starts the CLI's serve (on a free port,
//   from the sources); the rest runs with bash against it, its address in place of `127.0.0.1:8787`.
// A framed block may add `; after: CODE` to its comment: code run after it, inside the frame, to stop
// what the block started (a server it listens with), so that nothing outlives the test.

export const ROOT = resolve(import.meta.dirname, '../..');
export const SCRATCH = join(ROOT, 'node_modules', '.cache', 'switchyard-doc-snippets');
export const MODES = ['module', 'router', 'config', 'gateway-client', 'serve'] as const;
export type Mode = (typeof MODES)[number];

export interface Snippet {
  /** `ts` (TypeScript, `ts` or `typescript` fences) or `sh` (`sh`, `bash`). */
  lang: 'ts' | 'sh';
  /** `docs/streaming.md block 2 (line 14)`. */
  where: string;
  file: string;
  /** 1-based line of the opening fence. */
  line: number;
  mode: Mode;
  code: string;
  /** `<!-- snippet: router; after: CODE -->`: code run after the block, inside its frame (to stop what it started). */
  after?: string;
  /** The scratch module this block becomes. */
  module: string;
}

/** The markdown files whose blocks are checked: the README, every page under docs/, and the providers' pages. */
export function documentationFiles(): string[] {
  const under = (dir: string) => readdirSync(join(ROOT, dir), { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.md') && !f.split('/').includes('node_modules')).sort().map((f) => join(dir, f));
  return ['README.md', ...under('docs'), ...under('providers')];
}

const FENCE = /^```(\w*)\s*$/;
const DIRECTIVE = /^<!--\s*snippet:\s*([\w-]+)\s*(?:;\s*after:\s*(.*?))?\s*-->$/;

/** Every ts/typescript block of one markdown file, with its mode. */
export function snippetsOf(file: string): Snippet[] {
  const lines = readFileSync(join(ROOT, file), 'utf8').split('\n');
  const out: Snippet[] = [];
  let i = 0;
  let block = 0;
  while (i < lines.length) {
    const open = FENCE.exec(lines[i]!);
    if (!open) {
      i++;
      continue;
    }
    const end = lines.findIndex((l, j) => j > i && l.startsWith('```'));
    if (end < 0) throw new Error(`${file}:${i + 1}: a code fence that never closes`);
    block++;
    const lang = ['ts', 'typescript'].includes(open[1]!) ? 'ts' : ['sh', 'bash'].includes(open[1]!) ? 'sh' : undefined;
    let before = i - 1;
    while (before >= 0 && lines[before]!.trim() === '') before--;
    const directive = before >= 0 ? DIRECTIVE.exec(lines[before]!.trim()) : null;
    if (lang === 'ts' || (lang === 'sh' && directive)) {
      const mode = (directive?.[1] ?? 'module') as Mode;
      if (!MODES.includes(mode)) throw new Error(`${file}:${before + 1}: unknown snippet mode "${mode}" (valid: ${MODES.join(', ')})`);
      const valid = lang === 'ts' ? mode !== 'serve' : mode === 'serve' || mode === 'gateway-client';
      if (!valid) throw new Error(`${file}:${before + 1}: a ${lang} block cannot be a "${mode}" snippet`);
      const slug = file.replace(/[^a-z0-9]+/gi, '-').toLowerCase();
      out.push({
        lang,
        where: `${file} block ${block} (line ${i + 1})`,
        file,
        line: i + 1,
        mode,
        ...(directive?.[2] ? { after: directive[2] } : {}),
        code: lines.slice(i + 1, end).join('\n'),
        module: join(SCRATCH, `${slug}-${String(block).padStart(2, '0')}.${lang}`),
      });
    }
    i = end + 1;
  }
  return out;
}

/** Where each public entry point's sources are, from package.json `exports`: `switchyard-llm/sim` -> src/sim/index.ts. */
function entryPoints(): Map<string, string> {
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { name: string; exports: Record<string, string | { import: string }> };
  const map = new Map<string, string>();
  for (const [subpath, target] of Object.entries(pkg.exports)) {
    if (typeof target === 'string') continue;
    map.set(subpath === '.' ? pkg.name : `${pkg.name}/${subpath.slice(2)}`, join(ROOT, target.import.replace(/^\.\/dist\//, '')));
  }
  return map;
}

/** The names each framing prelude's `setup()` offers the code. */
const PRELUDE_NAMES: Record<Exclude<Mode, 'module' | 'config' | 'serve'>, string[]> = {
  router: ['router', 'messages'],
  'gateway-client': [],
};

/** A shell block as bash runs it: the docs' gateway address replaced by `url`, and (serve) the line starting it dropped. */
export function shellText(snippet: Snippet, url: string): string {
  const lines = snippet.code.split('\n').filter((l) => !(snippet.mode === 'serve' && /^npx switchyard serve\b/.test(l)));
  return lines.join('\n').replaceAll('http://127.0.0.1:8787', url);
}

const IMPORT = /^import\s[^;]*;\s*(\/\/.*)?$/;

/** The module a snippet becomes: imports of the package pointed at its sources, the mode's frame around the code. */
export function moduleText(snippet: Snippet): string {
  const entries = entryPoints();
  const spec = (to: string) => {
    const rel = relative(SCRATCH, to).replace(/\.ts$/, '.js');
    return rel.startsWith('.') ? rel : `./${rel}`;
  };
  const code = snippet.code.replace(/(from\s+|import\s*\(\s*)(['"])(switchyard-llm(?:\/[\w-]+)?)\2/g, (whole, lead: string, quote: string, name: string) => {
    const to = entries.get(name);
    if (!to) throw new Error(`${snippet.where}: imports ${name}, which package.json does not export`);
    return `${lead}${quote}${spec(to)}${quote}`;
  });
  const header = `// ${snippet.where}: generated by test/docs/snippets.ts\n`;
  if (snippet.mode === 'module') return `${header}${code}\nexport {};\n`;

  // The other modes frame the code: its imports go first, the rest runs inside the frame.
  const lines = code.split('\n');
  const imports = lines.filter((l) => IMPORT.test(l));
  let body = lines.filter((l) => !IMPORT.test(l)).join('\n');
  // A gateway client's `'http://127.0.0.1:8787/...'` becomes the address of the gateway the prelude started.
  if (snippet.mode === 'gateway-client') body = body.replace(/(['"])http:\/\/127\.0\.0\.1:8787([^'"]*)\1/g, (_m, _q, rest: string) => `(__env.url + ${JSON.stringify(rest)})`);
  const prelude = spec(join(ROOT, 'test/docs/preludes', `${snippet.mode}.ts`));
  if (snippet.mode === 'serve') throw new Error(`${snippet.where}: a serve block is shell, not a module`);
  if (snippet.mode === 'config') {
    return `${header}${imports.join('\n')}\nimport { checkConfigPart } from '${prelude}';\nawait checkConfigPart({\n${body}\n});\nexport {};\n`;
  }
  return [
    header,
    ...imports,
    `import { setup } from '${prelude}';`,
    'const __env = await setup();',
    // Every name the prelude offers, so the code reads as it does in the docs.
    `const { ${PRELUDE_NAMES[snippet.mode].join(', ')} } = __env;`,
    'try {',
    body,
    ...(snippet.after ? [snippet.after] : []),
    '} finally {',
    '  await __env.close();',
    '}',
    'export {};',
    '',
  ].join('\n');
}
