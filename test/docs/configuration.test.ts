import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { configSchema } from '../../src/config/schema.js';
import { OUTPUT, renderConfigurationReference, SCHEMA } from '../../scripts/docs-config.js';

// docs/configuration.md is generated from src/config/schema.ts by `npm run docs:config`: the committed
// page must be what the script writes now, and the script must see every field the schema accepts.

const page = readFileSync(OUTPUT, 'utf8');
// A row per field; a top-level field is its section's heading.
const documented = new Set([...page.matchAll(/^\| `([^`]+)` \|/gm), ...page.matchAll(/^## (\w+)$/gm)].map((m) => m[1]!));
const KEY_NAMES: Record<string, string> = { providers: '<name>', chains: '<name>', tenants: '<tenant>', models: '<model>', prices: '<model>' };

/** Every field path the runtime schema accepts, in the page's notation (`providers.<name>.limits.rpm`). */
function runtimePaths(schema: z.ZodType, path: string, name: string, out: Set<string>): void {
  const def = (schema as unknown as { _zod: { def: Record<string, unknown> & { type: string } } })._zod.def;
  switch (def.type) {
    case 'optional':
    case 'default':
    case 'nullable':
      return runtimePaths(def.innerType as z.ZodType, path, name, out);
    case 'pipe':
      return runtimePaths(def.in as z.ZodType, path, name, out);
    case 'object':
      for (const [key, value] of Object.entries(def.shape as Record<string, z.ZodType>)) {
        const child = path ? `${path}.${key}` : key;
        out.add(child);
        runtimePaths(value, child, key, out);
      }
      return;
    case 'union':
      for (const option of def.options as z.ZodType[]) runtimePaths(option, path, name, out);
      return;
    case 'record': {
      const value = def.valueType as z.ZodType;
      const inner = (value as unknown as { _zod: { def: { type: string } } })._zod.def.type;
      if (['string', 'unknown'].includes(inner)) return;
      runtimePaths(value, `${path}.${KEY_NAMES[name] ?? '<key>'}`, name, out);
      return;
    }
    case 'array':
      runtimePaths(def.element as z.ZodType, `${path}[]`, `${name}[]`, out);
      return;
    default:
  }
}

describe('docs/configuration.md', () => {
  it('is what `npm run docs:config` writes from src/config/schema.ts now (run it after changing the schema)', () => {
    expect(page).toBe(renderConfigurationReference());
  });

  it('has a row for every field the schema accepts, at every depth', () => {
    const paths = new Set<string>();
    runtimePaths(configSchema, '', '', paths);
    expect(paths.size).toBeGreaterThan(80);
    expect([...paths].filter((p) => !documented.has(p))).toEqual([]);
    expect([...documented].filter((p) => !paths.has(p) && !/\.<\w+>$|\[\]$/.test(p))).toEqual([]);
  });

  it('follows the schema: a field added to it, with its TSDoc, shows up as a row', () => {
    const source = readFileSync(SCHEMA, 'utf8').replace(
      'export const retrySchema = z.object({',
      'export const retrySchema = z.object({\n  /** Made up for this test. @default 7 */\n  madeUpMs: nonNegativeMs.default(7),',
    );
    expect(renderConfigurationReference(source)).toContain('| `retry.madeUpMs` | ms, integer ≥ 0 | `7` | Made up for this test. |');
  });
});
