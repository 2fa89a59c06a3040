const SK_KEY = /\bsk-[A-Za-z0-9_*-]{8,}/g;

/**
 * Returns a function that replaces every given secret inside a string with `[REDACTED]`.
 * Provider error messages can echo a key back ("Incorrect API key provided: sk-..."), so every
 * message that leaves an adapter passes through one of these.
 */
export function secretRedactor(secrets: ReadonlyArray<string | undefined>): (text: string) => string {
  const list = secrets.filter((s): s is string => typeof s === 'string' && s.length >= 4);
  return (text) => {
    let out = text;
    for (const secret of list) if (out.includes(secret)) out = out.split(secret).join('[REDACTED]');
    // Providers echo keys partly masked ("sk-VKMIs****wjh3"); hide what they kept of it too.
    return out.replace(SK_KEY, 'sk-[REDACTED]');
  };
}

/** pino `redact` paths: config and header fields that could hold a key, at any depth we log. */
export const REDACT_PATHS: readonly string[] = Object.freeze([
  'apiKey', '*.apiKey', '*.*.apiKey', 'resolvedApiKey', '*.resolvedApiKey', '*.*.resolvedApiKey',
  'authorization', 'headers.authorization', '*.headers.authorization',
  'headers["x-api-key"]', '*.headers["x-api-key"]',
]);

const MAX_DEPTH = 6;

/** Redacts every string in a (JSON-like) value, in place, a few levels deep (an SDK error's parsed body). */
function redactValue(value: unknown, redact: (text: string) => string, depth: number): unknown {
  if (typeof value === 'string') return redact(value);
  if (depth <= 0 || typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) value[i] = redactValue(value[i], redact, depth - 1);
    return value;
  }
  for (const key of Object.keys(value)) {
    const v = (value as Record<string, unknown>)[key];
    if (typeof v === 'string' || (typeof v === 'object' && v !== null && !(v instanceof Headers))) {
      try {
        (value as Record<string, unknown>)[key] = redactValue(v, redact, depth - 1);
      } catch {
        // A read-only field: it stays as it is.
      }
    }
  }
  return value;
}

/**
 * Redacts an error and its whole `cause` chain in place: messages, stacks (which repeat the
 * message) and the string fields of parsed bodies an SDK error keeps (`error`). A provider that
 * echoes an API key in a 401, an error frame or a 500 must not get it into `console.error(err)`,
 * pino's `err` serializer or any cause. Errors are changed in place, so `instanceof` still holds.
 */
export function redactErrorChain<E>(err: E, redact: (text: string) => string): E {
  const seen = new Set<unknown>();
  let current: unknown = err;
  for (let depth = 0; depth < MAX_DEPTH && typeof current === 'object' && current !== null && !seen.has(current); depth++) {
    seen.add(current);
    const e = current as { message?: unknown; stack?: unknown; error?: unknown; cause?: unknown };
    for (const field of ['message', 'stack'] as const) {
      if (typeof e[field] === 'string') {
        const clean = redact(e[field] as string);
        if (clean !== e[field]) Object.defineProperty(e, field, { value: clean, writable: true, configurable: true, enumerable: field === 'message' && Object.prototype.propertyIsEnumerable.call(e, field) });
      }
    }
    // Every other field an SDK error keeps of the upstream's words (`error`, Anthropic's `apiMessage`, ...).
    for (const key of Object.keys(e)) {
      if (key === 'cause' || key === 'headers') continue;
      const v = (e as Record<string, unknown>)[key];
      if (typeof v === 'string' || (typeof v === 'object' && v !== null)) {
        try {
          (e as Record<string, unknown>)[key] = redactValue(v, redact, 4);
        } catch {
          // A read-only field: it stays as it is.
        }
      }
    }
    current = e.cause;
  }
  return err;
}
