import { RouterError } from '../../errors.js';
import { describe } from '../../convert/wire-types.js';

/** A field of an Anthropic Messages request with no Switchyard equivalent: refused, naming its path. */
export function unsupported(path: string, why: string): RouterError {
  return new RouterError('invalid_request', `${path} is not supported: ${why}`, { code: 'unsupported_parameter', param: path });
}

/** A field of an Anthropic Messages request whose value is not what the Messages API takes. */
export function invalid(path: string, why: string): RouterError {
  return new RouterError('invalid_request', `${path} is invalid: ${why}`, { code: 'invalid_parameter', param: path });
}

/** `invalid`, for a value that is not of the type the field takes. */
export function wrongType(path: string, expected: string, value: unknown): RouterError {
  return invalid(path, `expected ${expected}, got ${describe(value)}`);
}
