import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { importCycles, importEdges, specifiers, type ImportEdge } from './import-graph.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const EDGES = importEdges(ROOT, ['src', 'providers']);

/** The files `src/`'s root may hold (STYLE.md's layout); anything else lives in a folder named for its concept. */
const SRC_ROOT_FILES = ['errors.ts', 'index.ts', 'router.ts', 'types.ts'];

/** Files under providers/ that ship in dist (tsconfig.build.json leaves tests and their harnesses out). */
function shipsInProviders(file: string): boolean {
  return file.startsWith('providers/') && !file.endsWith('.test.ts') && !/^providers\/(test-support|contract)\//.test(file);
}

/**
 * What a shipped provider file may import: the provider spec, the shared words (`src/errors.ts`,
 * `src/types.ts`), `providers/shared/` and its own folder; the registry (`providers/index.ts`) also
 * names each adapter.
 */
function providerMayImport({ from, to }: ImportEdge): boolean {
  if (to === 'providers/types.ts' || to === 'src/errors.ts' || to === 'src/types.ts') return true;
  if (to.startsWith('providers/shared/')) return true;
  if (from === 'providers/index.ts') return /^providers\/[^/]+\/adapter\.ts$/.test(to);
  const folder = from.split('/')[1];
  return to.startsWith(`providers/${folder}/`);
}

/**
 * What src/ may import from providers/: the spec and the registry. Three more reach in, each for
 * one thing shared with the providers: the test hooks (`switchyard-llm/testing`) hand out the fake
 * adapter; the simulator answers with the generator it shares with that adapter
 * (providers/shared/answers); the config lists and fills the openai-compatible presets from their
 * catalog, data that imports nothing (providers/shared/presets/catalog.ts).
 */
function srcMayImportProvider({ from, to }: ImportEdge): boolean {
  if (to === 'providers/types.ts' || to === 'providers/index.ts') return true;
  if (from.startsWith('src/testing/') && to.startsWith('providers/fake/')) return true;
  if (from.startsWith('src/config/') && to === 'providers/shared/presets/catalog.ts') return true;
  return from.startsWith('src/sim/') && to === 'providers/shared/answers/index.ts';
}

describe('layering', () => {
  it('finds the imports of every file, type-only ones included', () => {
    // Guards the parser the other checks rely on: a silent miss would pass every rule below.
    const found = specifiers(
      [
        "import type { A } from './a.js';",
        "import { type B } from './b.js';",
        "export type { C } from './c.js';",
        "export * from './d.js';",
        "type E = import('./e.js').E;",
        "const f = await import('./f.js');",
      ].join('\n'),
      'x.ts',
    );
    expect(found).toEqual([
      { spec: './a.js', typeOnly: true },
      { spec: './b.js', typeOnly: false },
      { spec: './c.js', typeOnly: true },
      { spec: './d.js', typeOnly: false },
      { spec: './e.js', typeOnly: true },
      { spec: './f.js', typeOnly: false },
    ]);
    expect(EDGES.length).toBeGreaterThan(500);
    expect(EDGES).toContainEqual({ from: 'src/index.ts', to: 'src/router.ts', typeOnly: false });
  });

  it('has no import cycle under src/ or providers/', () => {
    const cycles = importCycles(EDGES).map(({ files, path }) => `${path.join(' -> ')} (the knot: ${files.join(', ')})`);
    expect(cycles).toEqual([]);
  });

  it('lets shipped provider code import only the provider spec, errors, types, providers/shared and its own folder', () => {
    const outside = EDGES.filter((edge) => shipsInProviders(edge.from) && !providerMayImport(edge));
    expect(outside.map(({ from, to }) => `${from} imports ${to}`)).toEqual([]);
  });

  it('lets src/ import from providers/ only the spec, the registry, the fake adapter, the shared answers and the presets\' catalog', () => {
    const inside = EDGES.filter((edge) => edge.from.startsWith('src/') && edge.to.startsWith('providers/') && !srcMayImportProvider(edge));
    expect(inside.map(({ from, to }) => `${from} imports ${to}`)).toEqual([]);
  });

  it('keeps the shared words on the lowest floor: src/types.ts imports nothing of ours, src/errors.ts only types', () => {
    const upward = EDGES.filter(
      ({ from, to }) => from === 'src/types.ts' || (from === 'src/errors.ts' && to !== 'src/types.ts'),
    );
    expect(upward.map(({ from, to }) => `${from} imports ${to}`)).toEqual([]);
  });

  it('holds no loose file at the root of src/ beyond index, router, errors and types', () => {
    const loose = readdirSync(join(ROOT, 'src')).filter((name) => statSync(join(ROOT, 'src', name)).isFile());
    expect(loose.filter((name) => !SRC_ROOT_FILES.includes(name)).map((name) => `src/${name}`)).toEqual([]);
  });
});
