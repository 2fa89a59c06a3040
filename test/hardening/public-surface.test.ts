import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

// The public entry is an explicit, minimal list (DESIGN.md, issue 10): a name added to or dropped
// from src/index.ts is an API change, and must show up here as one.
const PUBLIC_ENTRY = [
  'ERROR_KINDS', 'RouterError', 'createRouter', 'defineConfig', 'fromOpenAI', 'isRouterError', 'loadConfig', 'memoryStore',
  'redisStore', 'systemClock', 'toOpenAI',
];

const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
  exports: Record<string, string | Record<string, string>>;
};

/** The source file a package.json export's `import` condition is built from (`./dist/src/x/index.js` -> `src/x/index.ts`). */
function sourceOf(target: string | Record<string, string>): string {
  const built = typeof target === 'string' ? target : target.import!;
  return built.replace(/^\.\/dist\//, '').replace(/\.js$/, '.ts');
}

const subpaths = Object.entries(pkg.exports).filter(([spec]) => spec !== '.' && spec !== './package.json');

describe('the public surface', () => {
  it('exports exactly the intended names from the package entry', async () => {
    const entry = await import('../../src/index.js');
    expect(Object.keys(entry).sort()).toEqual([...PUBLIC_ENTRY].sort());
  });

  it('builds the package entry from src/index.ts', () => {
    expect(sourceOf(pkg.exports['.']!)).toBe('src/index.ts');
  });

  it.each(subpaths)('imports %s from its source with named exports only', async (_spec, target) => {
    const mod = (await import(`../../${sourceOf(target)}`)) as Record<string, unknown>;
    expect(Object.keys(mod).length).toBeGreaterThan(0);
    expect(mod).not.toHaveProperty('default');
  });
});
