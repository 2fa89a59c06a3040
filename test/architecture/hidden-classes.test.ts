import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

// A static guard, read from the parsed source: no object literal on a call's path starts with a
// spread and goes on (`{ ...a, k }`, `{ ...a, ...b }`). On Node 20 (V8 11.3) every evaluation of
// such a literal makes a hidden class of its own (19,991 of 20,000 in a loop, by %HaveSameMap),
// where `{ k, ...a }`, a plain literal and Object.assign keep one: each such object then costs a
// new map that the young-generation GC promotes, and makes every property read of it megamorphic.
// On the gateway's pass-through path that was a quarter of its CPU a request (src/observe/event-refs.ts).

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/** What runs per call or per attempt. Config loading, the CLI, the simulator, eval and test support build once. */
const LAYERS = ['src', 'providers'];
const ONCE_ONLY = ['src/sim/', 'src/cli/', 'src/eval/', 'src/config/', 'providers/test-support/', 'providers/contract/', 'providers/shared/presets/'];

function sources(): string[] {
  return LAYERS.flatMap((dir) => readdirSync(join(ROOT, dir), { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts') && !f.endsWith('.d.ts'))
    .map((f) => `${dir}/${f}`))
    .filter((f) => !ONCE_ONLY.some((prefix) => f.startsWith(prefix)));
}

/** Every object literal in `file` whose first member is a spread and that has more members after it. */
function spreadsThatGoOn(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(join(ROOT, file), 'utf8'), ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isObjectLiteralExpression(node) && node.properties.length > 1 && ts.isSpreadAssignment(node.properties[0]!)) {
      const { line } = source.getLineAndCharacterOfPosition(node.getStart(source));
      found.push(`${file}:${line + 1}: ${node.getText(source).replace(/\s+/g, ' ').slice(0, 80)}`);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe('hidden classes on the call path', () => {
  it('finds the pattern it guards against (the parser sees what the rule names)', () => {
    const probe = ts.createSourceFile('probe.ts', 'const a = { ...x, k: 1 }; const b = { k: 1, ...x }; const c = { ...x };', ts.ScriptTarget.Latest, true);
    const literals: boolean[] = [];
    const visit = (node: ts.Node) => {
      if (ts.isObjectLiteralExpression(node)) literals.push(node.properties.length > 1 && ts.isSpreadAssignment(node.properties[0]!));
      ts.forEachChild(node, visit);
    };
    visit(probe);
    expect(literals).toEqual([true, false, false]);
  });

  it('builds no object literal that starts with a spread and goes on (use Object.assign, or put a member first)', () => {
    const files = sources();
    expect(files.length).toBeGreaterThan(100);
    expect(files.flatMap(spreadsThatGoOn)).toEqual([]);
  });
});
