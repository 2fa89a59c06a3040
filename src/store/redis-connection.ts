import { Cluster, Redis } from 'ioredis';
import { RouterError } from '../errors.js';
import type { RedisClient } from './redis-script.js';

/** Where the store's Redis is, as it may appear in errors and logs: never with a password. */
export interface RedisEndpoint {
  /** The URL or address with any password replaced by `***`. */
  readonly safeUrl: string;
  /** Strings that must never reach a message (the password, raw and decoded). */
  readonly secrets: readonly string[];
}

const URL_SHAPE = 'redis://[[user]:password@]host[:port][/db] or rediss://...';

/** Parses a Redis URL for the store, or throws a `config` error that does not echo its password. */
export function parseRedisUrl(url: string): RedisEndpoint {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new RouterError('config', `Invalid Redis store URL "${redactUnparsable(url)}": expected ${URL_SHAPE}`);
  }
  const secrets = secretsOf(parsed);
  const safeUrl = redact(parsed);
  if ((parsed.protocol !== 'redis:' && parsed.protocol !== 'rediss:') || parsed.hostname === '') {
    throw new RouterError('config', `Invalid Redis store URL "${safeUrl}": expected ${URL_SHAPE}`);
  }
  return { safeUrl, secrets };
}

/** Describes a client the caller built (its options hold no URL, and we never print its password). */
export function describeClient(client: RedisClient): RedisEndpoint {
  if (client instanceof Cluster) return { safeUrl: 'a Redis cluster', secrets: [] };
  const { host, port, db, path, password } = client.options;
  const secrets = password ? [password] : [];
  if (path) return { safeUrl: `the Redis socket ${path}`, secrets };
  return { safeUrl: `redis://${host ?? 'localhost'}:${port ?? 6379}/${db ?? 0}`, secrets };
}

/**
 * A client for the store's own use. It connects on first use (a router can be built without Redis up),
 * fails a command after one reconnection attempt or `timeoutMs` instead of queueing it for ever, and
 * keeps reconnecting in the background so the store recovers when Redis comes back.
 */
export function openRedisClient(url: string, timeoutMs: number): { client: Redis; lastError: () => Error | undefined } {
  const client = new Redis(url, { lazyConnect: true, connectTimeout: timeoutMs, commandTimeout: timeoutMs, maxRetriesPerRequest: 1 });
  let lastError: Error | undefined;
  // Without a listener ioredis prints every connection error to the console itself.
  client.on('error', (err: Error) => (lastError = err));
  client.on('ready', () => (lastError = undefined));
  return { client, lastError: () => lastError };
}

const AUTH_FAILURE = /WRONGPASS|NOAUTH|NOPERM|invalid password|invalid username-password/i;

/**
 * Turns whatever a Redis call threw into a `RouterError`: `config` when Redis refused the
 * credentials, `transport` otherwise (unreachable, timed out, closed). The message names the
 * endpoint without its password; the cause is dropped if it mentions a secret.
 */
export function storeError(err: unknown, endpoint: RedisEndpoint, connectionError?: Error): RouterError {
  const error = err instanceof Error ? err : new Error(String(err));
  const scrub = (text: string) => endpoint.secrets.reduce((t, s) => t.split(s).join('***'), text);
  const leaks = (e: Error | undefined) => e !== undefined && scrub(`${e.message}\n${e.stack ?? ''}`) !== `${e.message}\n${e.stack ?? ''}`;
  const where = `Redis store at ${endpoint.safeUrl}`;
  const cause = leaks(error) || leaks(connectionError) ? undefined : (connectionError ?? error);

  if (AUTH_FAILURE.test(error.message) || (connectionError && AUTH_FAILURE.test(connectionError.message))) {
    return new RouterError('config', `${where} rejected the credentials: check the user and password in the store URL`, { cause, code: 'redis_auth' });
  }
  let reason: string;
  if (error.name === 'MaxRetriesPerRequestError') reason = `is unreachable (${connectionError?.message ?? 'no connection'})`;
  else if (error.message === 'Connection is closed.') reason = connectionError ? `lost its connection (${connectionError.message})` : 'is closed';
  else if (error.message === 'Command timed out') reason = 'did not answer in time';
  else reason = `failed: ${error.message}`;
  return new RouterError('transport', scrub(`${where} ${reason}`), { cause, code: 'redis' });
}

/**
 * The client's connection dropped (its `close` event), before any command failed: the error a
 * command would have met, naming the server and the client's last error.
 */
export function connectionLost(endpoint: RedisEndpoint, lastError: Error | undefined): RouterError {
  return storeError(new Error('Connection is closed.'), endpoint, lastError);
}

function secretsOf(url: URL): string[] {
  const raw = [url.password, ...[...url.searchParams].filter(([k]) => /pass|secret|token/i.test(k)).map(([, v]) => v)];
  const all = raw.flatMap((s) => [s, safeDecode(s)]);
  return [...new Set(all.filter((s) => s !== ''))];
}

function redact(url: URL): string {
  const copy = new URL(url.href);
  if (copy.password) copy.password = '***';
  for (const [k] of [...copy.searchParams]) if (/pass|secret|token/i.test(k)) copy.searchParams.set(k, '***');
  return copy.href;
}

/** An unparsable URL may still hold `user:password@` or `?password=`: hide those parts. */
function redactUnparsable(input: string): string {
  const query = input.indexOf('?');
  const url = query < 0 ? input : `${input.slice(0, query)}?***`;
  const at = url.lastIndexOf('@');
  if (at < 0) return url;
  const scheme = url.indexOf('://');
  const start = scheme >= 0 && scheme < at ? scheme + 3 : 0;
  return `${url.slice(0, start)}***${url.slice(at)}`;
}

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}
