import type { JSONSchema } from '../../src/types.js';

type Schema = Record<string, unknown>;

const isSchema = (v: unknown): v is Schema => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Keywords whose value is one subschema. */
const ONE = ['items', 'additionalItems', 'contains', 'not', 'if', 'then', 'else', 'propertyNames', 'unevaluatedItems'];
/** Keywords whose value is a list of subschemas. */
const LIST = ['anyOf', 'oneOf', 'allOf', 'prefixItems'];
/** Keywords whose value maps names to subschemas. */
const MAP = ['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas'];

function isObjectSchema(schema: Schema): boolean {
  const type = schema.type;
  return type === 'object' || (Array.isArray(type) && type.includes('object')) || (type === undefined && isSchema(schema.properties));
}

/**
 * A copy of a JSON Schema with `fix` applied to every object schema in it, at any depth (properties,
 * items, unions, `$defs`). The input is never modified; `$ref`s are left as written.
 */
export function mapObjectSchemas(schema: JSONSchema, fix: (object: Schema) => Schema): JSONSchema {
  const walk = (node: unknown): unknown => {
    if (!isSchema(node)) return node;
    const out: Schema = { ...node };
    for (const key of ONE) if (isSchema(out[key])) out[key] = walk(out[key]);
    for (const key of LIST) if (Array.isArray(out[key])) out[key] = (out[key] as unknown[]).map(walk);
    for (const key of MAP) {
      if (!isSchema(out[key])) continue;
      out[key] = Object.fromEntries(Object.entries(out[key] as Schema).map(([k, v]) => [k, walk(v)]));
    }
    if (isSchema(out.additionalProperties)) out.additionalProperties = walk(out.additionalProperties);
    return isObjectSchema(out) ? fix(out) : out;
  };
  return walk(schema) as JSONSchema;
}

/** The schema without its `$schema` dialect marker (zod's converter adds one; providers want the bare schema). */
export function bareSchema(schema: JSONSchema): JSONSchema {
  if (!('$schema' in schema)) return schema;
  const { $schema: _dialect, ...rest } = schema;
  return rest;
}

/**
 * The schema the way OpenAI's strict mode requires it: every object closed
 * (`additionalProperties: false`) and every property listed in `required`, recursively. A property
 * that was optional becomes required but keeps its type, so an answer still validates against the
 * original schema (adding `null` to its type would not, for a zod `.optional()`).
 *
 * Undefined when strict mode cannot take the schema without changing what it means: a root that is
 * not an object (strict mode requires one), or an object that allows extra properties
 * (`additionalProperties` a schema or `true`: a zod record or `.passthrough()`), which closing would
 * turn into "no extra properties". The caller sends such a schema as written, not strict.
 */
export function strictObjectSchema(schema: JSONSchema): JSONSchema | undefined {
  let out = STRICT.get(schema);
  if (out === undefined) STRICT.set(schema, (out = strictable(schema) ? strictCopy(schema) : null));
  return out ?? undefined;
}

function strictCopy(schema: JSONSchema): JSONSchema {
  return mapObjectSchemas(bareSchema(schema), (object) => {
    const properties = isSchema(object.properties) ? object.properties : {};
    return Object.assign({}, object, { properties, required: Object.keys(properties), additionalProperties: false });
  });
}

function strictable(schema: JSONSchema): boolean {
  if (schema.type !== 'object' && !(schema.type === undefined && isSchema(schema.properties))) return false;
  let open = false;
  mapObjectSchemas(schema, (object) => {
    if ('additionalProperties' in object && object.additionalProperties !== false) open = true;
    return object;
  });
  return !open;
}

/** Every object schema closed where it says nothing about extra properties (Anthropic structured output requires it). */
export function closedObjectSchema(schema: JSONSchema): JSONSchema {
  return remembered(CLOSED, schema, () => mapObjectSchemas(bareSchema(schema), (object) => ('additionalProperties' in object ? object : Object.assign({}, object, { additionalProperties: false }))));
}

// A schema object is normalised once for as long as it lives (the router converts a zod schema once
// and hands the same JSON Schema object to every call), not on every request.
const STRICT = new WeakMap<JSONSchema, JSONSchema | null>();
const CLOSED = new WeakMap<JSONSchema, JSONSchema>();

function remembered(cache: WeakMap<JSONSchema, JSONSchema>, schema: JSONSchema, make: () => JSONSchema): JSONSchema {
  let out = cache.get(schema);
  if (!out) cache.set(schema, (out = make()));
  return out;
}
