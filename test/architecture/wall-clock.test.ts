import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// A static guard, read from the source as text: every layer that waits or measures time takes it
// from the injected Clock, so a VirtualClock drives it all. (Which files may import which is
// layering.test.ts's.)

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

function sourcesUnder(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'))
    .map((f) => join(dir, f));
}

/** The text with comments blanked, so a comment that names `Date.now` is no call of it. */
const code = (file: string) => readFileSync(join(ROOT, file), 'utf8').replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`])\/\/.*$/gm, '$1');

/** Reading the wall clock or setting a timer of the process's own. */
const WALL_CLOCK = /\bDate\.now\b|\bperformance\.now\b|\bnew Date\(\s*\)|\bsetTimeout\b|\bsetInterval\b|['"](node:)?timers(\/promises)?['"]/g;
const CLOCK_LAYERS = ['src/policy', 'src/store'];
/** Files of those layers allowed to touch the wall clock, each with the reason. None today. */
const WALL_CLOCK_ALLOWED: Record<string, string> = {};

describe('the injected clock', () => {
  it.each(CLOCK_LAYERS)('lets nothing in %s read the wall clock or set a timer except through the Clock', (layer) => {
    const files = sourcesUnder(layer);
    const offending = files
      .filter((f) => !(f in WALL_CLOCK_ALLOWED))
      .flatMap((f) => [...code(f).matchAll(WALL_CLOCK)].map((m) => `${f}: ${m[0]}`));
    expect(offending).toEqual([]);
    // An exception names a file that still exists, so a stale one cannot hide a new file of that name.
    for (const file of Object.keys(WALL_CLOCK_ALLOWED).filter((f) => f.startsWith(`${layer}/`))) expect(files).toContain(file);
  });
});
