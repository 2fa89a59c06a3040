import { luaScript } from './redis-script.js';

/*
 * Blocks and idempotency records: one key each. Every record carries its own end time, compared
 * with the caller's `nowMs`; the key's PX expiry only cleans up after it.
 *   block        STRING  the Block as JSON
 *   idempotency  HASH    f (fingerprint), v (value, once done), u (until)
 */

/** KEYS block; ARGV json, untilMs, now. Keeps a live block that lasts at least as long. */
export const SET_BLOCK = luaScript(`
local untilMs, now = tonumber(ARGV[2]), tonumber(ARGV[3])
if untilMs <= now then return 0 end
local current = redis.call('GET', KEYS[1])
if current then
  local ok, block = pcall(cjson.decode, current)
  local currentUntil = ok and type(block) == 'table' and tonumber(block.untilMs)
  if currentUntil and currentUntil > now and currentUntil >= untilMs then return 0 end
end
redis.call('SET', KEYS[1], ARGV[1])
keep(KEYS[1], untilMs - now)
return 1
`);

/** KEYS record; ARGV fingerprint, pendingTtlMs, now. Replies claimed | pending | done + value | mismatch. */
export const CLAIM = luaScript(`
local record = redis.call('HMGET', KEYS[1], 'f', 'v', 'u')
local ttl, now = tonumber(ARGV[2]), tonumber(ARGV[3])
if record[1] and (tonumber(record[3]) or 0) > now then
  if record[1] ~= ARGV[1] then return {'mismatch'} end
  if record[2] then return {'done', record[2]} end
  return {'pending'}
end
redis.call('DEL', KEYS[1])
redis.call('HSET', KEYS[1], 'f', ARGV[1], 'u', num(now + ttl))
keep(KEYS[1], ttl)
return {'claimed'}
`);

/** KEYS record; ARGV fingerprint, value, ttlMs, now. A live record of a different request is kept. */
export const COMPLETE = luaScript(`
local ttl, now = tonumber(ARGV[3]), tonumber(ARGV[4])
local record = redis.call('HMGET', KEYS[1], 'f', 'u')
if record[1] and record[1] ~= ARGV[1] and (tonumber(record[2]) or 0) > now then return 0 end
redis.call('DEL', KEYS[1])
redis.call('HSET', KEYS[1], 'f', ARGV[1], 'v', ARGV[2], 'u', num(now + ttl))
keep(KEYS[1], ttl)
return 1
`);
