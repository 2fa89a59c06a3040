import type { ErrorKind } from '../../src/errors.js';

/** The error kind an HTTP status means when the body says nothing more specific. */
export function statusKind(status: number): ErrorKind {
  if (status === 429) return 'rate_limited';
  if (status === 402) return 'quota_exhausted';
  if (status === 401 || status === 403) return 'auth';
  if (status === 404) return 'not_found';
  if (status === 408 || status === 409) return 'server';
  if (status >= 500) return 'server';
  return 'bad_request';
}
