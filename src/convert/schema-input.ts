import { z, type ZodType } from 'zod';
import type { JSONSchema, SchemaInput } from '../types.js';

/** True for a zod (v4) schema, told from a JSON Schema object by its parse method. */
export function isZodSchema(schema: unknown): schema is ZodType {
  return typeof schema === 'object' && schema !== null && typeof (schema as { safeParse?: unknown }).safeParse === 'function'
    && '_zod' in (schema as object);
}

const jsonSchemas = new WeakMap<object, JSONSchema>();
const validators = new WeakMap<object, ZodType>();

/**
 * A schema as JSON Schema for the providers: a zod schema is converted once (and remembered for as
 * long as the schema object lives), a JSON Schema passes through as written.
 */
export function toJSONSchema(schema: SchemaInput): JSONSchema {
  if (!isZodSchema(schema)) return schema;
  let json = jsonSchemas.get(schema);
  if (!json) {
    json = z.toJSONSchema(schema, { target: 'draft-2020-12', unrepresentable: 'any' }) as JSONSchema;
    delete json.$schema;
    jsonSchemas.set(schema, json);
  }
  return json;
}

/** A zod schema to validate values against: the schema itself, or one made once from a JSON Schema. */
export function validatorFor(schema: SchemaInput): ZodType {
  if (isZodSchema(schema)) return schema;
  let validator = validators.get(schema);
  if (!validator) {
    validator = z.fromJSONSchema(schema as Parameters<typeof z.fromJSONSchema>[0]) as ZodType;
    validators.set(schema, validator);
  }
  return validator;
}

/** The first problem a validation found, as `path: message`, for an error a person can act on. */
export function firstIssue(error: z.ZodError): string {
  const issue = error.issues[0];
  if (!issue) return 'does not match the schema';
  const path = issue.path.length > 0 ? `${issue.path.map(String).join('.')}: ` : '';
  const more = error.issues.length > 1 ? ` (and ${error.issues.length - 1} more)` : '';
  return `${path}${issue.message}${more}`;
}
