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
