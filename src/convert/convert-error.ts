import { RouterError } from '../errors.js';

/** A field of an OpenAI request that has no Switchyard equivalent: refused, naming the field (its JSON path). */
export function unsupportedField(path: string, why: string): RouterError {
  return new RouterError('invalid_request', `fromOpenAI: ${path} is not supported: ${why}`, { code: 'unsupported_parameter', param: path });
}

/** A field of an OpenAI request whose value is not what the Chat Completions API takes. */
export function invalidField(path: string, why: string): RouterError {
  return new RouterError('invalid_request', `fromOpenAI: ${path} is invalid: ${why}`, { code: 'invalid_parameter', param: path });
}

/** A plain JSON object (not null, not an array). */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Refuses any key of `value` outside `known`, naming the first as `path.key`. */
export function onlyKnownKeys(value: Record<string, unknown>, known: ReadonlySet<string>, path: string): void {
  for (const key of Object.keys(value)) {
    if (!known.has(key) && value[key] !== undefined) throw unsupportedField(`${path}.${key}`, 'no Switchyard equivalent');
  }
}
