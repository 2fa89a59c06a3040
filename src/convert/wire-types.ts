import type { RouterError } from '../errors.js';
import { invalidField, isRecord } from './convert-error.js';

/** The JSON types a wire field may be declared as. */
export type WireType = 'string' | 'number' | 'integer' | 'boolean' | 'object' | 'array' | 'string_or_array';

const PHRASE: Readonly<Record<WireType, string>> = {
  string: 'a string', number: 'a number', integer: 'an integer', boolean: 'true or false', object: 'an object',
  array: 'an array', string_or_array: 'a string or an array of strings',
};

function matches(value: unknown, type: WireType): boolean {
  switch (type) {
    case 'string': return typeof value === 'string';
    case 'number': return typeof value === 'number' && Number.isFinite(value);
    case 'integer': return Number.isSafeInteger(value);
    case 'boolean': return typeof value === 'boolean';
    case 'object': return isRecord(value);
    case 'array': return Array.isArray(value);
    case 'string_or_array': return typeof value === 'string' || (Array.isArray(value) && value.every((v) => typeof v === 'string'));
  }
}

/**
 * Checks each field of `body` that `types` declares: absent or `null` passes (the APIs take `null`
 * for "not set"), anything else must be of its type, or the call is refused naming the field
 * (`temperature: "hot"` is a 400 on `temperature`, never silently dropped); `refuse` makes the
 * error (the OpenAI converter's by default).
 */
export function checkTypes(
  body: Readonly<Record<string, unknown>>,
  types: Readonly<Record<string, WireType>>,
  prefix = '',
  refuse: (path: string, why: string) => RouterError = invalidField,
): void {
  // The body's few fields first (this runs on every gateway request, against a table of 33); only
  // when one is wrong is the table walked in its order, so the field named is the same either way.
  let wrong = false;
  for (const key in body) {
    if (!Object.hasOwn(types, key)) continue;
    const value = body[key];
    if (value !== undefined && value !== null && !matches(value, types[key]!)) wrong = true;
  }
  if (!wrong) return;
  for (const key in types) {
    const type = types[key]!;
    const value = body[key];
    if (value === undefined || value === null) continue;
    if (!matches(value, type)) throw refuse(`${prefix}${key}`, `expected ${PHRASE[type]}, got ${describe(value)}`);
  }
}

/** A value as a message names it: short, and never a whole prompt. */
export function describe(value: unknown): string {
  if (typeof value === 'string') return value.length > 40 ? 'a string' : JSON.stringify(value);
  if (Array.isArray(value)) return 'an array';
  if (value === null) return 'null';
  if (typeof value === 'object') return 'an object';
  return String(value);
}
