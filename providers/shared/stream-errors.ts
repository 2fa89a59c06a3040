import { RouterError } from '../../src/errors.js';

/** A stream that ended without the provider's terminal event: never a complete answer. */
export function truncatedStream(where: { provider: string; model: string }, expected: string): RouterError {
  return new RouterError('transport', `${where.provider} stream ended before ${expected}`, Object.assign({}, where, { code: 'stream_truncated' }));
}
