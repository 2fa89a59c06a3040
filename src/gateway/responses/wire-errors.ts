import { RouterError } from '../../errors.js';

/** A field of a Responses request the gateway cannot honour: 400 `unsupported_parameter`, naming it. */
export function unsupported(param: string, why: string): RouterError {
  return new RouterError('invalid_request', `${param} is not supported: ${why}`, { code: 'unsupported_parameter', param });
}

/** A field whose value is not what the Responses API takes: 400 `invalid_type` or `invalid_value`, naming it. */
export function invalid(param: string, why: string, code: 'invalid_type' | 'invalid_value' | 'missing_required_parameter' = 'invalid_value'): RouterError {
  return new RouterError('invalid_request', `${param} is invalid: ${why}`, { code, param });
}

/** A plain JSON object (not null, not an array). */
export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `value` when it is a string, undefined when absent or null; else a 400 naming `param`. */
export function optionalString(value: unknown, param: string): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') throw invalid(param, `expected a string, got ${typeName(value)}`, 'invalid_type');
  return value;
}

/** `value` when it is a finite number, undefined when absent or null; else a 400 naming `param`. */
export function optionalNumber(value: unknown, param: string): number | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'number' || !Number.isFinite(value)) throw invalid(param, `expected a number, got ${typeName(value)}`, 'invalid_type');
  return value;
}

/** `value` when it is a boolean, undefined when absent or null; else a 400 naming `param`. */
export function optionalBoolean(value: unknown, param: string): boolean | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'boolean') throw invalid(param, `expected a boolean, got ${typeName(value)}`, 'invalid_type');
  return value;
}

/** The JSON type of a value, for messages: `string "hot"`, `an array`, `null`. */
export function typeName(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'string') return `string ${JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value)}`;
  return typeof value === 'object' ? 'an object' : `${typeof value} ${String(value)}`;
}
