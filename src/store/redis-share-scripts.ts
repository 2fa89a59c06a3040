import { luaScript } from './redis-script.js';

/*
 * Fleet-wide fair shares, per target budget, in the budget's hash slot:
 *   b:<bucket>  HASH  tenant -> attempts admitted in that bucket of the rolling window
 *   wait        HASH  tenant \0 process -> when that process's entry expires (ms)
 */

/**
 * KEYS bucketPrefix wait; ARGV now, windowMs, bucketMs, waitingTtlMs, process, nServed,
 * (tenant, count) x nServed, nWaiting, tenant x nWaiting. Adds the counts to the current bucket,
 * refreshes the process's waiting entries, drops expired ones, and replies the window's counts
 * (tenant, count, ...) then '|' then the waiting tenants.
 */
export const SYNC_SHARES = luaScript(`
local now, windowMs, bucketMs, ttl, proc = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3]), tonumber(ARGV[4]), ARGV[5]
local bucket = math.floor(now / bucketMs)
local current = KEYS[1] .. int(bucket)
local n = tonumber(ARGV[6])
for i = 1, n do
  redis.call('HINCRBY', current, ARGV[5 + 2 * i], ARGV[6 + 2 * i])
end
if n > 0 then redis.call('PEXPIRE', current, int(windowMs + bucketMs + tonumber(ARGV[#ARGV]))) end
local w = 7 + 2 * n
local nw = tonumber(ARGV[w])
for i = 1, nw do
  redis.call('HSET', KEYS[2], ARGV[w + i] .. '\\0' .. proc, num(now + ttl))
end
if nw > 0 then redis.call('PEXPIRE', KEYS[2], int(ttl + tonumber(ARGV[#ARGV]))) end
local totals, order = {}, {}
local buckets = math.ceil(windowMs / bucketMs)
for b = bucket - buckets + 1, bucket do
  local fields = redis.call('HGETALL', KEYS[1] .. int(b))
  for i = 1, #fields, 2 do
    local t = fields[i]
    if totals[t] == nil then totals[t] = 0; order[#order + 1] = t end
    totals[t] = totals[t] + tonumber(fields[i + 1])
  end
end
local reply = {}
for _, t in ipairs(order) do reply[#reply + 1] = t; reply[#reply + 1] = tostring(totals[t]) end
reply[#reply + 1] = '|'
local seen = {}
local entries = redis.call('HGETALL', KEYS[2])
for i = 1, #entries, 2 do
  local field, untilMs = entries[i], tonumber(entries[i + 1])
  if untilMs <= now then
    redis.call('HDEL', KEYS[2], field)
  else
    local t = string.match(field, '^(.*)%z[^%z]*$')
    if t and not seen[t] then seen[t] = true; reply[#reply + 1] = t end
  end
end
return reply
`);
