import { luaScript } from './redis-script.js';

/*
 * One budget lives in five keys sharing the hash tag `{key}` (one cluster slot), mirroring
 * MemoryStore's Window:
 *   req   ZSET leaseId -> admitted at          requests in the window (RPM: ZCARD, oldest: rank 0)
 *   tok   ZSET entry -> at                     every token entry in time order: `r:<leaseId>` for a
 *                                              request's reservation, `c:<seq>:<leaseId>` for a charge
 *   amt   HASH entry -> tokens                 the tokens of each `tok` entry
 *   lease ZSET leaseId -> expires at           concurrency slots
 *   meta  HASH sum (tokens of all `tok` entries), win (last windowMs, for charges), seq (charge ids),
 *              provider headroom for requests (r*) and tokens (t*): left at the time `a`, until `u`,
 *              refill rate `r` per ms and cap `c` (the limit, absent when not reported); see Headroom
 *              in memory-store.ts, whose arithmetic this repeats operation for operation
 * `tok` and `amt` are always written and extended together and `meta` always at least as long, so
 * an empty `tok` means a zero sum (that heals `sum` after the window's keys expired).
 */

/** KEYS req, tok, amt, lease, meta; ARGV now, windowMs, tokens, leaseId, leaseTtlMs, rpm, tpm, concurrency ('' = none). */
export const ACQUIRE = luaScript(`
local req, tok, amt, lease, meta = KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5]
local now, win, tokens = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3])
local leaseId, leaseTtl = ARGV[4], tonumber(ARGV[5])
local rpm, tpm, concurrency = tonumber(ARGV[6]), tonumber(ARGV[7]), tonumber(ARGV[8])

local cutoff = num(now - win)
redis.call('ZREMRANGEBYSCORE', req, '-inf', cutoff)
redis.call('ZREMRANGEBYSCORE', lease, '-inf', num(now))
local h = redis.call('HMGET', meta, 'rl', 'ru', 'tl', 'tu', 'sum', 'ra', 'rr', 'rc', 'ta', 'tr', 'tc')
local stored = tonumber(h[5]) or 0
local sum = stored
local expired = redis.call('ZRANGEBYSCORE', tok, '-inf', cutoff)
for i = 1, #expired, 500 do
  local chunk = {unpack(expired, i, math.min(i + 499, #expired))}
  for _, t in ipairs(redis.call('HMGET', amt, unpack(chunk))) do sum = sum - (tonumber(t) or 0) end
  redis.call('HDEL', amt, unpack(chunk))
end
if #expired > 0 then redis.call('ZREMRANGEBYSCORE', tok, '-inf', cutoff) end
if redis.call('ZCARD', tok) == 0 then sum = 0 end
if sum ~= stored and redis.call('EXISTS', meta) == 1 then redis.call('HSET', meta, 'sum', num(sum)) end

if tpm and tokens > tpm then return {'too_large'} end
local rl, ru, tl, tu = tonumber(h[1]), tonumber(h[2]) or 0, tonumber(h[3]), tonumber(h[4]) or 0
local ra, rr, rc = tonumber(h[6]) or 0, tonumber(h[7]) or 0, tonumber(h[8])
local ta, tr, tc = tonumber(h[9]) or 0, tonumber(h[10]) or 0, tonumber(h[11])
local function avail(left, at, rate, cap)
  local a = left + (now - at) * rate
  if cap and a > cap then a = cap end
  return a
end
local function wait(left, at, untilT, rate, cap, need)
  if not left or untilT <= now then return 0 end
  local a = avail(left, at, rate, cap)
  if a >= need then return 0 end
  local whole = untilT - now
  if rate > 0 then return math.min(whole, math.ceil((need - a) / rate)) end
  return whole
end
local roomIn = math.max(wait(rl, ra, ru, rr, rc, 1), wait(tl, ta, tu, tr, tc, tokens))
if roomIn > 0 then return {'provider', num(roomIn)} end
if concurrency and redis.call('ZCARD', lease) >= concurrency then return {'concurrency'} end
if rpm and redis.call('ZCARD', req) >= rpm then
  local oldest = redis.call('ZRANGE', req, 0, 0, 'WITHSCORES')
  if oldest[2] == nil then return {'rpm'} end
  return {'rpm', num(tonumber(oldest[2]) + win - now)}
end
if tpm and sum + tokens > tpm then
  local freed, start = 0, 0
  while true do
    local page = redis.call('ZRANGE', tok, start, start + 199, 'WITHSCORES')
    if #page == 0 then break end
    local members = {}
    for i = 1, #page, 2 do members[#members + 1] = page[i] end
    local amounts = redis.call('HMGET', amt, unpack(members))
    for j = 1, #members do
      freed = freed + (tonumber(amounts[j]) or 0)
      if sum - freed + tokens <= tpm then return {'tpm', num(tonumber(page[2 * j]) + win - now)} end
    end
    start = start + 200
  end
  return {'tpm', num(win)}
end

local entry = 'r:' .. leaseId
redis.call('ZADD', req, num(now), leaseId)
redis.call('ZADD', tok, num(now), entry)
redis.call('HSET', amt, entry, num(tokens))
redis.call('ZADD', lease, num(now + leaseTtl), leaseId)
local fields = {'sum', num(sum + tokens), 'win', num(win)}
if rl and ru > now then
  for _, v in ipairs({'rl', num(avail(rl, ra, rr, rc) - 1), 'ra', num(now)}) do fields[#fields + 1] = v end
end
if tl and tu > now then
  for _, v in ipairs({'tl', num(avail(tl, ta, tr, tc) - tokens), 'ta', num(now)}) do fields[#fields + 1] = v end
end
redis.call('HSET', meta, unpack(fields))
keep(req, win)
keep(tok, win)
keep(amt, win)
keep(lease, leaseTtl)
-- A charge can come as late as the lease's end, and must still find the budget.
keep(meta, win + leaseTtl)
return {'ok'}
`);

/** KEYS req, tok, amt, lease, meta; ARGV leaseId, sent ('1' | '0'). */
export const RELEASE = luaScript(`
local req, tok, amt, lease, meta = KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5]
local leaseId = ARGV[1]
redis.call('ZREM', lease, leaseId)
if ARGV[2] == '1' then return 0 end
redis.call('ZREM', req, leaseId)
local entry = 'r:' .. leaseId
local tokens = tonumber(redis.call('HGET', amt, entry))
if not tokens then return 0 end
redis.call('HDEL', amt, entry)
redis.call('ZREM', tok, entry)
local sum = 0
if redis.call('ZCARD', tok) > 0 then sum = (tonumber(redis.call('HGET', meta, 'sum')) or 0) - tokens end
if redis.call('EXISTS', meta) == 1 then redis.call('HSET', meta, 'sum', num(sum)) end
return 1
`);

/** KEYS tok, amt, meta; ARGV leaseId, tokens, now, default windowMs. */
export const CHARGE = luaScript(`
local tok, amt, meta = KEYS[1], KEYS[2], KEYS[3]
if redis.call('EXISTS', meta) == 0 then return 0 end
local tokens, now = tonumber(ARGV[2]), tonumber(ARGV[3])
local win = tonumber(redis.call('HGET', meta, 'win')) or tonumber(ARGV[4])
local entry = 'c:' .. redis.call('HINCRBY', meta, 'seq', 1) .. ':' .. ARGV[1]
local sum = 0
if redis.call('ZCARD', tok) > 0 then sum = tonumber(redis.call('HGET', meta, 'sum')) or 0 end
redis.call('ZADD', tok, num(now), entry)
redis.call('HSET', amt, entry, num(tokens))
redis.call('HSET', meta, 'sum', num(sum + tokens))
keep(tok, win)
keep(amt, win)
keep(meta, win)
return 1
`);

/**
 * KEYS meta; ARGV now, then for requests and for tokens: left, resetMs, limit ('' = not reported;
 * left '' means the window was not reported at all).
 */
export const OBSERVE = luaScript(`
local meta, now = KEYS[1], tonumber(ARGV[1])
local life = 0
local function observe(p, left, reset, limit)
  if left == '' then return end
  left, reset, limit = tonumber(left), tonumber(reset), tonumber(limit)
  local rate = 0
  if limit and reset > 0 and limit > left then rate = (limit - left) / reset end
  redis.call('HSET', meta, p .. 'l', num(left), p .. 'a', num(now), p .. 'u', num(now + reset), p .. 'r', num(rate))
  if limit then redis.call('HSET', meta, p .. 'c', num(limit)) else redis.call('HDEL', meta, p .. 'c') end
  life = math.max(life, reset)
end
observe('r', ARGV[2], ARGV[3], ARGV[4])
observe('t', ARGV[5], ARGV[6], ARGV[7])
keep(meta, life)
return 1
`);
