import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DEFAULTS } from '../src/config/defaults.js';
import { resolveConfig } from '../src/config/index.js';

const SCHEMA = readFileSync(new URL('../src/config/schema.ts', import.meta.url), 'utf8');

/** Every `/** ... @default X *\/ field: ... .default(DEFAULTS.a.b)` in the schema, with the documented X. */
function documentedDefaults(): Array<{ field: string; documented: string; path: string }> {
  const found: Array<{ field: string; documented: string; path: string }> = [];
  const re = /@default ([^\s*]+)\s*\*\/\s*\n\s*(\w+):[^\n]*?\.default\(DEFAULTS\.([\w.]+)\)/g;
  for (const m of SCHEMA.matchAll(re)) found.push({ documented: m[1]!, field: m[2]!, path: m[3]! });
  return found;
}

const valueAt = (path: string): unknown => path.split('.').reduce<any>((o, k) => o[k], DEFAULTS);

describe('config defaults', () => {
  it('takes every zod default from the defaults module', () => {
    const literal = SCHEMA.match(/\.default\((?!DEFAULTS\.|\{ \.\.\.DEFAULTS\.|\(\) => [^)]*DEFAULTS\.|\{\}|\{ type: 'memory' \})[^)]*\)/g) ?? [];
    expect(literal).toEqual([]);
  });

  it('documents every default with the value the defaults module holds', () => {
    const documented = documentedDefaults();
    expect(documented.length).toBeGreaterThanOrEqual(18);
    for (const d of documented) {
      const value = valueAt(d.path);
      expect(d.documented.replace(/^'|'$/g, ''), `${d.field} (${d.path})`).toBe(String(value));
    }
  });

  it('fills a minimal config with exactly those defaults', () => {
    const c = resolveConfig({ providers: { p: { type: 'fake' } }, chains: { default: ['p:m'] } });
    expect(c.retry).toEqual(DEFAULTS.retry);
    expect(c.breaker).toEqual(DEFAULTS.breaker);
    expect(c.quota).toEqual(DEFAULTS.quota);
    expect(c.idempotency).toEqual(DEFAULTS.idempotency);
    expect(c.log).toEqual(DEFAULTS.log);
  });
});
