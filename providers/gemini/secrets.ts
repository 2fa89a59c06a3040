/** Values shorter than this are not hunted in error text (redacting every `true` would garble it). */
const MIN_SECRET_LENGTH = 8;
/** Header and query names whose values are public, kept in error text. */
const PUBLIC_NAMES = new Set(['user-agent', 'x-goog-api-client', 'alt']);

/**
 * Hides the provider's key, and every value of its `headers` and `query` that may be a credential,
 * in any text: the adapter runs every upstream message, body and transport error through it.
 */
export function geminiRedactor(provider: { resolvedApiKey?: string; headers?: Record<string, string>; query?: Record<string, string> }): (text: string) => string {
  const secrets = provider.resolvedApiKey ? [provider.resolvedApiKey] : [];
  for (const record of [provider.headers, provider.query]) {
    for (const [name, value] of Object.entries(record ?? {})) {
      if (typeof value === 'string' && value.length >= MIN_SECRET_LENGTH && !PUBLIC_NAMES.has(name.toLowerCase())) secrets.push(value);
    }
  }
  if (secrets.length === 0) return (text) => text;
  return (text) => {
    let out = text;
    for (const secret of secrets) if (out.includes(secret)) out = out.split(secret).join('[REDACTED]');
    return out;
  };
}
