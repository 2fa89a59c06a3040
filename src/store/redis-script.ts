import { createHash } from 'node:crypto';
import type { Cluster, Redis } from 'ioredis';

/** A client the Redis store can talk through: a single node or a cluster. */
export type RedisClient = Redis | Cluster;

/** A Lua script with its SHA1, run by digest so the source crosses the wire once per server. */
export interface LuaScript {
  readonly source: string;
  readonly sha: string;
}

/**
 * Helpers every script starts with. Numbers go to Redis as strings we format ourselves: Redis would
 * otherwise format a Lua number its own way (`1.8e+12`), which PEXPIRE rejects and scores may round.
 */
const PRELUDE = `
local function num(x) return string.format('%.17g', x) end
local function int(x) return string.format('%d', x) end
-- Extends a key's expiry to at least ms (plus grace); never shortens it, never creates the key.
local function keep(key, ms)
  local want = math.max(math.ceil(ms), 0) + tonumber(ARGV[#ARGV])
  local ttl = redis.call('PTTL', key)
  if ttl ~= -2 and ttl < want then redis.call('PEXPIRE', key, int(want)) end
end
`;

/**
 * How long a key outlives its contents. Expiry is only clean-up (every read compares the caller's
 * `nowMs`), so the grace keeps state alive for a caller whose clock runs slightly behind Redis's or
 * that stalled between two calls.
 */
export const EXPIRY_GRACE_MS = 5_000;

/** Wraps a script body with the shared helpers; its last ARGV must be the expiry grace. */
export function luaScript(body: string): LuaScript {
  const source = PRELUDE + body;
  return { source, sha: createHash('sha1').update(source).digest('hex') };
}

/**
 * Runs a script by EVALSHA, loading it with EVAL when the server does not know it yet (first use,
 * after a restart or a SCRIPT FLUSH, or on a cluster node that never saw it).
 */
export async function runScript(client: RedisClient, script: LuaScript, keys: string[], args: Array<string | number>): Promise<unknown> {
  const argv = [...keys, ...args.map(String), String(EXPIRY_GRACE_MS)];
  // Both client types share these signatures; the union's overloads just don't unify in TS.
  const redis = client as Redis;
  try {
    return await redis.evalsha(script.sha, keys.length, ...argv);
  } catch (err) {
    if (!(err instanceof Error) || !err.message.startsWith('NOSCRIPT')) throw err;
    return await redis.eval(script.source, keys.length, ...argv);
  }
}
