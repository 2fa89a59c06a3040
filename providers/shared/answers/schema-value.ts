import type { JSONSchema } from '../../../src/types.js';
import { fieldValue, type FillContext } from './field-value.js';
import { pickOption } from './pick-option.js';

/** Deeper than this, objects come back `{}` and arrays `[]`, so a recursive schema ends. */
export const MAX_SCHEMA_DEPTH = 8;

/** Values for the string formats JSON Schema names; any other format gets the plain string rule. */
const FORMATS: Readonly<Record<string, string>> = {
  'date-time': '2026-01-01T00:00:00Z',
  date: '2026-01-01',
  time: '00:00:00Z',
  duration: 'P1D',
  email: 'user@example.com',
  'idn-email': 'user@example.com',
  uri: 'https://example.com/',
  url: 'https://example.com/',
  iri: 'https://example.com/',
  'uri-reference': '/example',
  hostname: 'example.com',
  'idn-hostname': 'example.com',
  ipv4: '192.0.2.1',
  ipv6: '2001:db8::1',
  uuid: '00000000-0000-4000-8000-000000000000',
};

interface Ctx {
  root: JSONSchema;
  /** The property (or the array's property) this value is for, used in generated strings. */
  key: string;
  depth: number;
  /** Position in the enclosing array, so the items of a `uniqueItems` array differ. */
  index: number;
  /** The prompt the values are drawn from, when there is one. */
  fill?: FillContext;
  /** Values still to be made for this answer: shared by the whole walk, so no schema (`minItems: 1e9`, nested unions) makes it unbounded. */
  budget: { left: number };
  /** `anyOf`/`oneOf` branches taken on the way here (they nest without adding a level). */
  branches: number;
}

/** The most values (of any kind, at any depth) one generated instance holds; past it, `null`. */
export const MAX_SCHEMA_VALUES = 10_000;
/** The most nested `anyOf`/`oneOf` branches followed; deeper, the branch is ignored. */
const MAX_BRANCHES = 32;

const isObject = (x: unknown): x is Record<string, any> => typeof x === 'object' && x !== null && !Array.isArray(x);

/** Follows local `$ref`s (`#/$defs/X`, `#/definitions/X`, any `#/...` pointer) against the root schema. */
function resolve(schema: Record<string, any>, root: JSONSchema): Record<string, any> {
  let current = schema;
  for (let hops = 0; hops < 16 && typeof current.$ref === 'string'; hops++) {
    const ref: string = current.$ref;
    if (!ref.startsWith('#')) break;
    let target: unknown = root;
    for (const raw of ref.slice(1).split('/').filter(Boolean)) {
      const segment = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
      target = isObject(target) || Array.isArray(target) ? (target as any)[segment] : undefined;
    }
    if (!isObject(target)) break;
    const { $ref: _ref, ...siblings } = current;
    current = Object.assign({}, target, siblings);
  }
  return current;
}

/** `allOf` folded into one schema: properties merged, `required` concatenated, other keys last one wins. */
function mergeAllOf(schema: Record<string, any>, root: JSONSchema): Record<string, any> {
  const { allOf, ...rest } = schema;
  let out: Record<string, any> = rest;
  for (const part of allOf as unknown[]) {
    if (!isObject(part)) continue;
    const branch = resolve(part, root);
    out = Object.assign({}, out, branch, { properties: Object.assign({}, (out.properties ?? {}), (branch.properties ?? {})), required: [...(out.required ?? []), ...(branch.required ?? [])] });
  }
  return out;
}

function typeOf(s: Record<string, any>): string {
  const t = s.type;
  if (typeof t === 'string') return t;
  if (Array.isArray(t)) return (t.find((x) => x !== 'null') as string | undefined) ?? 'null';
  if (s.properties !== undefined || s.required !== undefined || s.additionalProperties !== undefined) return 'object';
  if (s.items !== undefined || s.prefixItems !== undefined || s.minItems !== undefined) return 'array';
  if (s.minimum !== undefined || s.maximum !== undefined || s.exclusiveMinimum !== undefined || s.exclusiveMaximum !== undefined || s.multipleOf !== undefined) return 'number';
  return 'string';
}

function stringValue(s: Record<string, any>, ctx: Ctx): string {
  let value = typeof s.format === 'string' && FORMATS[s.format] !== undefined
    ? FORMATS[s.format]!
    : `example ${ctx.key}${ctx.index > 0 ? ` ${ctx.index + 1}` : ''}`;
  if (typeof s.pattern === 'string') {
    let pattern: RegExp | undefined;
    try {
      pattern = new RegExp(s.pattern, 'u');
    } catch {
      pattern = undefined;
    }
    if (pattern && !pattern.test(value)) {
      value = [ctx.key, 'example', 'a', 'A', '0', 'abc', 'ABC', '123', 'a1', 'example-1'].find((c) => pattern!.test(c)) ?? value;
    }
  }
  if (typeof s.minLength === 'number' && value.length < s.minLength) value = value.padEnd(s.minLength, 'x');
  if (typeof s.maxLength === 'number' && value.length > s.maxLength) value = value.slice(0, s.maxLength);
  return value;
}

function numberValue(s: Record<string, any>, integer: boolean, index: number): number {
  let lo = typeof s.minimum === 'number' ? s.minimum : -Infinity;
  let hi = typeof s.maximum === 'number' ? s.maximum : Infinity;
  let loExclusive = s.exclusiveMinimum === true;
  let hiExclusive = s.exclusiveMaximum === true;
  if (typeof s.exclusiveMinimum === 'number' && s.exclusiveMinimum >= lo) [lo, loExclusive] = [s.exclusiveMinimum, true];
  if (typeof s.exclusiveMaximum === 'number' && s.exclusiveMaximum <= hi) [hi, hiExclusive] = [s.exclusiveMaximum, true];
  const above = (x: number) => (loExclusive ? x > lo : x >= lo);
  const below = (x: number) => (hiExclusive ? x < hi : x <= hi);
  let v = (integer ? 1 : 1.5) + index;
  if (!above(v)) v = (integer ? (loExclusive ? Math.floor(lo) + 1 : Math.ceil(lo)) : loExclusive ? lo + 1 : lo) + index;
  if (!below(v)) v = integer ? (hiExclusive ? Math.ceil(hi) - 1 : Math.floor(hi)) : hiExclusive ? hi - 1 : hi;
  if (!above(v) && Number.isFinite(lo) && Number.isFinite(hi)) v = integer ? Math.ceil((lo + hi) / 2) : (lo + hi) / 2;
  const step = typeof s.multipleOf === 'number' && s.multipleOf > 0 ? s.multipleOf : undefined;
  if (step) {
    let m = Math.ceil(v / step) * step;
    if (!below(m)) m = Math.floor(v / step) * step;
    v = Number(m.toPrecision(12));
  }
  return v;
}

/** True when a value drawn from the prompt keeps the simple constraints of its schema (else the schema's own value is used). */
function fits(value: string | number, s: Record<string, any>, type: string): boolean {
  if (typeof value === 'number') {
    if (type === 'integer' && !Number.isInteger(value)) return false;
    if (typeof s.minimum === 'number' && value < s.minimum) return false;
    if (typeof s.maximum === 'number' && value > s.maximum) return false;
    if (typeof s.exclusiveMinimum === 'number' ? value <= s.exclusiveMinimum : s.exclusiveMinimum === true && value <= s.minimum) return false;
    if (typeof s.exclusiveMaximum === 'number' ? value >= s.exclusiveMaximum : s.exclusiveMaximum === true && value >= s.maximum) return false;
    return !(typeof s.multipleOf === 'number' && s.multipleOf > 0 && !Number.isInteger(Number((value / s.multipleOf).toPrecision(12))));
  }
  if (typeof s.minLength === 'number' && value.length < s.minLength) return false;
  if (typeof s.maxLength === 'number' && value.length > s.maxLength) return false;
  if (typeof s.format === 'string' && !(FORMAT_CHECKS[s.format]?.test(value) ?? false)) return false;
  if (typeof s.pattern === 'string') {
    try {
      return new RegExp(s.pattern, 'u').test(value);
    } catch {
      return false;
    }
  }
  return true;
}

/** The formats a value taken from the prompt may fill, and what it must look like; any other format takes `FORMATS`' value. */
const FORMAT_CHECKS: Readonly<Record<string, RegExp>> = {
  email: /^[^@\s]+@[^@\s]+\.[^@\s]+$/, date: /^\d{4}-\d{2}-\d{2}$/, uri: /^https?:\/\/\S+$/, url: /^https?:\/\/\S+$/,
};

function generate(schema: unknown, ctx: Ctx): unknown {
  if (--ctx.budget.left < 0) return null;
  if (schema === false) return null;
  if (!isObject(schema)) return `example ${ctx.key}`;
  let s = resolve(schema, ctx.root);
  if (Array.isArray(s.allOf)) s = mergeAllOf(s, ctx.root);
  if ('const' in s) return s.const;
  if (Array.isArray(s.enum) && s.enum.length > 0) {
    const picked = ctx.fill && ctx.index === 0 ? pickOption(s.enum as unknown[], ctx.fill.prompt.subject) : undefined;
    return picked !== undefined ? picked : s.enum[Math.min(ctx.index, s.enum.length - 1)];
  }
  const type = typeOf(s);
  if (ctx.fill && ctx.index === 0 && (type === 'string' || type === 'number' || type === 'integer') && !s.anyOf && !s.oneOf) {
    const drawn = fieldValue(ctx.key, type, ctx.fill);
    if (drawn !== undefined && fits(drawn, s, type)) return drawn;
  }
  if ('default' in s) return s.default;
  if (Array.isArray(s.examples) && s.examples.length > 0) return s.examples[0];
  const branches = Array.isArray(s.anyOf) ? s.anyOf : Array.isArray(s.oneOf) ? s.oneOf : undefined;
  if (branches && branches.length > 0 && ctx.branches < MAX_BRANCHES) {
    const { anyOf: _a, oneOf: _o, ...rest } = s;
    const first = isObject(branches[0]) ? resolve(branches[0], ctx.root) : {};
    ctx.budget.left++; // the branch is this value, not another one
    return generate(Object.assign({}, rest, first), Object.assign({}, ctx, { branches: ctx.branches + 1 }));
  }
  switch (type) {
    case 'object': {
      const out: Record<string, unknown> = {};
      if (ctx.depth >= MAX_SCHEMA_DEPTH) return out;
      const properties: Record<string, unknown> = isObject(s.properties) ? s.properties : {};
      for (const [key, sub] of Object.entries(properties)) out[key] = generate(sub, Object.assign({}, ctx, { key, depth: ctx.depth + 1, index: 0 }));
      for (const key of Array.isArray(s.required) ? s.required : []) {
        if (typeof key === 'string' && !(key in out)) {
          out[key] = generate(isObject(s.additionalProperties) ? s.additionalProperties : {}, Object.assign({}, ctx, { key, depth: ctx.depth + 1, index: 0 }));
        }
      }
      return out;
    }
    case 'array': {
      if (ctx.depth >= MAX_SCHEMA_DEPTH) return [];
      const prefix: unknown[] = Array.isArray(s.prefixItems) ? s.prefixItems : [];
      let count = Math.max(typeof s.minItems === 'number' ? s.minItems : 1, prefix.length);
      if (typeof s.maxItems === 'number') count = Math.min(count, s.maxItems);
      count = Math.max(0, Math.min(count, ctx.budget.left));
      return Array.from({ length: count }, (_, i) => generate(i < prefix.length ? prefix[i] : s.items ?? {}, Object.assign({}, ctx, { depth: ctx.depth + 1, index: i })));
    }
    case 'integer':
      return numberValue(s, true, ctx.index);
    case 'number':
      return numberValue(s, false, ctx.index);
    case 'boolean':
      return ctx.index % 2 === 0;
    case 'null':
      return null;
    default:
      return stringValue(s, ctx);
  }
}

/**
 * A value that satisfies a JSON Schema, the same every time for the same schema and prompt. In
 * order: `const`; an `enum` value (the one the prompt points to, `pickOption`, else the first);
 * with a prompt, a string or number the prompt gives for the field's name (`fieldValue`: the order
 * id it mentions for `orderId`, the city for `city`), when it keeps the field's constraints;
 * `default`; the first of `examples`; the first branch of `anyOf`/`oneOf`; then by `type` (the
 * first non-null of a type list, or inferred from the keywords): an object gets every declared
 * property (and any `required` one not declared); an array `minItems` items (1 when unset, capped by
 * `maxItems`; items differ by position, for `uniqueItems`); a string `example <key>`, or a fixed value
 * for a known `format`, padded to `minLength`, cut to `maxLength`, or a short candidate matching a
 * `pattern`; a number 1.5 and an integer 1, moved inside `minimum`/`maximum` (exclusive too) and onto
 * `multipleOf`; a boolean true. `allOf` is merged and local `$ref`s followed; below depth 8 objects
 * are `{}` and arrays `[]`; at most MAX_SCHEMA_VALUES values in all (then `null`), and 32 nested unions.
 * @example valueForSchema({ type: 'object', properties: { unit: { enum: ['c', 'f'] }, days: { type: 'integer', minimum: 3 } } })
 * // { unit: 'c', days: 3 }
 */
export function valueForSchema(schema: JSONSchema | undefined, key = 'value', fill?: FillContext): unknown {
  const root = schema ?? {};
  return generate(root, { root, key, depth: 0, index: 0, budget: { left: MAX_SCHEMA_VALUES }, branches: 0, ...(fill ? { fill } : {}) });
}
