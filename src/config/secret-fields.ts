import { inspect } from 'node:util';

const MASK = '[REDACTED]';

/**
 * Header and query names whose values are public (API versions, beta flags, a user agent): kept in
 * error messages, where a version an upstream refuses is the clue. Every other value may be a
 * credential (the config tells users to put them there instead of in `baseURL`).
 */
const PUBLIC_NAMES: ReadonlySet<string> = new Set(['api-version', 'anthropic-version', 'anthropic-beta', 'openai-beta', 'user-agent']);

/** Values shorter than this are not hunted in error text: redacting every `true` or `json` would garble it. */
const MIN_SECRET_LENGTH = 8;

/**
 * Makes a record print (JSON.stringify, util.inspect) with every value `[REDACTED]`, the names kept,
 * while the code that reads it (`Object.entries`, spreads, `record[name]`) still gets the values.
 */
export function maskedWhenPrinted<T extends Record<string, string>>(record: T): T {
  const masked = () => Object.fromEntries(Object.keys(record).map((name) => [name, MASK]));
  Object.defineProperty(record, 'toJSON', { value: masked, enumerable: false });
  Object.defineProperty(record, inspect.custom, { value: (_depth: number, options: object) => inspect(masked(), options), enumerable: false });
  return record;
}

/** A URL with its password (`user:password@`, a `password=` query) replaced by `[REDACTED]`. */
export function maskURLPassword(url: string): string {
  return url
    .replace(/^([a-z][a-z0-9+.-]*:\/\/[^/?#@]*?:)[^/?#@]*@/i, `$1${MASK}@`)
    .replace(/([?&]password=)[^&#]*/i, `$1${MASK}`);
}

/** Makes a Redis store config print with its URL's password masked; `store.url` still reads in full. */
export function storeMaskedWhenPrinted<T extends { url: string }>(store: T): T {
  const masked = () => ({ ...store, url: maskURLPassword(store.url) });
  Object.defineProperty(store, 'toJSON', { value: masked, enumerable: false });
  Object.defineProperty(store, inspect.custom, { value: (_depth: number, options: object) => inspect(masked(), options), enumerable: false });
  return store;
}

/** The password a Redis URL carries, if any (`redis://:pw@host`, `redis://user:pw@host`, `?password=pw`). */
export function urlPassword(url: string): string | undefined {
  try {
    const parsed = new URL(url);
    const password = parsed.password ? decodeURIComponent(parsed.password) : parsed.searchParams.get('password');
    return password || undefined;
  } catch {
    return undefined;
  }
}

/**
 * What of a provider's config the secret redactor hides in error text: its API key, and the values
 * of its `headers` and `query` (but public ones such as `api-version`, and values too short to hunt).
 */
export function providerSecrets(provider: { resolvedApiKey?: string; headers?: Record<string, string>; query?: Record<string, string> }): string[] {
  const out: string[] = provider.resolvedApiKey ? [provider.resolvedApiKey] : [];
  for (const record of [provider.headers, provider.query]) {
    if (!record) continue;
    for (const [name, value] of Object.entries(record)) {
      if (typeof value === 'string' && value.length >= MIN_SECRET_LENGTH && !PUBLIC_NAMES.has(name.toLowerCase())) out.push(value);
    }
  }
  return out;
}
