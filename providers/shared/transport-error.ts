import { RouterError } from '../../src/errors.js';

interface Where {
  provider: string;
  model: string;
}

/** The errno-style code deepest in an error's cause chain (ECONNREFUSED, ECONNRESET, UND_ERR_SOCKET...). */
export function causeCode(err: unknown): string | undefined {
  let current: unknown = err;
  for (let depth = 0; depth < 5 && current; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && /^[A-Z_]+$/.test(code)) return code;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

/** A request that never got a usable answer: refused, reset, DNS, socket hang up, malformed body. */
export function transportError(err: unknown, where: Where, redact: (s: string) => string): RouterError {
  const code = causeCode(err);
  const detail = err instanceof Error ? err.message : String(err);
  return new RouterError('transport', redact(`${where.provider} transport error${code ? ` (${code})` : ''}: ${detail}`), Object.assign({}, where, { code, cause: err }));
}

/** The request was cancelled through its signal; the router tells a caller's abort from its own timeouts. */
export function abortedError(where: Where, cause: unknown): RouterError {
  return new RouterError('aborted', `${where.provider} request aborted`, Object.assign({}, where, { cause }));
}

/** A 2xx whose body is not the shape the API documents. */
export function malformedResponse(where: Where, what: string): RouterError {
  return new RouterError('transport', `${where.provider} sent a malformed response: ${what}`, Object.assign({}, where, { code: 'malformed_response' }));
}
