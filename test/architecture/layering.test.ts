import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { importCycles, importEdges, specifiers, type ImportEdge } from './import-graph.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const EDGES = importEdges(ROOT, ['src', 'providers']);

/** The files `src/`'s root may hold (the layout in docs/architecture.md); anything else lives in a folder named for its concept. */
const SRC_ROOT_FILES = ['errors.ts', 'index.ts', 'router.ts', 'types.ts'];

/**
 * The floors, bottom to top (docs/architecture.md, "The floors"). A shipped file imports only from
 * its own floor or the ones below, type-only imports included: so a floor can be read, and changed,
 * knowing only what is under it. A path names a file, or a folder when it ends in `/`; the longest
 * path that matches places a file. Tests and their harnesses stand above every floor.
 */
const FLOORS: readonly { name: string; paths: readonly string[] }[] = [
  { name: 'the shared words', paths: ['src/types.ts', 'src/errors.ts'] },
  { name: 'the providers (the spec, shared header parsing and answers, the adapters, the registry)', paths: ['providers/'] },
  { name: 'pure decisions, the clock, text and shape conversions, the pass-through seam', paths: ['src/decide/', 'src/time/', 'src/report/', 'src/convert/', 'src/pass-through/'] },
  { name: 'events, logging, redaction', paths: ['src/observe/'] },
  { name: 'the config, prices and the state store', paths: ['src/config/', 'src/spend/', 'src/store/'] },
  { name: 'the policies: services, per-call and per-target state, the steps, the chain', paths: ['src/policy/'] },
  { name: 'the call kinds', paths: ['src/calls/'] },
  { name: 'the response cache', paths: ['src/cache/'] },
  { name: "the router's runtime (built once, it satisfies every step's dependencies)", paths: ['src/runtime/'] },
  { name: 'the router', paths: ['src/router.ts'] },
  { name: 'what is built on a router', paths: ['src/index.ts', 'src/gateway/', 'src/cli/', 'src/eval/', 'src/integrations/', 'src/sim/', 'src/testing/'] },
];

/** Imports that must run up a floor, `from imports to` -> why. None does today: a new one needs its reason here. */
const UPWARD_WITH_REASON: Readonly<Record<string, string>> = {};

/** The floor a file stands on (its index in FLOORS), or -1 when no path places it. */
function floorOf(file: string): number {
  let floor = -1;
  let longest = -1;
  FLOORS.forEach(({ paths }, i) => {
    for (const path of paths) {
      const matches = path.endsWith('/') ? file.startsWith(path) : file === path;
      if (matches && path.length > longest) [floor, longest] = [i, path.length];
    }
  });
  return floor;
}

/** Shipped code: tests, contract suites and test support may import anything. */
function ships(file: string): boolean {
  return !file.endsWith('.test.ts') && !/^providers\/(test-support|contract)\//.test(file);
}

/** The edges that run from a floor to a higher one, as `from imports to (floor -> floor)`. */
function upward(edges: readonly ImportEdge[]): string[] {
  return edges
    .filter(({ from, to }) => ships(from) && floorOf(to) > floorOf(from))
    .map(({ from, to }) => `${from} imports ${to}`)
    .filter((edge) => !(edge in UPWARD_WITH_REASON));
}

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

  it('places every shipped file under src/ and providers/ on a floor', () => {
    const shipped = EDGES.filter(({ from }) => ships(from));
    const unplaced = [...new Set(shipped.flatMap(({ from, to }) => [from, to]))].filter((file) => floorOf(file) < 0);
    expect(unplaced).toEqual([]);
  });

  it('finds an import that runs up a floor, a type-only one too', () => {
    // Guards the rule below: it must see an upward edge, and let a downward one and a test's pass.
    expect(floorOf('src/policy/x.ts')).toBeGreaterThan(floorOf('src/store/x.ts'));
    expect(floorOf('src/router.ts')).toBeGreaterThan(floorOf('src/runtime/x.ts'));
    expect(upward([
      { from: 'src/decide/x.ts', to: 'src/policy/y.ts', typeOnly: true },
      { from: 'src/policy/y.ts', to: 'src/decide/x.ts', typeOnly: false },
      { from: 'src/decide/x.test.ts', to: 'src/router.ts', typeOnly: false },
    ])).toEqual(['src/decide/x.ts imports src/policy/y.ts']);
  });

  it('imports only from its own floor or below (docs/architecture.md, the floors)', () => {
    expect(upward(EDGES)).toEqual([]);
    // A reason kept for an edge that is gone is stale.
    const edges = new Set(EDGES.map(({ from, to }) => `${from} imports ${to}`));
    expect(Object.keys(UPWARD_WITH_REASON).filter((edge) => !edges.has(edge))).toEqual([]);
  });

  it('holds no loose file at the root of src/ beyond index, router, errors and types', () => {
    const loose = readdirSync(join(ROOT, 'src')).filter((name) => statSync(join(ROOT, 'src', name)).isFile());
    expect(loose.filter((name) => !SRC_ROOT_FILES.includes(name)).map((name) => `src/${name}`)).toEqual([]);
  });
});
