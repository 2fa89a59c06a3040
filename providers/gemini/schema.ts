import type { JSONSchema } from '../../src/types.js';
import { unsupported } from '../shared/content-source.js';

type Schema = Record<string, unknown>;
interface Where {
  provider: string;
  model: string;
}

const isSchema = (v: unknown): v is Schema => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * The keywords `responseJsonSchema` (and `parametersJsonSchema`) honour, per the API reference:
 * others are dropped, since the model is not held to them anyway (the router still validates the
 * answer against the whole schema).
 */
const JSON_SCHEMA_KEYS = new Set([
  '$id', '$defs', '$ref', '$anchor', 'type', 'format', 'title', 'description', 'enum', 'items', 'prefixItems',
  'minItems', 'maxItems', 'minimum', 'maximum', 'anyOf', 'oneOf', 'properties', 'additionalProperties', 'required', 'propertyOrdering',
]);

/** The keywords of the OpenAPI 3.0 subset `responseSchema` (and `parameters`) take: the `Schema` message's fields. */
const OPENAPI_KEYS = new Set([
  'format', 'title', 'description', 'nullable', 'enum', 'items', 'minItems', 'maxItems', 'minimum', 'maximum',
  'minLength', 'maxLength', 'pattern', 'properties', 'required', 'propertyOrdering', 'anyOf', 'default', 'example',
  'minProperties', 'maxProperties',
]);

const mapValues = (o: Schema, fn: (v: unknown) => unknown): Schema => Object.fromEntries(Object.entries(o).map(([k, v]) => [k, fn(v)]));

/**
 * A JSON Schema as `responseJsonSchema` takes it: only the keywords it supports, at every depth;
 * `const` becomes a one-value `enum`, `definitions` becomes `$defs`, and a `$ref` keeps no siblings
 * but `$`-keywords (the API refuses others next to it).
 */
export function geminiJsonSchema(schema: JSONSchema): JSONSchema {
  const walk = (node: unknown): unknown => {
    if (!isSchema(node)) return node;
    if (typeof node.$ref === 'string') {
      return Object.fromEntries(Object.entries(node).filter(([k]) => k.startsWith('$') && k !== '$schema')
        .map(([k, v]) => [k, k === '$ref' ? String(v).replace('#/definitions/', '#/$defs/') : k === '$defs' ? mapValues(v as Schema, walk) : v]));
    }
    const out: Schema = {};
    for (const [key, value] of Object.entries(node)) {
      if (key === 'const') out.enum = [value];
      else if (key === 'definitions' && isSchema(value)) out.$defs = mapValues(value, walk);
      else if (!JSON_SCHEMA_KEYS.has(key)) continue;
      else if ((key === 'properties' || key === '$defs') && isSchema(value)) out[key] = mapValues(value, walk);
      else if ((key === 'anyOf' || key === 'oneOf' || key === 'prefixItems') && Array.isArray(value)) out[key] = value.map(walk);
      else if (key === 'items' && Array.isArray(value)) out.prefixItems = value.map(walk);
      else if (key === 'items' || key === 'additionalProperties') out[key] = walk(value);
      else out[key] = value;
    }
    return out;
  };
  return walk(schema) as JSONSchema;
}

/** The most schemas an OpenAPI copy of a JSON Schema may hold once its `$ref`s are inlined. */
export const MAX_INLINED_NODES = 10_000;

/**
 * A JSON Schema as the OpenAPI 3.0 subset that `responseSchema` takes (models before 2.5): `$ref`s
 * inlined (a recursive one cannot be: `unsupported`), type names upper-case, `["x", "null"]` as
 * `nullable`, `oneOf` as `anyOf`, a string `const` as a one-value `enum`; enums of anything but
 * strings, `additionalProperties` and keywords outside the subset are dropped.
 */
export function geminiOpenApiSchema(schema: JSONSchema, where: Where): JSONSchema {
  const defs = Object.assign({}, (isSchema(schema.definitions) ? schema.definitions : {}), (isSchema(schema.$defs) ? schema.$defs : {}));
  // Inlining copies a definition at every use, so `$defs` that each use the next twice double at every
  // step: a few hundred bytes of schema could make billions of nodes. The copy stops at a bound.
  let left = MAX_INLINED_NODES;
  const walk = (node: unknown, seen: readonly string[]): unknown => {
    if (!isSchema(node)) return node;
    if (--left < 0) throw unsupported(where, `a JSON schema whose $refs inline to more than ${MAX_INLINED_NODES} schemas (${where.model} takes an OpenAPI schema without references)`);
    if (typeof node.$ref === 'string') {
      const name = /^#\/(?:\$defs|definitions)\/(.+)$/.exec(node.$ref)?.[1];
      if (!name || !isSchema(defs[name])) throw unsupported(where, `a JSON schema $ref "${node.$ref}" (${where.model} takes an OpenAPI schema without references)`);
      if (seen.includes(name)) throw unsupported(where, `a recursive JSON schema ($ref "${node.$ref}"; ${where.model} takes no references)`);
      return walk(defs[name], [...seen, name]);
    }
    const out: Schema = {};
    const types = Array.isArray(node.type) ? node.type.map(String) : typeof node.type === 'string' ? [node.type] : [];
    const concrete = types.filter((t) => t !== 'null');
    if (types.includes('null') || node.nullable === true) out.nullable = true;
    if (concrete.length > 1) {
      const { type: _type, ...rest } = node;
      return Object.assign({}, (out.nullable ? { nullable: true } : {}), { anyOf: concrete.map((type) => walk(Object.assign({}, rest, { type }), seen)) });
    }
    if (concrete.length === 1) out.type = concrete[0]!.toUpperCase();
    for (const [key, value] of Object.entries(node)) {
      if (key === 'const') {
        if (typeof value === 'string') out.enum = [value];
      } else if (key === 'enum') {
        if (Array.isArray(value) && value.every((v) => typeof v === 'string')) out.enum = value;
      } else if (key === 'oneOf' || key === 'anyOf') {
        if (Array.isArray(value)) out.anyOf = value.map((v) => walk(v, seen));
      } else if (key === 'properties' && isSchema(value)) {
        out.properties = mapValues(value, (v) => walk(v, seen));
      } else if (key === 'items') {
        out.items = walk(Array.isArray(value) ? value[0] : value, seen);
      } else if (OPENAPI_KEYS.has(key)) {
        out[key] = value;
      }
    }
    return out;
  };
  return walk(schema, []) as JSONSchema;
}
